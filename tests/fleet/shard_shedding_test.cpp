// What the shard's rungs shed and how the shard ladder composes above the room ladder: each shard
// rung holds every room at or above a room rung, cumulatively; and a run of a shard of eight rooms
// under a CPU burner (the signals as its loop would measure them) engages the shard's rungs in
// order, holds every room at the floor, and releases in reverse order once the burner stops.
#include "tickwire/fleet/shard_shedding.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "tickwire/fleet/room_load_ladder.h"
#include "tickwire/fleet/shard_load_ladder.h"

namespace tickwire {
namespace {

TEST(ShardShedding, EachRungShedsWhatTheRungsBelowItShedAndMore) {
  const ShardShedding expected[] = {
      {ShardLoadRung::calm, false, RoomLoadRung::calm, false},
      {ShardLoadRung::placement_closed, true, RoomLoadRung::calm, false},
      {ShardLoadRung::rooms_shed, true, RoomLoadRung::interest_narrowed, false},
      {ShardLoadRung::admissions_closed, true, RoomLoadRung::admissions_closed, false},
      {ShardLoadRung::rooms_migrated, true, RoomLoadRung::admissions_closed, true},
  };
  for (const ShardShedding& e : expected) EXPECT_EQ(shard_shedding(e.rung), e) << reason_name(e.rung);
}

// The room runs at its own rung or its shard's floor, whichever is higher, for every pair.
TEST(ShardShedding, ARoomRunsAtItsOwnRungOrItsShardsFloor) {
  for (uint8_t s = 0; s < static_cast<uint8_t>(ShardLoadRung::count_); ++s) {
    const auto shard = static_cast<ShardLoadRung>(s);
    for (uint8_t r = 0; r < static_cast<uint8_t>(RoomLoadRung::count_); ++r) {
      const auto own = static_cast<RoomLoadRung>(r);
      EXPECT_EQ(compose_room_rung(own, shard), std::max(own, shard_shedding(shard).room_floor))
          << reason_name(own) << " under " << reason_name(shard);
    }
  }
  EXPECT_EQ(compose_room_rung(RoomLoadRung::calm, ShardLoadRung::rooms_shed), RoomLoadRung::interest_narrowed);
  EXPECT_EQ(compose_room_rung(RoomLoadRung::snapshot_budget_cut, ShardLoadRung::rooms_shed),
            RoomLoadRung::snapshot_budget_cut);
}

// Eight rooms whose own cost stays modest share a shard's thread with a burner that ramps from
// nothing to most of it over 32 s, holds 10 s and stops. The shard's busy share is the rooms' 35 %
// plus the burner's; its loop keeps up (lag 0). Read every 250 ms.
struct BurnerRun {
  std::vector<ShardLoadRung> shard_rungs;  // each change of the shard's rung in force, in order
  std::vector<RoomLoadRung> room_rungs;    // each change of the rung the rooms run at, in order
  std::size_t readings_migrating = 0;
};

double burner_percent(double seconds) {
  if (seconds < 32.0) return 2.0 * seconds;  // 0 .. 64 %
  return seconds < 42.0 ? 64.0 : 0.0;
}

template <class Rung>
void note_change(std::vector<Rung>& changes, Rung previous, Rung now) {
  if (now != previous) changes.push_back(now);
}

BurnerRun run_burner(std::size_t readings) {
  constexpr Duration kReading = Duration::milliseconds(250);
  ShardLoadLadder shard(ShardLadderPolicy{});
  std::vector<RoomLoadLadder> rooms(8, RoomLoadLadder(RoomLadderPolicy{}));
  BurnerRun run;
  ShardLoadRung shard_before = ShardLoadRung::calm;
  RoomLoadRung rooms_before = RoomLoadRung::calm;
  MonoTime now = MonoTime::from_ns(0);
  for (std::size_t i = 0; i < readings; ++i, now += kReading) {
    const double busy = std::min(100.0, 35.0 + burner_percent(static_cast<double>(i) * 0.25));
    const ShardLoadRung rung = shard.update(ShardLoadSignals{busy, 0}, now);
    note_change(run.shard_rungs, shard_before, rung);
    shard_before = rung;
    run.readings_migrating += shard_shedding(rung).migrate_costliest_room ? 1u : 0u;
    std::vector<RoomLoadRung> composed;
    for (RoomLoadLadder& room : rooms) {
      const RoomLoadRung own = room.update(RoomLoadSignals{20.0, 0}, now);
      EXPECT_EQ(own, RoomLoadRung::calm) << "the rooms' own signals stay calm";
      composed.push_back(compose_room_rung(own, rung));
    }
    EXPECT_EQ(std::count(composed.begin(), composed.end(), composed[0]), 8) << "every room of the shard at one rung";
    note_change(run.room_rungs, rooms_before, composed[0]);
    rooms_before = composed[0];
  }
  return run;
}

TEST(ShardShedding, ABurnerOnTheShardEngagesItsRungsInOrderAndTheyReleaseWhenItStops) {
  const BurnerRun run = run_burner(4 * 75);  // 75 s: the burner stops at 42 s, every dwell has passed by 63 s
  EXPECT_EQ(run.shard_rungs,
            (std::vector<ShardLoadRung>{ShardLoadRung::placement_closed, ShardLoadRung::rooms_shed,
                                        ShardLoadRung::admissions_closed, ShardLoadRung::rooms_migrated,
                                        ShardLoadRung::admissions_closed, ShardLoadRung::rooms_shed,
                                        ShardLoadRung::placement_closed, ShardLoadRung::calm}));
  // The rooms, calm by their own signals, run at the shard's floor: narrowed, then closed, and back.
  EXPECT_EQ(run.room_rungs, (std::vector<RoomLoadRung>{RoomLoadRung::interest_narrowed, RoomLoadRung::admissions_closed,
                                                       RoomLoadRung::interest_narrowed, RoomLoadRung::calm}));
  EXPECT_EQ(run.readings_migrating, 4u * 17u);  // from 30 s (busy 95 %) until the dwell after 42 s
}

}  // namespace
}  // namespace tickwire
