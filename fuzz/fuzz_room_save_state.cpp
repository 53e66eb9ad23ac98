// libFuzzer target: a room's save state reader (seed 002). A save comes from another process (a
// migrating host, a replay file): its bytes are trusted no more than a packet's. The input is read
// as a whole save and spliced into a valid one saved mid-game (tests/world/save_state_fuzz.h);
// whatever loads must run and save again. Nothing may crash.
#include <cstddef>
#include <cstdint>
#include <span>

#include "save_state_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  (void)tickwire::world::rigs::run_save_fuzz_input(std::span<const uint8_t>(data, size));
  return 0;
}
