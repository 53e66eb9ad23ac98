// Fuzzes the replay reader (lockstep/replay.h) and the replay of what it reads into the arena: any
// bytes either are refused by name or read into a recording whose replay stops at a divergence or
// runs to its end, never past a length.
#include <cstddef>
#include <cstdint>
#include <span>

#include "tickwire/lockstep/replay.h"
#include "tickwire/world/lockstep_arena.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace tickwire;
  const Result<lockstep::Replay> read = lockstep::read_replay(std::span<const uint8_t>(data, size));
  if (!read) return 0;
  const lockstep::Replay& replay = read.value();
  if (replay.input_bytes != world::kArenaInputBytes || replay.seats > world::kArenaMaxSeats) return 0;
  world::LockstepArena arena(replay.seats, 1);
  (void)lockstep::replay_run(replay, arena);
  return 0;
}
