// Fuzzes the server's fire handler (a client's fireRequest is untrusted input, issue 19): a script
// of bytes drives a Room around the reference game through raw and aimed requests, placements (the
// float limits and the pool's rim), ticks, waits, sessions leaving and joining and drains
// (tests/world/fire_script.h, shared with the seed test), and any rule of the handler's accounting
// it breaks traps: each request refused or accepted exactly once, each accepted shot traced or
// dropped exactly once, its render time within the rewind bound, every hit true to its shot. Each
// input builds its own game and room from the map loaded once.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>

#include "fire_script.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace tickwire::world::scripts;
  const FireScriptOutcome outcome = run_fire_script(std::span<const uint8_t>(data, size));
  if (outcome.violation) {
    std::fprintf(stderr, "fire handler: %.*s (after %llu operations)\n", static_cast<int>(outcome.violation->size()),
                 outcome.violation->data(), static_cast<unsigned long long>(outcome.operations));
    __builtin_trap();
  }
  return 0;
}
