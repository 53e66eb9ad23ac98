// Fuzzes the save-state reader of deterministic mode's reference game: any bytes are loaded into a
// four-seat arena; what loads must save back to exactly the same bytes (the layout is bit-exact),
// and what is refused must leave the state as it was.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

#include "tickwire/world/lockstep_arena.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace tickwire;
  world::LockstepArena arena(4, 1);
  std::vector<uint8_t> before(arena.max_state_bytes());
  before.resize(arena.save(before));
  std::vector<uint8_t> after(arena.max_state_bytes());
  const Status status = arena.load(std::span<const uint8_t>(data, size));
  after.resize(arena.save(after));
  if (status.ok() && (after.size() != size || std::memcmp(after.data(), data, size) != 0)) std::abort();
  if (!status.ok() && after != before) std::abort();
  return 0;
}
