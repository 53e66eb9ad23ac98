// Fuzzes the server's interaction handler (a client's interactRequest is untrusted input): a script
// of bytes drives a Room around the reference game through requests, placements, Use presses, ticks,
// despawns and respawns (tests/world/interaction_script.h, shared with the seed test), and any rule
// of the handler's accounting it breaks traps: each request refused or judged exactly once, no use
// of a dead or unreachable object, every answer taken or dropped at the cap, no event naming an
// object the map lacks. Each input builds its own game and room from the map loaded once.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>

#include "interaction_script.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace tickwire::world::scripts;
  const ScriptOutcome outcome = run_interaction_script(std::span<const uint8_t>(data, size));
  if (outcome.violation) {
    std::fprintf(stderr, "interaction handler: %.*s (after %llu operations)\n",
                 static_cast<int>(outcome.violation->size()), outcome.violation->data(),
                 static_cast<unsigned long long>(outcome.operations));
    __builtin_trap();
  }
  return 0;
}
