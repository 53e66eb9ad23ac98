// The room ladder (seed 003, "Load ladders"): a room under pressure sheds work in a fixed order
// (protocol/load_policy.h names the rungs: the world lane slowed, the interest narrowed, the
// snapshot budget cut, admissions closed), each rung engaged by the room's own signals against the
// contract's thresholds and released with hysteresis (fleet/load_ladder.h). What a rung sheds, in
// numbers, is room_shedding.h; the shard ladder composes above it (shard_shedding.h).
#pragma once

#include <cstdint>

#include "tickwire/fleet/load_ladder.h"
#include "tickwire/protocol/load_policy.h"

namespace tickwire {

// What the room ladder reads, measured by its caller over a recent window. Two signals, because the
// room's rungs relieve two things:
// - `tick_cost_percent`: the room's update cost in percent of its tick budget (the whole tick period
//   for a room alone on its thread, its share of the period when rooms share one). The leading sign:
//   it rises before any deadline is missed, and it is what the rungs shed (replication's per-client
//   work scales with the world lane's rate, the interest radius and the snapshot budget).
// - `lag_ticks`: how many ticks the room's clock is behind its schedule (0: on time). The ground
//   truth a player feels: a room can run late though its own measured cost looks modest (a host
//   stall, a busy neighbour), and a late room sheds too.
// Bytes sent are not a signal: each client's snapshot budget already bounds them (the contract's
// budgets), so they measure the policy, not pressure.
struct RoomLoadSignals {
  double tick_cost_percent = 0.0;  // finite, >= 0
  uint32_t lag_ticks = 0;
};

// The signals as the ladder reads them (a cost that is not a finite, non-negative percentage is a
// programmer error).
LadderReading reading_of(const RoomLoadSignals& signals);

// The room ladder's walk: from calm upward, the single highest rung the signals meet.
RoomLoadRung evaluate_room_ladder(const RoomLoadSignals& signals, const RoomLadderPolicy& ladder);

// A room's rung in force, with the contract's hysteresis (`contract.load.room`).
using RoomLoadLadder = LoadLadder<RoomLoadRung, RoomLadderPolicy, RoomLoadSignals>;

}  // namespace tickwire
