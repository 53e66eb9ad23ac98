// RoomShedding: what a room's rung in force sheds, as the numbers a room applies in place of the
// contract's own: the world lane's period, the interest and pose radii, each client's snapshot
// budget, and whether new sessions are admitted. Rungs are cumulative (a rung sheds what every rung
// below it sheds), and every number is derived from the contract (its policy and its `load.room`).
#pragma once

#include <cstdint>

#include "tickwire/protocol/load_policy.h"
#include "tickwire/protocol/netcode_contract.h"
#include "tickwire/replication/budget/replication_limits.h"

namespace tickwire {

struct RoomShedding {
  RoomLoadRung rung = RoomLoadRung::calm;
  // World-lane entities are candidates every this many ticks: the contract's ticksPerSnapshot, times
  // worldLaneDivisor from world_lane_slowed up (at most LaneSchedule::kMaxTicksPerSnapshot).
  uint32_t world_lane_ticks = 1;
  // The contract's interest radius, times interestRadiusPercent from interest_narrowed up (never
  // below the contract's least radius); the pose lane's radius stays within it.
  double interest_radius_m = 0.0;
  double pose_radius_m = 0.0;
  // The contract's snapshot budget, times snapshotBudgetPercent from snapshot_budget_cut up (never
  // below the contract's least budget).
  uint32_t snapshot_budget_bytes = 0;
  bool admissions_closed = false;  // from admissions_closed: the room admits no new session
  friend bool operator==(const RoomShedding&, const RoomShedding&) = default;
};

// What `rung` sheds in a room under `contract` (calm: the contract's own numbers).
RoomShedding room_shedding(RoomLoadRung rung, const NetcodeContract& contract);

// The replication limits a room sheds to (its snapshots' lane, radii and budget).
ReplicationLimits replication_limits_of(const RoomShedding& shedding);

}  // namespace tickwire
