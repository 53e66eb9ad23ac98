// client.interp.*: contract seeding, validation, and the per-profile whole-tick delay law.
#include "tickwire/client/interp_settings.h"

#include <algorithm>
#include <cmath>

#include "tickwire/core/assert.h"

namespace tickwire {

namespace {
// ceil() of a value that float arithmetic left a hair above a whole number counts as that number.
constexpr double kWholeTickSlack = 1e-6;

int64_t whole_interp_ticks(double interp_ticks) {
  return static_cast<int64_t>(std::ceil(interp_ticks - kWholeTickSlack));
}
}  // namespace

InterpSettings InterpSettings::from_contract(const NetcodeContract& contract) {
  InterpSettings s;
  const InterpolationPolicy& p = contract.interpolation;
  s.tick_rate_hz = static_cast<double>(contract.cadence.tick_rate_hz);
  s.interp_seconds = p.delay_snapshot_intervals * static_cast<double>(contract.ticks_per_snapshot) / s.tick_rate_hz;
  s.buffer_ticks = p.buffer_ticks;
  s.margin_growth_ticks = p.margin_growth_ticks;
  s.max_margin_ticks = p.max_margin_ticks;
  s.margin_decay = Duration::from_seconds(p.margin_decay_seconds);
  s.auto_margin = p.auto_margin;
  s.max_extrapolation = Duration::milliseconds(p.max_extrapolation_ms);
  return s;
}

JitterMarginConfig InterpSettings::margin_config() const {
  return JitterMarginConfig{.growth = margin_growth_ticks, .max = max_margin_ticks, .decay = margin_decay,
                            .enabled = auto_margin};
}

TimelineConfig InterpSettings::timeline_config() const {
  return TimelineConfig{.buffer_ticks = buffer_ticks, .max_entities_per_snapshot = max_entities_per_snapshot};
}

bool interp_settings_valid(const InterpSettings& s) {
  const auto finite_in = [](double v, double lo, double hi) { return std::isfinite(v) && v >= lo && v <= hi; };
  return finite_in(s.tick_rate_hz, 1.0, kContractMaxTickRateHz) &&
         finite_in(s.interp_ticks(), 0.0, static_cast<double>(kMaxTimelineBufferTicks)) &&
         s.buffer_ticks >= 2 && s.buffer_ticks <= kMaxTimelineBufferTicks && s.max_entities_per_snapshot >= 1 &&
         s.max_entities_per_snapshot <= kMaxEntitiesPerSnapshotCap && finite_in(s.margin_growth_ticks, 0.0, 64.0) &&
         finite_in(s.max_margin_ticks, 0.0, static_cast<double>(kMaxTimelineBufferTicks)) &&
         s.margin_decay.ns() > 0 && s.max_extrapolation.ns() >= 0 && s.max_extrapolation <= Duration::seconds(1) &&
         render_clock_config_valid(s.clock) && s.report_interval.ns() > 0;
}

int64_t profile_base_delay_ticks(InterpProfile profile, double interp_ticks) {
  TW_ASSERT(std::isfinite(interp_ticks) && interp_ticks >= 0.0, "interp is a non-negative time");
  const int64_t interp = whole_interp_ticks(interp_ticks);
  switch (profile) {
    case InterpProfile::hug_newest: return 1;
    case InterpProfile::standard: return interp + 1;
    case InterpProfile::doubled: return 2 * interp + 1;
    case InterpProfile::count_: break;
  }
  TW_ASSERT(false, "not an interpolation profile");
  return interp + 1;
}

int64_t delay_ceiling_ticks(uint32_t buffer_ticks, const InterpSettings& settings) {
  const int64_t asked = profile_base_delay_ticks(InterpProfile::standard, settings.interp_ticks()) +
                        static_cast<int64_t>(std::ceil(settings.max_margin_ticks)) + 1;
  return std::min(static_cast<int64_t>(buffer_ticks) * 3 / 4, asked);
}

}  // namespace tickwire
