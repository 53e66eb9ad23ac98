// The shard ladder's reading, its walk and its kill threshold: its load signal is the share of the
// window the shard's thread was busy.
#include "tickwire/fleet/shard_load_ladder.h"

#include <cmath>

#include "tickwire/core/assert.h"

namespace tickwire {

LadderReading reading_of(const ShardLoadSignals& signals) {
  TW_ASSERT(std::isfinite(signals.busy_percent) && signals.busy_percent >= 0.0 && signals.busy_percent <= 100.0,
            "a shard's busy share is a percentage");
  return LadderReading{signals.busy_percent, signals.lag_ticks};
}

ShardLoadRung evaluate_shard_ladder(const ShardLoadSignals& signals, const ShardLadderPolicy& ladder) {
  return walk_from_calm<ShardLoadRung>(reading_of(signals), ladder.rungs);
}

bool shard_lag_at_kill_threshold(const ShardLoadSignals& signals, const ShardLadderPolicy& ladder) {
  return signals.lag_ticks >= ladder.kill_lag_ticks;
}

}  // namespace tickwire
