// The shard on a simulated host: its rooms run at their tick rate, a burner ramped on its thread
// engages the shard's rungs in order (and every room sheds what they floor it at) while every room
// keeps 60 ticks a second, the rungs release one per dwell once the burner stops, a costly room
// engages its own ladder alone, and an overloaded shard counts its windows at the kill threshold.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "tickwire/clock/sim_host_timer.h"
#include "tickwire/fleet/shard.h"
#include "tickwire/fleet/shard_shedding.h"
#include "timed_room.h"

namespace tickwire {
namespace {

using test::TimedRoom;

constexpr MonoTime kStart = MonoTime::from_ns(1'000'000'000);

class ShardSim : public ::testing::Test {
 protected:
  TimedRoom& add(Duration cost, bool movable = true) {
    auto room = std::make_unique<TimedRoom>(timer, &timer, timer.now(), cost, movable);
    TimedRoom& kept = *room;
    std::unique_ptr<ShardRoom> handed = std::move(room);
    EXPECT_TRUE(shard.adopt(next_id++, handed));
    rooms.push_back(&kept);
    return kept;
  }
  // Steps the shard for `d` of host time, waiting (exactly) between steps.
  void run_for(Duration d) {
    const MonoTime until = timer.now() + d;
    while (timer.now() < until) {
      const MonoTime wake = std::min(shard.step(), until);
      if (wake > timer.now()) timer.advance(wake - timer.now());
    }
  }
  // Runs `seconds` whole seconds, checking every room ran 60 ticks (+-1) in each.
  void run_seconds_at_60hz(int seconds) {
    for (int s = 0; s < seconds; ++s) {
      std::vector<uint64_t> before;
      for (const TimedRoom* r : rooms) before.push_back(r->ticks());
      run_for(Duration::seconds(1));
      for (std::size_t i = 0; i < rooms.size(); ++i) {
        const uint64_t ran = rooms[i]->ticks() - before[i];
        EXPECT_GE(ran, 59u) << "room " << i << " second " << s;
        EXPECT_LE(ran, 61u) << "room " << i << " second " << s;
      }
    }
  }

  SimHostTimer timer{kStart, SleepModel::exact()};
  Shard shard{timer};
  std::vector<TimedRoom*> rooms;
  uint32_t next_id = 1;
};

TEST_F(ShardSim, RoomsRunAtTheirTickRateAndACalmShardShedsNothing) {
  for (int i = 0; i < 8; ++i) add(Duration::microseconds(200));
  run_seconds_at_60hz(10);
  EXPECT_EQ(shard.rung(), ShardLoadRung::calm);
  EXPECT_NEAR(shard.signals().busy_percent, 8 * 60 * 0.2 / 10.0, 0.5);  // 96 ms a second
  EXPECT_EQ(shard.rungs_engaged().total(), 0u);
  for (const TimedRoom* r : rooms) {
    ASSERT_EQ(r->sheds().size(), 1u);  // told calm when adopted, nothing since
    EXPECT_EQ(r->sheds()[0].rung, RoomLoadRung::calm);
  }
}

// Busy share = (rooms' cost + burner's cost per tick) x 60 ticks a second.
Duration burner_for(double busy_percent, Duration rooms_cost_per_tick) {
  const double per_tick_ms = busy_percent / 100.0 * 1000.0 / 60.0;
  return Duration::from_milliseconds(per_tick_ms) - rooms_cost_per_tick;
}

TEST_F(ShardSim, ABurnerEngagesTheShardRungsInOrderEveryRoomKeepsSixtyHertzAndTheyReleaseAfter) {
  for (int i = 0; i < 8; ++i) add(Duration::microseconds(200));
  TimedRoom& burner = add(Duration{}, /*movable=*/false);
  const Duration rooms_cost = Duration::microseconds(1600);
  const ShardLadderPolicy& ladder = shard.config().ladder;
  // Up the ladder: each stage past the next rung's enter threshold, below the one after.
  const double stages[] = {50, 65, 80, 90, 97};
  for (const double busy : stages) {
    burner.set_cost(burner_for(busy, rooms_cost));
    run_seconds_at_60hz(3);
    const auto met = evaluate_shard_ladder(ShardLoadSignals{busy, 0}, ladder);
    EXPECT_EQ(shard.rung(), met) << "at " << busy << "% busy";
    for (std::size_t i = 0; i < 8; ++i) {
      const RoomShedding& told = rooms[i]->sheds().back();
      EXPECT_GE(told.rung, shard_shedding(shard.rung()).room_floor);
      EXPECT_EQ(told.admissions_closed, shard.rung() >= ShardLoadRung::admissions_closed);
    }
  }
  ASSERT_EQ(shard.rung(), ShardLoadRung::rooms_migrated);
  EXPECT_EQ(shard.windows_at_kill_threshold(), 0u);
  // The burner stops: one rung released per dwell, from the top.
  burner.set_cost(Duration{});
  run_seconds_at_60hz(30);
  EXPECT_EQ(shard.rung(), ShardLoadRung::calm);
  const auto& changes = shard.rung_changes();
  ASSERT_EQ(changes.size(), 8u);
  for (uint32_t i = 0; i < 4; ++i) {  // engaged one at a time, in order
    EXPECT_EQ(changes[i].from, static_cast<ShardLoadRung>(i));
    EXPECT_EQ(changes[i].to, static_cast<ShardLoadRung>(i + 1));
  }
  for (uint32_t i = 0; i < 4; ++i) {  // released one at a time, in reverse, a dwell apart
    EXPECT_EQ(changes[4 + i].from, static_cast<ShardLoadRung>(4 - i));
    EXPECT_EQ(changes[4 + i].to, static_cast<ShardLoadRung>(3 - i));
    EXPECT_GE(changes[4 + i].at - changes[3 + i].at, Duration::milliseconds(ladder.release_dwell_ms));
  }
  for (ShardLoadRung r : {ShardLoadRung::placement_closed, ShardLoadRung::rooms_shed, ShardLoadRung::admissions_closed,
                          ShardLoadRung::rooms_migrated}) {
    EXPECT_EQ(shard.rungs_engaged()[r], 1u) << reason_name(r);
  }
  for (std::size_t i = 0; i < 8; ++i) {
    const RoomShedding& told = rooms[i]->sheds().back();
    EXPECT_EQ(told, room_shedding(RoomLoadRung::calm, rooms[i]->contract())) << "room " << i;
  }
}

TEST_F(ShardSim, ACostlyRoomEngagesItsOwnLadderAlone) {
  TimedRoom& costly = add(Duration::microseconds(4500));  // 54% of its half of the thread
  TimedRoom& light = add(Duration::microseconds(200));
  run_seconds_at_60hz(3);
  EXPECT_EQ(shard.rung(), ShardLoadRung::calm);
  ASSERT_FALSE(costly.sheds().empty());
  const RoomShedding& told = costly.sheds().back();
  EXPECT_EQ(told.rung, RoomLoadRung::world_lane_slowed);
  EXPECT_EQ(told.world_lane_ticks, costly.contract().ticks_per_snapshot * costly.contract().load.room.world_lane_divisor);
  EXPECT_FALSE(told.admissions_closed);
  EXPECT_EQ(light.sheds().back().rung, RoomLoadRung::calm);
  EXPECT_EQ(shard.rooms()[0].own, RoomLoadRung::world_lane_slowed);
  EXPECT_EQ(shard.rooms()[1].own, RoomLoadRung::calm);
}

TEST_F(ShardSim, AnOverloadedShardCountsItsWindowsAtTheKillThresholdAndNeverMovesIt) {
  add(Duration::microseconds(200));
  TimedRoom& burner = add(Duration::milliseconds(20), /*movable=*/false);  // more than a tick's period
  const uint16_t kill = shard.config().ladder.kill_lag_ticks;
  run_for(Duration::seconds(5));
  EXPECT_EQ(shard.rung(), ShardLoadRung::rooms_migrated);
  EXPECT_GT(shard.windows_at_kill_threshold(), 0u);
  EXPECT_GE(shard.signals().lag_ticks, kill);
  EXPECT_EQ(shard.config().ladder.kill_lag_ticks, kill);
  EXPECT_EQ(shard.costliest_movable(), std::optional<uint32_t>{1u});  // the burner is not movable
  (void)burner;
}

TEST_F(ShardSim, ARoomCatchingUpOnArrivalIsNotMeasuredAsLate) {
  // A room whose clock started two seconds before it came (opened elsewhere, or moving): its first
  // iterations catch up; the shard's ladder does not read them as its own lag or load.
  auto late = std::make_unique<TimedRoom>(timer, &timer, timer.now() - Duration::seconds(2), Duration::microseconds(200));
  TimedRoom& kept = *late;
  std::unique_ptr<ShardRoom> handed = std::move(late);
  ASSERT_TRUE(shard.adopt(7, handed));
  rooms.push_back(&kept);
  run_for(Duration::seconds(1));
  EXPECT_EQ(shard.rung(), ShardLoadRung::calm);
  EXPECT_EQ(shard.signals().lag_ticks, 0u);
  EXPECT_EQ(shard.rungs_engaged().total(), 0u);
  run_seconds_at_60hz(2);
}

TEST_F(ShardSim, ARoomReleasedLeavesCalmAndTheShardRefusesADuplicateId) {
  TimedRoom& room = add(Duration::microseconds(200));
  run_for(Duration::seconds(1));
  auto again = std::unique_ptr<ShardRoom>(new TimedRoom(timer, &timer, timer.now(), Duration{}));
  EXPECT_FALSE(shard.adopt(1, again));
  EXPECT_NE(again, nullptr);
  auto released = shard.release(1);
  ASSERT_NE(released, nullptr);
  EXPECT_EQ(room.sheds().back().rung, RoomLoadRung::calm);
  EXPECT_EQ(shard.room_count(), 0u);
  EXPECT_EQ(shard.release(1), nullptr);
}

}  // namespace
}  // namespace tickwire
