// The deterministic-mode fuzz targets' seeds, built from the shapes they exercise: a welcome and
// relays for the session, peer messages for the relay, a mid-game saved state for the arena's
// reader. TICKWIRE_FUZZ_SEEDS=write regenerates them.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "fuzz_seed_check.h"
#include "tickwire/lockstep/lockstep_relay.h"
#include "tickwire/lockstep/migration_messages.h"
#include "tickwire/lockstep/rollback_session.h"
#include "tickwire/world/arena_bot_input.h"
#include "tickwire/world/lockstep_arena.h"

namespace tickwire::lockstep {
namespace {

std::filesystem::path seeds(const char* target) { return test::fixtures_dir() / "fuzz" / target; }

TEST(LockstepFuzzSeeds, SessionRelayAndArenaState) {
  LockstepSettings four;
  LockstepRelay relay(four);
  for (uint8_t s = 0; s < 4; ++s) ASSERT_TRUE(relay.take_seat(s));
  relay.start(MonoTime{});
  std::vector<std::unique_ptr<world::LockstepArena>> arenas;
  std::vector<std::unique_ptr<world::ArenaBotInput>> inputs;
  std::vector<std::unique_ptr<RollbackSession>> sessions;
  std::vector<uint8_t> session_stream, relay_stream;
  std::array<uint8_t, 1200> buffer{};
  for (uint8_t s = 0; s < 4; ++s) {
    arenas.push_back(std::make_unique<world::LockstepArena>(4, 1));
    inputs.push_back(std::make_unique<world::ArenaBotInput>(s + 1));
    sessions.push_back(std::make_unique<RollbackSession>(*arenas.back(), *inputs.back()));
    const std::size_t n = relay.write_welcome(s, buffer);
    ASSERT_TRUE(sessions.back()->receive(std::span(buffer.data(), n), MonoTime{}, Duration{}).ok());
    if (s == 0) test::append_length_prefixed(session_stream, std::span(buffer.data(), n));
  }
  MonoTime now{};
  for (int frame = 0; frame < 6; ++frame) {
    now += Duration::milliseconds(17);
    for (uint8_t s = 0; s < 4; ++s) {
      sessions[s]->advance(now);
      const std::size_t n = sessions[s]->write(buffer);
      ASSERT_TRUE(relay.receive(s, std::span(buffer.data(), n), now).ok());
      relay_stream.push_back(s);
      test::append_length_prefixed(relay_stream, std::span(buffer.data(), n));
    }
    relay.update(now);
    for (uint8_t s = 0; s < 4; ++s) {
      const std::size_t n = relay.write_relay(s, now, buffer);
      ASSERT_TRUE(sessions[s]->receive(std::span(buffer.data(), n), now, Duration::milliseconds(50)).ok());
      if (s == 0) test::append_length_prefixed(session_stream, std::span(buffer.data(), n));
    }
  }
  EXPECT_GT(sessions[0]->next_frame(), kFirstFrame);
  test::check_fuzz_seed(seeds("fuzz_lockstep_session"), "welcome_and_relays.bin", session_stream);
  test::check_fuzz_seed(seeds("fuzz_lockstep_relay"), "four_peers_six_frames.bin", relay_stream);
  // Every message of the registry, alone, for fuzz_lockstep_messages.
  const std::filesystem::path messages = seeds("fuzz_lockstep_messages");
  test::check_fuzz_seed(messages, "lockstepWelcome.bin", std::vector<uint8_t>(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(relay.write_welcome(1, buffer))));
  test::check_fuzz_seed(messages, "peerFrames.bin", std::vector<uint8_t>(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(sessions[1]->write(buffer))));
  test::check_fuzz_seed(messages, "relayFrames.bin", std::vector<uint8_t>(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(relay.write_relay(1, now, buffer))));
  test::check_fuzz_seed(messages, "handoverOffer.bin", message_bytes(HandoverOffer{3, relay.export_state(now)}));
  test::check_fuzz_seed(messages, "handoverAccept.bin", message_bytes(HandoverAccept{3}));
  test::check_fuzz_seed(messages, "hostMove.bin", message_bytes(HostMove{3, 1}));
  test::check_fuzz_seed(messages, "handoverDone.bin", message_bytes(HandoverDone{3}));
  test::check_fuzz_seed(messages, "hostStay.bin", message_bytes(HostStay{3}));
  test::check_fuzz_seed(messages, "successors.bin", message_bytes(Successors{0, {{2}, {1}, {3}}}));
  std::vector<uint8_t> state(arenas[0]->max_state_bytes());
  state.resize(arenas[0]->save(state));
  test::check_fuzz_seed(seeds("fuzz_arena_state"), "four_seats_mid_game.bin", state);
}

}  // namespace
}  // namespace tickwire::lockstep
