// The sleep-overshoot factor's update law: instant rise, slow exponential decay, floor 1, cap 64.
#include "tickwire/clock/sleep_factor.h"

#include <algorithm>
#include <cmath>

#include "tickwire/core/assert.h"

namespace tickwire {

SleepFactor::SleepFactor(const SleepFactorConfig& config) : config_(config) {
  TW_ASSERT(config.decay_per_sample > 0.0 && config.decay_per_sample <= 1.0, "decay must be in (0, 1]");
}

Duration SleepFactor::request_for(Duration budget) const {
  if (budget.ns() <= 0) return Duration{};
  return Duration::nanoseconds(std::llround(static_cast<double>(budget.ns()) / factor_));
}

void SleepFactor::observe(Duration requested, Duration actual) {
  if (!config_.learn || requested < kSleepFactorMinLearnRequest) return;
  ++samples_;
  const double observed =
      std::clamp(static_cast<double>(actual.ns()) / static_cast<double>(requested.ns()), 1.0, kSleepFactorMax);
  if (observed >= factor_) {
    factor_ = observed;  // a host that oversleeps is believed at once
  } else {
    factor_ += (observed - factor_) * config_.decay_per_sample;  // and forgiven slowly
  }
}

}  // namespace tickwire
