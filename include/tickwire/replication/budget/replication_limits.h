// ReplicationLimits: the numbers a room's snapshot production runs at, which the contract fixes and
// a room under load may tighten (seed 003, "Load ladders": the world lane slowed, the interest
// narrowed, the snapshot budget cut). The replication service starts at the contract's own and
// takes tighter ones at run time; it never goes past the contract's.
#pragma once

#include <cstdint>

#include "tickwire/protocol/netcode_contract.h"

namespace tickwire {

struct ReplicationLimits {
  uint32_t world_lane_ticks = 1;       // the world lane opens every this many ticks (contract: ticksPerSnapshot)
  float interest_radius_m = 100.0f;    // a client's interest radius around its pawn
  float pose_radius_m = 30.0f;         // within it, transforms ride the pose lane (every tick)
  uint32_t snapshot_budget_bytes = 0;  // each client's snapshot budget
  friend bool operator==(const ReplicationLimits&, const ReplicationLimits&) = default;
};

// The contract's own limits: its snapshot rate, radii and budget (the budget no more than its
// per-client byte rate allows at one snapshot a tick).
ReplicationLimits contract_limits(const NetcodeContract& contract);

// `wanted` held within `contract`'s: a lane no faster, radii and budget no larger (and at least 1).
ReplicationLimits within_contract(const ReplicationLimits& wanted, const NetcodeContract& contract);

}  // namespace tickwire
