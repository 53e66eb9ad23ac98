// What every load ladder shares (seed 003, "Load ladders"): a reading of its two signals, the one
// walk from calm upward that returns the single highest rung the reading meets, and a ladder that
// holds its rung in force with hysteresis. A ladder is a rung enum (calm first), a policy from the
// contract (`rungs`: each rung's thresholds in order; `release_dwell_ms`) and its own signals, which
// `reading_of(signals)`, declared beside them, turns into a LadderReading.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/core/assert.h"
#include "tickwire/fleet/rung_hysteresis.h"
#include "tickwire/protocol/load_policy.h"

namespace tickwire {

// A ladder's two signals: its load in percent (a room's tick cost, a shard's busy share) and its lag
// in ticks.
struct LadderReading {
  double load_percent = 0.0;
  uint32_t lag_ticks = 0;
};

// Either signal at or past the rung's enter threshold meets it.
template <class Names>
bool meets_enter(const LadderReading& reading, const RungThresholds<Names>& rung) {
  return reading.load_percent >= rung.enter_percent || reading.lag_ticks >= rung.enter_lag_ticks;
}

// Both signals at or below the rung's release thresholds.
template <class Names>
bool at_or_below_release(const LadderReading& reading, const RungThresholds<Names>& rung) {
  return reading.load_percent <= rung.release_percent && reading.lag_ticks <= rung.release_lag_ticks;
}

// From calm upward, every rung in order: the highest one whose enter thresholds the reading meets
// (calm when none). Pure: the same reading and thresholds always give the same rung.
template <class Rung, class Thresholds>
Rung walk_from_calm(const LadderReading& reading, const std::vector<Thresholds>& rungs) {
  std::size_t highest = 0;
  for (std::size_t i = 0; i < rungs.size(); ++i) {
    if (meets_enter(reading, rungs[i])) highest = i + 1;
  }
  return static_cast<Rung>(highest);
}

// A ladder's rung in force: update() once per reading with the signals and the time they were read.
template <class Rung, class Policy, class Signals>
class LoadLadder {
 public:
  // `policy` as the contract holds it (validated: every rung listed once, in order).
  explicit LoadLadder(Policy policy)
      : policy_(std::move(policy)), hysteresis_(Duration::milliseconds(policy_.release_dwell_ms)) {
    TW_ASSERT(policy_.rungs.size() + 1 == static_cast<std::size_t>(Rung::count_), "a ladder lists each of its rungs");
    for (std::size_t i = 0; i < policy_.rungs.size(); ++i) {
      TW_ASSERT(static_cast<std::size_t>(policy_.rungs[i].rung) == i + 1, "a ladder lists its rungs in order");
    }
  }

  // The walk gives the rung met; the hysteresis engages it at once if it is higher than the rung in
  // force, or releases the rung in force once the signals have stayed at or below its release
  // thresholds for the dwell. Returns the rung in force.
  Rung update(const Signals& signals, MonoTime now) {
    const LadderReading reading = reading_of(signals);
    const Rung met = walk_from_calm<Rung>(reading, policy_.rungs);
    const uint8_t in_force = hysteresis_.rung();
    const bool releasable = in_force > 0 && at_or_below_release(reading, policy_.rungs[in_force - 1u]);
    return static_cast<Rung>(hysteresis_.update(static_cast<uint8_t>(met), releasable, now));
  }

  Rung rung() const { return static_cast<Rung>(hysteresis_.rung()); }
  std::optional<MonoTime> calm_since() const { return hysteresis_.calm_since(); }
  const Policy& policy() const { return policy_; }

 private:
  Policy policy_;
  RungHysteresis hysteresis_;
};

}  // namespace tickwire
