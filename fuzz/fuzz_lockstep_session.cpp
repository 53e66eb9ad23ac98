// Fuzzes a deterministic-mode peer: the input is a stream of messages from the authority, each
// behind its u16 little-endian length (the seeds open with a welcome, then relays), fed to a
// rollback session over the arena, which advances a frame and writes its own message after each.
// Whatever arrives, nothing crashes, no rollback reaches past the confirmed frame (asserted
// inside), and nothing is read past a length.
#include <cstddef>
#include <cstdint>
#include <span>

#include "tickwire/core/bytes.h"
#include "tickwire/lockstep/rollback_session.h"
#include "tickwire/world/arena_bot_input.h"
#include "tickwire/world/lockstep_arena.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace tickwire;
  world::LockstepArena arena(4, 1);
  world::ArenaBotInput input(1);
  lockstep::RollbackSession session(arena, input);
  std::span<const uint8_t> in(data, size);
  MonoTime now{};
  uint8_t out[1200];
  while (in.size() >= 2) {
    const std::size_t length = load_le<uint16_t>(in.data());
    if (length > in.size() - 2) break;
    (void)session.receive(in.subspan(2, length), now, Duration::milliseconds(100));
    in = in.subspan(2 + length);
    now += Duration::milliseconds(17);
    session.advance(now);
    (void)session.write(out);
  }
  return 0;
}
