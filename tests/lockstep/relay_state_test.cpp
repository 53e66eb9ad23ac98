// The relay's state as it moves between hosts: taken mid-match it crosses the wire and restores
// into a relay that exports the very same state (bit-exact), relays what the old one would have,
// and refuses a state that breaks a rule. Also writes the handshake reader's fuzz seed.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "fuzz_seed_check.h"
#include "tickwire/lockstep/lockstep_relay.h"
#include "tickwire/lockstep/migration_messages.h"
#include "tickwire/lockstep/rollback_session.h"
#include "tickwire/wire/codec.h"
#include "tickwire/world/arena_bot_input.h"
#include "tickwire/world/lockstep_arena.h"

namespace tickwire::lockstep {
namespace {

// Four sessions and a relay exchanging frames in memory for a while (no loss).
struct InMemoryMatch {
  InMemoryMatch() : relay(LockstepSettings{}) {
    for (uint8_t s = 0; s < 4; ++s) {
      EXPECT_TRUE(relay.take_seat(s));
      arenas.push_back(std::make_unique<world::LockstepArena>(4, 1));
      inputs.push_back(std::make_unique<world::ArenaBotInput>(s + 10));
      sessions.push_back(std::make_unique<RollbackSession>(*arenas.back(), *inputs.back()));
    }
    relay.start(now);
    std::array<uint8_t, 1200> buffer{};
    for (uint8_t s = 0; s < 4; ++s) {
      EXPECT_TRUE(sessions[s]->receive(std::span(buffer.data(), relay.write_welcome(s, buffer)), now, Duration{}).ok());
    }
  }
  void play(int frames) {
    std::array<uint8_t, 1200> buffer{};
    for (int f = 0; f < frames; ++f) {
      now += Duration::nanoseconds(16'666'667);
      for (uint8_t s = 0; s < 4; ++s) {
        sessions[s]->advance(now);
        EXPECT_TRUE(relay.receive(s, std::span(buffer.data(), sessions[s]->write(buffer)), now).ok());
      }
      relay.update(now);
      for (uint8_t s = 0; s < 4; ++s) {
        EXPECT_TRUE(sessions[s]->receive(std::span(buffer.data(), relay.write_relay(s, now, buffer)), now, Duration{}).ok());
      }
    }
  }
  MonoTime now;
  LockstepRelay relay;
  std::vector<std::unique_ptr<world::LockstepArena>> arenas;
  std::vector<std::unique_ptr<world::ArenaBotInput>> inputs;
  std::vector<std::unique_ptr<RollbackSession>> sessions;
};

TEST(RelayState, ARestoredRelayExportsTheSameStateAndRelaysTheSameFrames) {
  InMemoryMatch match;
  match.play(300);
  ASSERT_GT(match.relay.compared_through(), 250u);
  HandoverOffer offer{7, match.relay.export_state(match.now)};
  const std::vector<uint8_t> wire_bytes = message_bytes(offer);
  HandoverOffer read;
  ASSERT_TRUE(wire::decode(std::span<const uint8_t>(wire_bytes).subspan(1), read).ok());
  std::optional<LockstepRelay> restored = LockstepRelay::restore(read.state, match.now, Duration{});
  ASSERT_TRUE(restored.has_value());
  EXPECT_EQ(message_bytes(HandoverOffer{7, restored->export_state(match.now)}), wire_bytes) << "bit-exact";
  EXPECT_EQ(restored->agreed_checksum(), match.relay.agreed_checksum());
  std::array<uint8_t, 1200> a{}, b{};
  for (uint8_t s = 0; s < 4; ++s) {
    const std::size_t na = match.relay.write_relay(s, match.now, a);
    const std::size_t nb = restored->write_relay(s, match.now, b);
    ASSERT_EQ(na, nb);
    EXPECT_TRUE(std::equal(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(na), b.begin())) << "seat " << s;
  }
  test::check_fuzz_seed(test::fixtures_dir() / "fuzz" / "fuzz_handover", "offer_after_300_frames.bin", wire_bytes);
}

TEST(RelayState, AStateThatBreaksARuleIsRefused) {
  InMemoryMatch match;
  match.play(60);
  const RelayState good = match.relay.export_state(match.now);
  RelayState seats = good;
  seats.seats.pop_back();
  EXPECT_FALSE(LockstepRelay::restore(seats, match.now, Duration{}).has_value()) << "a seat missing";
  RelayState held = good;
  held.seats[1].held[2].frame += 1000;
  EXPECT_FALSE(LockstepRelay::restore(held, match.now, Duration{}).has_value()) << "a peer holding what the relay never had";
  RelayState partial = good;
  partial.seats[0].inputs.pop_back();
  EXPECT_FALSE(LockstepRelay::restore(partial, match.now, Duration{}).has_value()) << "part of an input";
  RelayState terms = good;
  terms.terms.settings.policy.rollback_window_frames = 0;
  EXPECT_FALSE(LockstepRelay::restore(terms, match.now, Duration{}).has_value());
  EXPECT_TRUE(LockstepRelay::restore(good, match.now, Duration{}).has_value());
}

}  // namespace
}  // namespace tickwire::lockstep
