// The regulator's rules: readings in server-tick order, an exponential filter over them, a PI rate
// toward base depth + the JitterMargin (grown per starved tick once the lead is acquired), clamped
// at +-clockMaxRate, and a hold decided by the un-acked backlog alone.
#include "tickwire/client/clock_regulator.h"

#include <algorithm>
#include <cmath>

#include "tickwire/core/assert.h"

namespace tickwire {
namespace {

// A hold lets go once the un-acked input falls below this fraction of holdBacklog. An ack or two
// still in flight when the link died arrives first and must not release it only to hold again
// (resumed acks drain the backlog towards zero, since a held client produces nothing).
inline constexpr double kHoldReleaseFraction = 0.5;
// The integral credits a reading with at most this many ticks: after a run of lost snapshots the
// error during the gap is unknown, and a long gap must not slam the integral into its clamp.
inline constexpr int64_t kMaxIntegratedGapTicks = 6;

// Growth events a retune may replay to carry a margin over: (target limit) / (minimum growth).
inline constexpr int64_t kMaxMarginCarryEvents =
    static_cast<int64_t>(kClockTargetDepthLimitTicks / kClockMinMarginGrowthTicks) + 1;

// JitterMargin exposes its law, not a setter, so a retuned margin is re-earned under the new law at
// an instant in the past and left to decay to exactly the carried value now: `events` growths reach
// `peak`, and (peak - carried) decay periods of calm bring it back down to `carried`.
JitterMargin carried_margin(const JitterMarginConfig& config, double carried, MonoTime now) {
  const double wanted = std::min(carried, config.max);
  if (!config.enabled || wanted <= 0.0 || config.growth <= 0.0) return JitterMargin(config, now);
  const int64_t events = static_cast<int64_t>(std::ceil(wanted / config.growth));
  TW_ASSERT(events <= kMaxMarginCarryEvents, "sanitized settings bound the margin carry");
  const double peak = std::min(config.max, static_cast<double>(events) * config.growth);
  const MonoTime earned_at = now - Duration::from_seconds((peak - wanted) * config.decay.seconds_f());
  JitterMargin margin(config, earned_at);
  for (int64_t i = 0; i < events; ++i) margin.on_bad_event(earned_at);
  margin.update(now);
  return margin;
}

bool same_margin_law(const JitterMarginConfig& a, const JitterMarginConfig& b) {
  return a.growth == b.growth && a.max == b.max && a.decay == b.decay && a.enabled == b.enabled;
}

}  // namespace

JitterMarginConfig clock_margin_config(const ClockRegulatorSettings& settings) {
  return JitterMarginConfig{.growth = settings.margin_growth_ticks,
                            .max = settings.margin_max_ticks,
                            .decay = settings.margin_decay,
                            .enabled = settings.auto_margin};
}

ClockRegulator::ClockRegulator(Duration tick_period, const ClockRegulatorSettings& settings, MonoTime now)
    : tick_period_(tick_period),
      settings_(sanitized(settings)),
      margin_(clock_margin_config(settings_), now) {
  TW_ASSERT(tick_period.ns() > 0, "the tick period must be positive");
}

double ClockRegulator::target_depth_ticks() const {
  return std::min(kClockTargetDepthLimitTicks, settings_.base_depth_ticks + margin_.value());
}

void ClockRegulator::on_depth_reading(Tick server_tick, int8_t depth_byte, MonoTime now) {
  if (last_tick_ && server_tick <= *last_tick_) {
    ++counters_.stale_readings;
    return;
  }
  const int64_t depth = depth_byte;
  // A run of n starved ticks ends at this tick; only the ones after the last reading are new.
  const int64_t ticks_elapsed = last_tick_ ? server_tick - *last_tick_ : std::max<int64_t>(1, -depth);
  ++counters_.readings;
  margin_.update(now);
  if (depth < 0) note_starved_ticks(static_cast<uint64_t>(std::min(-depth, ticks_elapsed)), now);
  last_tick_ = server_tick;
  last_depth_ = depth_byte;
  smooth(static_cast<double>(depth), ticks_elapsed);
  // Acquired once the filtered depth (not one lucky reading) has reached the base depth.
  if (!acquired_ && *smoothed_depth_ticks_ >= settings_.base_depth_ticks) acquired_ = true;
  integrate(ticks_elapsed);
  recompute_rate();
}

void ClockRegulator::note_starved_ticks(uint64_t starved, MonoTime now) {
  counters_.starved_ticks += starved;
  if (!acquired_) return;
  counters_.margin_growths += starved;
  for (uint64_t i = 0; i < starved; ++i) margin_.on_bad_event(now);
}

// An exponential moving average with time constant depthSmoothing, weighted by the server ticks a
// reading covers (a lost snapshot's successor counts for its gap). The readings are integers that
// swing by a tick with the arrival phase and the jitter; the controller needs their mean, and a
// first-order filter gives it with a lag (the time constant) kept well under the loop's own.
void ClockRegulator::smooth(double depth_ticks, int64_t ticks_elapsed) {
  if (!smoothed_depth_ticks_ || settings_.depth_smoothing.ns() == 0) {
    smoothed_depth_ticks_ = depth_ticks;  // an unknown queue is not an empty one: start at the reading
    return;
  }
  const double covered_s = static_cast<double>(ticks_elapsed) * tick_period_.seconds_f();
  const double weight = 1.0 - std::exp(-covered_s / settings_.depth_smoothing.seconds_f());
  *smoothed_depth_ticks_ += weight * (depth_ticks - *smoothed_depth_ticks_);
}

// The integral term absorbs a steady rate difference (a client clock running fast or slow) so the
// depth settles on the target instead of beside it. It integrates only while the output is not
// pinned at the clamp in the error's direction (no wind-up during the acquisition ramp).
void ClockRegulator::integrate(int64_t ticks_elapsed) {
  if (settings_.rate_integral_time.ns() == 0 || !smoothed_depth_ticks_) {
    integral_ = 0.0;
    return;
  }
  const double error_ticks = target_depth_ticks() - *smoothed_depth_ticks_;
  const double output = settings_.rate_gain_per_tick * error_ticks + integral_;
  const double limit = settings_.clock_max_rate;
  if ((output >= limit && error_ticks > 0.0) || (output <= -limit && error_ticks < 0.0)) return;
  const double covered_s = static_cast<double>(std::min(ticks_elapsed, kMaxIntegratedGapTicks)) * tick_period_.seconds_f();
  integral_ += settings_.rate_gain_per_tick * error_ticks * covered_s / settings_.rate_integral_time.seconds_f();
  integral_ = std::clamp(integral_, -limit, limit);
}

void ClockRegulator::recompute_rate() {
  if (!smoothed_depth_ticks_) {
    rate_ = 1.0;  // nothing known yet: run at the nominal rate
    return;
  }
  const double error_ticks = target_depth_ticks() - *smoothed_depth_ticks_;
  const double output = settings_.rate_gain_per_tick * error_ticks + integral_;
  rate_ = 1.0 + std::clamp(output, -settings_.clock_max_rate, settings_.clock_max_rate);
  counters_.min_rate = std::min(counters_.min_rate, rate_);
  counters_.max_rate = std::max(counters_.max_rate, rate_);
}

void ClockRegulator::update_hold(uint32_t unacked_inputs) {
  const Duration backlog = tick_period_ * static_cast<int64_t>(unacked_inputs);
  if (!holding_ && backlog >= settings_.hold_backlog) {
    holding_ = true;
    ++counters_.holds;
  } else if (holding_ && backlog.seconds_f() < settings_.hold_backlog.seconds_f() * kHoldReleaseFraction) {
    holding_ = false;  // acks resumed
  }
}

void ClockRegulator::update(MonoTime now, uint32_t unacked_inputs) {
  margin_.update(now);
  update_hold(unacked_inputs);
  recompute_rate();
}

void ClockRegulator::set_settings(const ClockRegulatorSettings& settings, MonoTime now) {
  const ClockRegulatorSettings next = sanitized(settings);
  const JitterMarginConfig law = clock_margin_config(next);
  if (!same_margin_law(law, margin_.config())) {
    margin_.update(now);
    margin_ = carried_margin(law, margin_.value(), now);
  }
  settings_ = next;
  integral_ = std::clamp(integral_, -settings_.clock_max_rate, settings_.clock_max_rate);
  if (settings_.rate_integral_time.ns() == 0) integral_ = 0.0;
  recompute_rate();
}

void ClockRegulator::reset(MonoTime now) {
  margin_ = JitterMargin(clock_margin_config(settings_), now);
  last_tick_.reset();
  last_depth_.reset();
  smoothed_depth_ticks_.reset();
  integral_ = 0.0;
  rate_ = 1.0;
  acquired_ = false;
  holding_ = false;
  counters_ = ClockRegulatorCounters{};
}

}  // namespace tickwire
