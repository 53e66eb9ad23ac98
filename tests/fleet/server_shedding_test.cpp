// What a rung sheds reaches the replication service: its lane, radii and budget become the
// service's limits (never past the contract's own), and calm gives the contract's back.
#include <gtest/gtest.h>

#include "tickwire/fleet/room_shedding.h"
#include "tickwire/replication/replication_server.h"
#include "timed_room.h"

namespace tickwire {
namespace {

TEST(ServerShedding, LimitsWiderThanTheContractAreHeldToItsOwn) {
  const NetcodeContract contract = test::shard_test_contract();
  const ReplicationLimits own = contract_limits(contract);
  ReplicationLimits wider = own;
  wider.interest_radius_m *= 2;
  wider.pose_radius_m *= 2;
  wider.snapshot_budget_bytes *= 2;
  wider.world_lane_ticks = 0;
  EXPECT_EQ(within_contract(wider, contract), own);
}

TEST(ServerShedding, ARungsLimitsBecomeTheReplicationServicesAndCalmRestoresTheContracts) {
  const NetcodeContract contract = test::shard_test_contract();
  ReplicationServer replication(contract);
  EXPECT_EQ(replication.limits(), contract_limits(contract));
  const RoomShedding cut = room_shedding(RoomLoadRung::snapshot_budget_cut, contract);
  replication.set_limits(replication_limits_of(cut));
  const ReplicationLimits& held = replication.limits();
  EXPECT_LT(held.interest_radius_m, contract_limits(contract).interest_radius_m);
  EXPECT_LT(held.snapshot_budget_bytes, contract_limits(contract).snapshot_budget_bytes);
  EXPECT_LE(held.pose_radius_m, held.interest_radius_m);
  const uint32_t lane = contract.ticks_per_snapshot * contract.load.room.world_lane_divisor;
  EXPECT_EQ(held.world_lane_ticks, lane);
  EXPECT_TRUE(replication.world_tick(Tick::from_value(0)));
  EXPECT_FALSE(replication.world_tick(Tick::from_value(contract.ticks_per_snapshot)));
  EXPECT_TRUE(replication.world_tick(Tick::from_value(lane)));
  replication.set_limits(replication_limits_of(room_shedding(RoomLoadRung::calm, contract)));
  EXPECT_EQ(replication.limits(), contract_limits(contract));
  EXPECT_TRUE(replication.world_tick(Tick::from_value(contract.ticks_per_snapshot)));
}

}  // namespace
}  // namespace tickwire
