// Clamping the client.net.* knobs into their named limits: a typo at the console must not give the
// client a 50% clock or a target the server's queue cannot hold.
#include "tickwire/client/clock_regulator_settings.h"

#include <algorithm>
#include <cmath>

namespace tickwire {
namespace {

double clamp_finite(double value, double lo, double hi, double fallback) {
  return std::clamp(std::isfinite(value) ? value : fallback, lo, hi);
}

Duration clamp_duration(Duration value, Duration lo, Duration hi) { return std::clamp(value, lo, hi); }

}  // namespace

ClockRegulatorSettings sanitized(const ClockRegulatorSettings& in) {
  const ClockRegulatorSettings defaults;
  ClockRegulatorSettings out = in;
  out.clock_max_rate = clamp_finite(in.clock_max_rate, 0.0, kClockMaxRateLimit, defaults.clock_max_rate);
  out.base_depth_ticks = clamp_finite(in.base_depth_ticks, 0.0, kClockTargetDepthLimitTicks, defaults.base_depth_ticks);
  out.margin_growth_ticks = clamp_finite(in.margin_growth_ticks, kClockMinMarginGrowthTicks, kClockMaxMarginGrowthTicks,
                                         defaults.margin_growth_ticks);
  out.margin_max_ticks =
      clamp_finite(in.margin_max_ticks, 0.0, kClockTargetDepthLimitTicks - out.base_depth_ticks,
                   defaults.margin_max_ticks);
  out.margin_decay = clamp_duration(in.margin_decay, kClockMinMarginDecay, kClockMaxMarginDecay);
  out.hold_backlog = clamp_duration(in.hold_backlog, kClockMinHoldBacklog, kClockMaxHoldBacklog);
  out.depth_smoothing = clamp_duration(in.depth_smoothing, Duration{}, kClockMaxDepthSmoothing);
  out.rate_gain_per_tick = clamp_finite(in.rate_gain_per_tick, 0.0, kClockMaxRateGainPerTick, defaults.rate_gain_per_tick);
  out.rate_integral_time = clamp_duration(in.rate_integral_time, Duration{}, kClockMaxRateIntegralTime);
  return out;
}

}  // namespace tickwire
