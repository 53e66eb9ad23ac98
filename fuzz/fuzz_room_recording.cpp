// libFuzzer target: a room recording's reader (server/room_recording.h) and the replay of what it
// reads (server/room_replay.h). A recording comes from a file anyone can hand `tickwire replay`: its
// bytes are trusted no more than a packet's. The input is read whole or spliced into a valid
// recording of the reference world (tests/world/room_recording_fuzz.h); whatever reads with the
// valid recording's contract is replayed over the reference game. Nothing may crash.
#include <cstddef>
#include <cstdint>
#include <span>

#include "room_recording_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  (void)tickwire::world::rigs::run_recording_fuzz_input(std::span<const uint8_t>(data, size));
  return 0;
}
