// The room ladder's rungs as numbers: each rung from its own up scales one of the contract's
// numbers by the contract's `load.room` factor, so a higher rung keeps every lower rung's shedding.
#include "tickwire/fleet/room_shedding.h"

#include <algorithm>

#include "tickwire/core/assert.h"
#include "tickwire/replication/budget/lane_schedule.h"

namespace tickwire {
namespace {

bool sheds(RoomLoadRung in_force, RoomLoadRung rung) { return in_force >= rung; }

double percent_of(double value, uint16_t percent) { return value * static_cast<double>(percent) / 100.0; }

}  // namespace

RoomShedding room_shedding(RoomLoadRung rung, const NetcodeContract& contract) {
  TW_ASSERT(rung < RoomLoadRung::count_, "a room rung");
  const RoomLadderPolicy& ladder = contract.load.room;
  RoomShedding shedding;
  shedding.rung = rung;
  shedding.world_lane_ticks = contract.ticks_per_snapshot;
  shedding.interest_radius_m = contract.interest.radius_m;
  shedding.snapshot_budget_bytes = contract.budgets.snapshot_budget_bytes;
  if (sheds(rung, RoomLoadRung::world_lane_slowed)) {
    shedding.world_lane_ticks =
        std::min(contract.ticks_per_snapshot * ladder.world_lane_divisor, LaneSchedule::kMaxTicksPerSnapshot);
  }
  if (sheds(rung, RoomLoadRung::interest_narrowed)) {
    shedding.interest_radius_m =
        std::max(percent_of(contract.interest.radius_m, ladder.interest_radius_percent), kContractMinInterestRadiusM);
  }
  if (sheds(rung, RoomLoadRung::snapshot_budget_cut)) {
    const double cut = percent_of(contract.budgets.snapshot_budget_bytes, ladder.snapshot_budget_percent);
    shedding.snapshot_budget_bytes = std::max(static_cast<uint32_t>(cut), kContractMinSnapshotBudgetBytes);
  }
  shedding.admissions_closed = sheds(rung, RoomLoadRung::admissions_closed);
  shedding.pose_radius_m = std::min(contract.interest.pose_radius_m, shedding.interest_radius_m);
  return shedding;
}

ReplicationLimits replication_limits_of(const RoomShedding& shedding) {
  ReplicationLimits limits;
  limits.world_lane_ticks = shedding.world_lane_ticks;
  limits.interest_radius_m = static_cast<float>(shedding.interest_radius_m);
  limits.pose_radius_m = static_cast<float>(shedding.pose_radius_m);
  limits.snapshot_budget_bytes = shedding.snapshot_budget_bytes;
  return limits;
}

}  // namespace tickwire
