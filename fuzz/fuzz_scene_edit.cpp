// Fuzzes the server's scene edit handler (a client's sceneEdit is untrusted input, issue 19): a
// script of sender bytes and sceneEdit bodies drives a Room around the reference game
// (tests/world/edit_script.h, shared with the seed test), and any rule of the edit set it breaks
// traps: a revision that jumps, a refusal for another sender, an unordered or oversized state, a
// field state the rules refuse, or server statics a client would not build from the same state.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>

#include "edit_script.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const auto outcome = tickwire::world::scripts::run_edit_script(std::span<const uint8_t>(data, size));
  if (outcome.violation) {
    std::fprintf(stderr, "scene edit handler: %s (after %llu gestures)\n", outcome.violation->c_str(),
                 static_cast<unsigned long long>(outcome.gestures));
    __builtin_trap();
  }
  return 0;
}
