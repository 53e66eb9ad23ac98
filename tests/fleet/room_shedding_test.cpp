// What a room's rung sheds: calm sheds nothing; each rung adds its own shedding to every lower
// rung's (cumulative), in the contract's numbers (its lanes, radii and budget, scaled by its
// `load.room` factors), never past the contract's own floors.
#include "tickwire/fleet/room_shedding.h"

#include <gtest/gtest.h>

#include "tickwire/replication/budget/lane_schedule.h"

namespace tickwire {
namespace {

NetcodeContract resolve(const RoomPolicy& policy) {
  const ContractResolution resolution = resolve_netcode_contract(policy);
  EXPECT_TRUE(resolution.ok()) << reason_name(resolution.issue.error) << " at " << resolution.issue.field;
  return resolution.contract.value_or(NetcodeContract{});
}

RoomPolicy named_policy() {
  RoomPolicy policy;
  policy.identity = {"room-1", "tickwire", "local", "1", "dev", "", ""};
  return policy;
}

// A room at 60 Hz with 20 Hz snapshots, an 80 m interest radius, a 70 m pose lane and a 2000-byte
// budget, whose ladder slows the world lane threefold, halves the radius and quarters the budget.
NetcodeContract tuned_contract() {
  RoomPolicy policy = named_policy();
  policy.cadence.snapshot_rate_hz = 20;
  policy.interest.radius_m = 80.0;
  policy.interest.pose_radius_m = 70.0;
  policy.budgets.snapshot_budget_bytes = 2000;
  policy.load.room.world_lane_divisor = 3;
  policy.load.room.interest_radius_percent = 50;
  policy.load.room.snapshot_budget_percent = 25;
  return resolve(policy);
}

TEST(RoomShedding, CalmShedsNothing) {
  const NetcodeContract contract = tuned_contract();
  const RoomShedding calm = room_shedding(RoomLoadRung::calm, contract);
  EXPECT_EQ(calm.world_lane_ticks, 3u);  // the contract's ticksPerSnapshot
  EXPECT_EQ(calm.interest_radius_m, 80.0);
  EXPECT_EQ(calm.pose_radius_m, 70.0);
  EXPECT_EQ(calm.snapshot_budget_bytes, 2000u);
  EXPECT_FALSE(calm.admissions_closed);
}

// Each rung, in the contract's numbers, keeping what every rung below it sheds.
TEST(RoomShedding, SheddingIsCumulativeInTheContractsNumbers) {
  const NetcodeContract contract = tuned_contract();
  const RoomShedding expected[] = {
      {RoomLoadRung::calm, 3, 80.0, 70.0, 2000, false},
      {RoomLoadRung::world_lane_slowed, 9, 80.0, 70.0, 2000, false},
      {RoomLoadRung::interest_narrowed, 9, 40.0, 40.0, 2000, false},  // the pose lane within the narrowed radius
      {RoomLoadRung::snapshot_budget_cut, 9, 40.0, 40.0, 500, false},
      {RoomLoadRung::admissions_closed, 9, 40.0, 40.0, 500, true},
  };
  for (const RoomShedding& e : expected) {
    const RoomShedding shed = room_shedding(e.rung, contract);
    EXPECT_EQ(shed, e) << reason_name(e.rung) << ": world lane " << shed.world_lane_ticks << ", radius "
                       << shed.interest_radius_m << ", pose " << shed.pose_radius_m << ", budget "
                       << shed.snapshot_budget_bytes;
  }
}

// Each step up sheds at least as much as the one below, in every number.
TEST(RoomShedding, AHigherRungNeverShedsLess) {
  const NetcodeContract contract = resolve(named_policy());
  RoomShedding below = room_shedding(RoomLoadRung::calm, contract);
  for (uint8_t r = 1; r < static_cast<uint8_t>(RoomLoadRung::count_); ++r) {
    const RoomShedding shed = room_shedding(static_cast<RoomLoadRung>(r), contract);
    EXPECT_GE(shed.world_lane_ticks, below.world_lane_ticks);
    EXPECT_LE(shed.interest_radius_m, below.interest_radius_m);
    EXPECT_LE(shed.pose_radius_m, below.pose_radius_m);
    EXPECT_LE(shed.snapshot_budget_bytes, below.snapshot_budget_bytes);
    EXPECT_GE(shed.admissions_closed, below.admissions_closed);
    EXPECT_NE(shed, below) << reason_name(shed.rung) << " sheds something of its own";
    below = shed;
  }
}

// With the defaults (divisor 2, radius 75 %, budget 60 %) on the default contract.
TEST(RoomShedding, TheDefaultFactorsOnTheDefaultContract) {
  const RoomShedding top = room_shedding(RoomLoadRung::admissions_closed, resolve(named_policy()));
  EXPECT_EQ(top.world_lane_ticks, 2u);
  EXPECT_EQ(top.interest_radius_m, 75.0);
  EXPECT_EQ(top.pose_radius_m, 30.0);  // already within the narrowed radius
  EXPECT_EQ(top.snapshot_budget_bytes, 600u);
  EXPECT_TRUE(top.admissions_closed);
}

// The contract's floors hold: the budget never below its least, the radius never below its least,
// the world lane no slower than the lane schedule allows.
TEST(RoomShedding, NeverPastTheContractsOwnLimits) {
  RoomPolicy policy = named_policy();
  policy.cadence.snapshot_rate_hz = 2;                  // 30 ticks per snapshot, 480 once slowed sixteenfold
  policy.interpolation.delay_snapshot_intervals = 0.2;  // so the interpolation delay fits its buffer
  policy.interest.radius_m = 1.5;
  policy.interest.pose_radius_m = 1.0;
  policy.budgets.snapshot_budget_bytes = 100;
  policy.load.room.world_lane_divisor = kLoadMaxWorldLaneDivisor;
  policy.load.room.interest_radius_percent = kLoadMinShedPercent;
  policy.load.room.snapshot_budget_percent = kLoadMinShedPercent;
  const RoomShedding top = room_shedding(RoomLoadRung::admissions_closed, resolve(policy));
  EXPECT_EQ(top.world_lane_ticks, LaneSchedule::kMaxTicksPerSnapshot);
  EXPECT_EQ(top.interest_radius_m, kContractMinInterestRadiusM);
  EXPECT_EQ(top.pose_radius_m, 1.0);
  EXPECT_EQ(top.snapshot_budget_bytes, kContractMinSnapshotBudgetBytes);
}

// A factor of 1 or 100 % makes its rung shed nothing of its own: the rung still holds its place.
TEST(RoomShedding, AFactorOfOneShedsNothingAtItsRung) {
  RoomPolicy policy = named_policy();
  policy.load.room.world_lane_divisor = 1;
  policy.load.room.interest_radius_percent = 100;
  const NetcodeContract contract = resolve(policy);
  const RoomShedding narrowed = room_shedding(RoomLoadRung::interest_narrowed, contract);
  EXPECT_EQ(narrowed.world_lane_ticks, contract.ticks_per_snapshot);
  EXPECT_EQ(narrowed.interest_radius_m, contract.interest.radius_m);
  EXPECT_EQ(room_shedding(RoomLoadRung::snapshot_budget_cut, contract).snapshot_budget_bytes, 600u);
}

}  // namespace
}  // namespace tickwire
