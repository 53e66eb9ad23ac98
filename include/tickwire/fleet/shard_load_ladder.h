// The shard ladder (seed 003, "Load ladders"): a shard (a thread running many rooms) sheds in its
// own fixed order (protocol/load_policy.h names the rungs: placement closed, the rooms shed, their
// admissions closed, a room migrated) before its tick lag can approach the kill threshold, which it
// never relaxes: every rung engages below it (contract rules) and nothing here moves it. One pure
// walk, evaluate_shard_ladder, gives the highest rung the signals meet; ShardLoadLadder holds the
// rung in force with hysteresis; shard_shedding.h says what each rung sheds and how it composes
// above the room ladder.
#pragma once

#include <cstdint>

#include "tickwire/fleet/load_ladder.h"
#include "tickwire/protocol/load_policy.h"

namespace tickwire {

// What the shard ladder reads, measured by the shard's loop over a recent window:
// - `busy_percent`: the share of the window the shard's thread spent running its rooms (0..100).
//   The leading sign: while it is below 100 every deadline can be met, and it nears 100 before the
//   loop falls behind.
// - `lag_ticks`: how many ticks the shard's loop is behind its schedule (its most overdue room). The
//   ground truth, and the signal the kill threshold is stated in.
struct ShardLoadSignals {
  double busy_percent = 0.0;  // finite, 0..100
  uint32_t lag_ticks = 0;
};

// The signals as the ladder reads them (a busy share outside 0..100 is a programmer error).
LadderReading reading_of(const ShardLoadSignals& signals);

// THE shard ladder's walk: from calm upward, the single highest rung the signals meet.
ShardLoadRung evaluate_shard_ladder(const ShardLoadSignals& signals, const ShardLadderPolicy& ladder);

// Whether the shard's lag has reached the kill threshold: what the ladder exists to stay below. The
// threshold is the contract's, read as it stands whatever rung is in force.
bool shard_lag_at_kill_threshold(const ShardLoadSignals& signals, const ShardLadderPolicy& ladder);

// A shard's rung in force, with the contract's hysteresis (`contract.load.shard`).
using ShardLoadLadder = LoadLadder<ShardLoadRung, ShardLadderPolicy, ShardLoadSignals>;

}  // namespace tickwire
