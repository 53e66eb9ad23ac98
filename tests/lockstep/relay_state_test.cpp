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

// A relay's frames stay within what a state may name however long it runs: its clock stops at
// kLastClockFrame, so a relay restored at that frame and run on exports a state that restores
// again. A state whose clock or input frontier is past the edge is refused (found by fuzzing: a
// clock restored 1 ms short of the old limit ran past it and its export was refused).
TEST(RelayState, ARelayRunAtTheLastClockFrameExportsAStateThatRestores) {
  InMemoryMatch match;
  match.play(60);
  RelayState edge = match.relay.export_state(match.now);
  edge.clock_frame = kLastClockFrame;
  std::optional<LockstepRelay> restored = LockstepRelay::restore(edge, match.now, Duration::milliseconds(20));
  ASSERT_TRUE(restored.has_value());
  MonoTime now = match.now;
  for (int i = 0; i < 600; ++i) {
    now += Duration::milliseconds(17);
    restored->update(now);
  }
  now += Duration::from_seconds(24 * 3600.0);  // a day later: far past kMaxStateFrame had the clock run on
  restored->update(now);
  const RelayState later = restored->export_state(now);
  EXPECT_EQ(later.clock_frame, kLastClockFrame) << "the clock stood still at the edge";
  EXPECT_TRUE(LockstepRelay::restore(later, now, Duration{}).has_value());
  RelayState past = edge;
  past.clock_frame = kLastClockFrame + 1;
  EXPECT_FALSE(LockstepRelay::restore(past, match.now, Duration{}).has_value()) << "a clock past the edge";
  RelayState frontier = edge;
  frontier.seats[0].inputs_first = kMaxStateFrame - static_cast<uint32_t>(frontier.seats[0].inputs.size() / edge.terms.settings.policy.input_bytes) + 1;
  EXPECT_FALSE(LockstepRelay::restore(frontier, match.now, Duration{}).has_value()) << "inputs up to the last frame a state names";
  frontier.seats[0].inputs_first -= 1;
  EXPECT_TRUE(LockstepRelay::restore(frontier, match.now, Duration{}).has_value());
}

// The edge of a rebuilt authority's recovery: one survivor (seat 1) heard the vanished host's last
// inputs that the others never did, and its forwards never reach the rebuilt authority before the
// deadline. It is dropped by name (recovery_unfinished) rather than kept on a history the others
// will not have; the vanished host's seat leaves; the other two survivors go on, every relay taken.
TEST(RelayState, ASurvivorWhoseForwardsNeverArriveIsDroppedByNameAtTheRecoveryDeadline) {
  InMemoryMatch match;
  match.play(200);
  const RelayState at = match.relay.export_state(match.now);
  const MonoTime exported = match.now;
  std::array<uint8_t, 1200> buffer{};
  // The old host relays 20 more frames to seat 1 alone, then vanishes.
  for (int f = 0; f < 20; ++f) {
    match.now += Duration::nanoseconds(16'666'667);
    for (uint8_t s = 0; s < 4; ++s) {
      match.sessions[s]->advance(match.now);
      EXPECT_TRUE(match.relay.receive(s, std::span(buffer.data(), match.sessions[s]->write(buffer)), match.now).ok());
    }
    match.relay.update(match.now);
    EXPECT_TRUE(match.sessions[1]->receive(std::span(buffer.data(), match.relay.write_relay(1, match.now, buffer)), match.now,
                                           Duration{}).ok());
  }
  std::optional<LockstepRelay> rebuilt = LockstepRelay::restore(at, match.now, match.now - exported);
  ASSERT_TRUE(rebuilt.has_value());
  rebuilt->begin_recovery(0, match.now + Duration::seconds(2));
  uint64_t refused_by_survivors = 0;
  for (int f = 0; f < 180; ++f) {  // three seconds: past the deadline
    match.now += Duration::nanoseconds(16'666'667);
    for (uint8_t s = 1; s < 4; ++s) {
      match.sessions[s]->advance(match.now);
      const std::size_t n = match.sessions[s]->write(buffer);
      if (s == 1) {  // its forwarded inputs are lost on the way, every time
        PeerFrames frames;
        ASSERT_TRUE(wire::decode(std::span<const uint8_t>(buffer.data(), n).subspan(1), frames).ok());
        frames.forwarded.clear();
        const std::vector<uint8_t> stripped = message_bytes(frames);
        (void)rebuilt->receive(s, stripped, match.now);
      } else {
        EXPECT_TRUE(rebuilt->receive(s, std::span(buffer.data(), n), match.now).ok());
      }
    }
    rebuilt->update(match.now);
    for (uint8_t s = 2; s < 4; ++s) {
      const std::size_t n = rebuilt->write_relay(s, match.now, buffer);
      if (n > 0 && !match.sessions[s]->receive(std::span(buffer.data(), n), match.now, Duration{}).ok()) ++refused_by_survivors;
    }
  }
  EXPECT_FALSE(rebuilt->recovering());
  EXPECT_FALSE(rebuilt->playing(0)) << "the vanished host's seat left";
  EXPECT_FALSE(rebuilt->playing(1)) << "the survivor on a history the others lack";
  EXPECT_TRUE(rebuilt->playing(2));
  EXPECT_TRUE(rebuilt->playing(3));
  EXPECT_EQ(rebuilt->stats().drops[SeatDrop::recovery_unfinished], 1u);
  EXPECT_EQ(rebuilt->stats().drops[SeatDrop::left], 1u);
  EXPECT_EQ(refused_by_survivors, 0u) << "the two who go on take every relay";
  // The match goes on at the logic rate: two more seconds, about 120 frames, compared.
  const uint32_t clock_before = rebuilt->stats().clock_frame;
  const uint64_t compared_before = rebuilt->stats().frames_compared;
  for (int f = 0; f < 120; ++f) {
    match.now += Duration::nanoseconds(16'666'667);
    for (uint8_t s = 2; s < 4; ++s) {
      match.sessions[s]->advance(match.now);
      EXPECT_TRUE(rebuilt->receive(s, std::span(buffer.data(), match.sessions[s]->write(buffer)), match.now).ok());
    }
    rebuilt->update(match.now);
    for (uint8_t s = 2; s < 4; ++s) {
      EXPECT_TRUE(match.sessions[s]->receive(std::span(buffer.data(), rebuilt->write_relay(s, match.now, buffer)), match.now,
                                             Duration{}).ok());
    }
  }
  EXPECT_GE(rebuilt->stats().clock_frame, clock_before + 115);
  EXPECT_GT(rebuilt->stats().frames_compared, compared_before + 100);
  EXPECT_EQ(rebuilt->stats().desync_frame, kNoFrame);
}

}  // namespace
}  // namespace tickwire::lockstep
