// Deterministic mode's messages and the two ends' refusals: each message round-trips through its
// field table; the registry's schema names all three; a relay or a peer message that lies about
// its counts, arrives out of place or is cut short is refused, counted, and changes nothing.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "tickwire/lockstep/lockstep_messages.h"
#include "tickwire/lockstep/lockstep_relay.h"
#include "tickwire/lockstep/rollback_session.h"
#include "tickwire/wire/codec.h"
#include "tickwire/world/arena_bot_input.h"
#include "tickwire/world/lockstep_arena.h"

namespace tickwire::lockstep {
namespace {

TEST(LockstepMessages, EachRoundTripsThroughItsFieldTable) {
  PeerFrames p;
  p.next_frame = 77;
  p.first_input_frame = 70;
  p.inputs = {{1}, {2}, {3}, {4}};
  p.held = {{70}, {71}};
  p.first_checksum_frame = 60;
  p.checksums = {{0x11223344u}};
  PeerFrames back;
  ASSERT_TRUE(wire::decode(std::span<const uint8_t>(message_bytes(p)).subspan(1), back).ok());
  EXPECT_EQ(back.next_frame, 77u);
  EXPECT_EQ(back.inputs.size(), 4u);
  EXPECT_EQ(back.checksums[0].value, 0x11223344u);

  LockstepWelcome w;
  w.seat = 3;
  w.terms.settings.policy.lag_policy = LagPolicy::disconnect;
  LockstepWelcome wb;
  ASSERT_TRUE(wire::decode(std::span<const uint8_t>(message_bytes(w)).subspan(1), wb).ok());
  EXPECT_EQ(wb.seat, 3);
  EXPECT_EQ(wb.terms.settings.policy.lag_policy, LagPolicy::disconnect);

  const std::string& schema = lockstep_messages().schema_text();
  for (const char* name : {"lockstepWelcome", "peerFrames", "relayFrames"}) EXPECT_NE(schema.find(name), std::string::npos) << name;
}

struct Seated {
  Seated() : arena(2, 1), input(1), session(arena, input) {
    LockstepSettings s;
    s.policy.seats = 2;
    relay = std::make_unique<LockstepRelay>(s);
    EXPECT_TRUE(relay->take_seat(0));
    EXPECT_TRUE(relay->take_seat(1));
    relay->start(MonoTime{});
    std::array<uint8_t, 1200> buffer{};
    const std::size_t n = relay->write_welcome(0, buffer);
    EXPECT_TRUE(session.receive(std::span(buffer.data(), n), MonoTime{}, Duration{}).ok());
  }
  world::LockstepArena arena;
  world::ArenaBotInput input;
  RollbackSession session;
  std::unique_ptr<LockstepRelay> relay;
};

TEST(LockstepMessages, ASessionRefusesLiesAndChangesNothing) {
  Seated t;
  RelayFrames relay;
  relay.seats.resize(3);  // the match has two seats
  EXPECT_EQ(t.session.receive(message_bytes(relay), MonoTime{}, Duration{}).error(), Error::count_mismatch);
  relay.seats.resize(2);
  relay.seats[1].first_frame = 1;
  relay.seats[1].inputs = {{1}, {2}, {3}};  // a run of one input cut short
  EXPECT_EQ(t.session.receive(message_bytes(relay), MonoTime{}, Duration{}).error(), Error::truncated);
  std::vector<uint8_t> cut = message_bytes(relay);
  cut.pop_back();
  EXPECT_FALSE(t.session.receive(cut, MonoTime{}, Duration{}).ok());
  EXPECT_FALSE(t.session.receive(std::vector<uint8_t>{}, MonoTime{}, Duration{}).ok());
  EXPECT_EQ(t.session.stats().refused.total(), 4u);
  EXPECT_EQ(t.session.stats().inputs_predicted, 0u);
  EXPECT_EQ(t.session.next_frame(), kFirstFrame) << "nothing was simulated from refused bytes";
}

TEST(LockstepMessages, AWelcomeOutsideTheCapsOrTheGameIsRefused) {
  world::LockstepArena arena(2, 1);
  world::ArenaBotInput input(1);
  RollbackSession session(arena, input);
  LockstepWelcome w;
  w.seat = 0;
  w.terms.settings.policy.rollback_window_frames = kMaxRollbackWindowFrames + 1;
  EXPECT_FALSE(session.receive(message_bytes(w), MonoTime{}, Duration{}).ok());
  w.terms.settings.policy.rollback_window_frames = 8;
  w.terms.settings.policy.seats = 2;
  w.seat = 9;  // past the seats
  EXPECT_FALSE(session.receive(message_bytes(w), MonoTime{}, Duration{}).ok());
  w.seat = 0;
  w.terms.settings.policy.seats = 4;  // the game is played by two
  EXPECT_FALSE(session.receive(message_bytes(w), MonoTime{}, Duration{}).ok());
  w.terms.settings.policy.seats = 2;
  w.terms.settings.policy.input_bytes = 5;  // the game reads four-byte inputs
  EXPECT_FALSE(session.receive(message_bytes(w), MonoTime{}, Duration{}).ok());
  EXPECT_EQ(session.stats().refused_terms, 4u);
  EXPECT_FALSE(session.seated());
}

TEST(LockstepMessages, TheRelayRefusesLiesAndInputsFromTheFarFuture) {
  Seated t;
  PeerFrames p;
  p.held = {{0}, {0}, {0}};  // three seats' worth in a two-seat match
  EXPECT_EQ(t.relay->receive(1, message_bytes(p), MonoTime{}).error(), Error::count_mismatch);
  p.held = {{0}, {0}};
  p.inputs = {{1}, {2}};  // a run of half an input
  EXPECT_EQ(t.relay->receive(1, message_bytes(p), MonoTime{}).error(), Error::truncated);
  EXPECT_EQ(t.relay->receive(5, message_bytes(p), MonoTime{}).error(), Error::unknown_message) << "no such seat";
  p.inputs = {{1}, {7}, {7}, {7}, {7}};  // one input...
  p.first_input_frame = 100'000;           // ...a second and more ahead of the clock
  EXPECT_TRUE(t.relay->receive(1, message_bytes(p), MonoTime{}).ok());
  EXPECT_EQ(t.relay->stats().inputs_too_early, 1u);
  EXPECT_EQ(t.relay->held_through(1), kFirstFrame + LockstepSettings{}.policy.input_delay_frames - 1);
  EXPECT_EQ(t.relay->stats().refused.total(), 3u);
}

}  // namespace
}  // namespace tickwire::lockstep
