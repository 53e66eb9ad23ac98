// The contract's replication limits, and tighter ones clamped to them.
#include "tickwire/replication/budget/replication_limits.h"

#include <algorithm>

#include "tickwire/replication/budget/lane_schedule.h"

namespace tickwire {

ReplicationLimits contract_limits(const NetcodeContract& contract) {
  ReplicationLimits limits;
  limits.world_lane_ticks = contract.ticks_per_snapshot;
  limits.interest_radius_m = static_cast<float>(contract.interest.radius_m);
  limits.pose_radius_m = static_cast<float>(contract.interest.pose_radius_m);
  const uint32_t per_tick = contract.budgets.client_bytes_per_second / contract.cadence.tick_rate_hz;
  limits.snapshot_budget_bytes = std::min(contract.budgets.snapshot_budget_bytes, std::max<uint32_t>(per_tick, 1));
  return limits;
}

ReplicationLimits within_contract(const ReplicationLimits& wanted, const NetcodeContract& contract) {
  const ReplicationLimits own = contract_limits(contract);
  ReplicationLimits held;
  held.world_lane_ticks = std::clamp(wanted.world_lane_ticks, own.world_lane_ticks, LaneSchedule::kMaxTicksPerSnapshot);
  held.interest_radius_m = std::clamp(wanted.interest_radius_m, 0.0f, own.interest_radius_m);
  held.pose_radius_m = std::clamp(wanted.pose_radius_m, 0.0f, std::min(own.pose_radius_m, held.interest_radius_m));
  held.snapshot_budget_bytes = std::clamp<uint32_t>(wanted.snapshot_budget_bytes, 1, own.snapshot_budget_bytes);
  return held;
}

}  // namespace tickwire
