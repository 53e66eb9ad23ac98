// The jitter margin's law: +growth per event (capped), -1 per decay period of calm (floored at 0).
#include "tickwire/clock/jitter_margin.h"

#include <algorithm>
#include <cmath>

#include "tickwire/core/assert.h"

namespace tickwire {

// Values this close above a whole number count as that number (float residue of the decay).
static constexpr double kWholeUnitSlack = 1e-9;

JitterMargin::JitterMargin(const JitterMarginConfig& config, MonoTime start) : config_(config), last_update_(start) {
  TW_ASSERT(config.growth >= 0.0 && config.max >= 0.0, "margin growth and max must not be negative");
  TW_ASSERT(config.decay.ns() > 0, "the margin decay period must be positive");
}

void JitterMargin::update(MonoTime now) {
  if (now <= last_update_) return;
  const double calm_periods = (now - last_update_).seconds_f() / config_.decay.seconds_f();
  value_ = std::max(0.0, value_ - calm_periods);
  last_update_ = now;
}

void JitterMargin::on_bad_event(MonoTime now) {
  ++bad_events_;
  update(now);
  if (!config_.enabled) return;
  value_ = std::min(config_.max, value_ + config_.growth);
}

int64_t JitterMargin::whole_units() const {
  return static_cast<int64_t>(std::ceil(value_ - kWholeUnitSlack));
}

}  // namespace tickwire
