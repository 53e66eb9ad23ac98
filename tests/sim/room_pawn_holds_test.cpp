// The room's held pawns (seed 003, "Durability and rejoin"), with no network: a departed session's
// pawn stays for its player, steps on its starved inputs, comes back to the same player only, and
// goes when its hold ends; and the room as a DurableState: its pawns journaled as they join and
// go, checkpointed with their players, and put back held, every hostile record refused.
#include <gtest/gtest.h>

#include "room_sim.h"
#include "test_simulation.h"
#include "tickwire/core/byte_record.h"
#include "tickwire/server/room.h"

namespace tickwire::test {
namespace {

constexpr uint32_t kHoldTicks = 120;

struct NoTicks final : TickObserver {
  void on_tick_completed(Tick) override {}
};

struct HoldingRoom {
  explicit HoldingRoom(uint32_t hold_ticks = kHoldTicks) : room(config(hold_ticks), game) {}
  static RoomConfig config(uint32_t hold_ticks) {
    RoomConfig c{*resolve_netcode_contract(test_room_policy(60)).contract, MonoTime{}};
    c.pawn_hold_ticks = hold_ticks;
    return c;
  }
  // Exactly `n` more ticks, whatever the clock's rounding.
  void run_ticks(uint32_t n) {
    const Tick target = room.last_tick() + static_cast<int64_t>(n);
    while (room.last_tick() < target) {
      now = std::max(now + Duration::milliseconds(1), room.next_due());
      (void)room.update(now, ticks);
    }
  }
  TestSimulation game;
  Room room;
  NoTicks ticks;
  MonoTime now;
};

TEST(RoomPawnHolds, ADepartedPawnStaysForItsPlayerAndComesBackToItAlone) {
  HoldingRoom h;
  const EntityRef pawn = *h.room.admit(1, {}, "alice");
  const EntityRef other = *h.room.admit(2, {}, "bob");
  h.run_ticks(10);
  h.room.depart(1);
  EXPECT_EQ(h.room.session(1), nullptr);
  ASSERT_EQ(h.room.held_pawns().size(), 1u);
  EXPECT_EQ(h.room.held_pawns()[0].player, "alice");
  EXPECT_TRUE(h.room.entities().resolves(pawn)) << "its ref still names it";
  const TestPawn before = h.game.pawns.at(pawn.raw());
  h.run_ticks(30);
  EXPECT_EQ(h.game.pawns.at(pawn.raw()).steps, before.steps + 30) << "a held pawn is stepped";
  EXPECT_EQ(h.game.pawns.at(pawn.raw()).starved_steps, before.starved_steps + 30) << "on starved inputs";

  EXPECT_EQ(h.room.resume(3, pawn, "mallory"), protocol::ResumeRefusal::foreign);
  EXPECT_EQ(h.room.resume(3, other, "bob"), protocol::ResumeRefusal::pawn_gone) << "bob's pawn is in a live session";
  EXPECT_EQ(h.room.owner_of(other), OwnerId{2});
  EXPECT_EQ(h.room.resume(3, pawn, "alice"), std::nullopt);
  ASSERT_NE(h.room.session(3), nullptr);
  EXPECT_EQ(h.room.session(3)->pawn, pawn);
  EXPECT_EQ(h.room.session(3)->player, "alice");
  EXPECT_TRUE(h.room.held_pawns().empty());
  EXPECT_EQ(h.room.session_count(), 2u);
}

TEST(RoomPawnHolds, AHoldEndsAfterItsTicksAndAZeroHoldIsALeave) {
  HoldingRoom h;
  const EntityRef pawn = *h.room.admit(1, {}, "alice");
  h.room.depart(1);
  h.run_ticks(kHoldTicks);
  EXPECT_EQ(h.room.held_pawns().size(), 1u) << "held through its last tick";
  h.run_ticks(1);
  EXPECT_TRUE(h.room.held_pawns().empty());
  EXPECT_EQ(h.room.holds_expired(), 1u);
  EXPECT_FALSE(h.room.entities().resolves(pawn));
  EXPECT_EQ(h.room.resume(2, pawn, "alice"), protocol::ResumeRefusal::pawn_gone);

  HoldingRoom none(0);
  const EntityRef gone = *none.room.admit(1, {}, "alice");
  none.room.depart(1);
  EXPECT_TRUE(none.room.held_pawns().empty());
  EXPECT_FALSE(none.room.entities().resolves(gone));
}

TEST(RoomPawnHolds, ACheckpointPutsEveryPawnBackHeldForItsPlayer) {
  HoldingRoom a;
  const EntityRef alice = *a.room.admit(1, {}, "alice");
  const EntityRef bob = *a.room.admit(2, {}, "bob");
  a.room.depart(2);
  std::vector<uint8_t> state;
  a.room.save_state(state);

  HoldingRoom b;
  ASSERT_TRUE(b.room.restore_state(state));
  ASSERT_EQ(b.room.held_pawns().size(), 2u);
  EXPECT_EQ(b.room.held_pawns()[0].pawn, alice);
  EXPECT_EQ(b.room.held_pawns()[0].player, "alice");
  EXPECT_EQ(b.room.held_pawns()[1].pawn, bob);
  EXPECT_EQ(b.room.held_pawns()[1].player, "bob");
  EXPECT_TRUE(b.game.pawns.contains(alice.raw()));
  // A newcomer never gets a put-back pawn's ref; each player comes back into its own.
  const EntityRef newcomer = *b.room.admit(3, {}, "carol");
  EXPECT_NE(newcomer, alice);
  EXPECT_NE(newcomer, bob);
  EXPECT_EQ(b.room.resume(4, bob, "bob"), std::nullopt);
  EXPECT_EQ(b.room.resume(5, alice, "alice"), std::nullopt);
}

TEST(RoomPawnHolds, JoiningAndGoingAreFactsAReplayMakesAgain) {
  HoldingRoom a;
  a.room.keep_facts(true);
  const EntityRef alice = *a.room.admit(1, {}, "alice");
  const EntityRef bob = *a.room.admit(2, {}, "bob");
  a.room.leave(1);
  std::vector<DurableFact> facts;
  a.room.take_facts(facts);
  ASSERT_EQ(facts.size(), 3u);
  EXPECT_EQ(facts[0].kind, kFactPawnJoined);
  EXPECT_EQ(facts[2].kind, kFactPawnGone);

  HoldingRoom b;
  for (const DurableFact& f : facts) EXPECT_TRUE(b.room.replay_fact(f));
  ASSERT_EQ(b.room.held_pawns().size(), 1u);
  EXPECT_EQ(b.room.held_pawns()[0].pawn, bob);
  EXPECT_FALSE(b.room.entities().resolves(alice));
  EXPECT_FALSE(b.room.replay_fact(facts[2])) << "gone twice";
  EXPECT_FALSE(b.room.replay_fact(facts[1])) << "the same slot joined twice";
}

TEST(RoomPawnHolds, HostileRecordsAreRefusedWhole) {
  HoldingRoom a;
  (void)a.room.admit(1, {}, "alice");
  std::vector<uint8_t> state;
  a.room.save_state(state);
  for (std::size_t cut = 0; cut < state.size(); ++cut) {
    HoldingRoom b;
    EXPECT_FALSE(b.room.restore_state(std::span<const uint8_t>(state).first(cut))) << "cut at " << cut;
  }
  // A pawn of another owner's handles, a count past capacity, a name past its bound.
  const auto record = [](uint32_t count, uint64_t ref, std::size_t name_bytes) {
    std::vector<uint8_t> out;
    ByteRecordWriter write(out);
    write.u8(1);
    write.u32(count);
    write.u64(ref);
    write.name(std::string(name_bytes, 'x'));
    return out;
  };
  const EntityRef foreign = EntityRef::make(EntityNetHandle::make(3, 1), 1, 0);
  HoldingRoom b;
  EXPECT_FALSE(b.room.restore_state(record(1, foreign.raw(), 4)));
  EXPECT_FALSE(b.room.restore_state(record(0xFFFFFFFFu, 0, 4)));
  EXPECT_FALSE(b.room.restore_state(record(1, EntityRef::make(EntityNetHandle::make(0, 1), 1, 0).raw(), 65)));
  DurableFact bad{kFactPawnJoined, {1, 2, 3}};
  EXPECT_FALSE(b.room.replay_fact(bad));
  DurableFact unknown{kFirstEngineFactKind + 99, {}};
  EXPECT_FALSE(b.room.replay_fact(unknown));
  EXPECT_TRUE(b.room.held_pawns().empty());
}

}  // namespace
}  // namespace tickwire::test
