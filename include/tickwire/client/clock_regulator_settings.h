// The client.net.* knobs of the tick-clock regulation, as one plain struct the client may replace
// between any two frames (a console edit, a config reload). Values come from a user, not from the
// wire, so a value out of range is clamped into its named limits rather than asserted.
#pragma once

#include "tickwire/clock/time.h"
#include "tickwire/protocol/constants.h"

namespace tickwire {

// The limits every setting is clamped into by sanitized().
inline constexpr double kClockMaxRateLimit = 0.10;  // clockMaxRate never above +-10%
// The target depth (base + margin) stays below the server queue's capacity, or it would overflow.
inline constexpr double kClockTargetDepthLimitTicks = static_cast<double>(protocol::InputQueueTicks) - 2.0;
inline constexpr double kClockMinMarginGrowthTicks = 0.01;
inline constexpr double kClockMaxMarginGrowthTicks = 4.0;
inline constexpr Duration kClockMinMarginDecay = Duration::milliseconds(100);
inline constexpr Duration kClockMaxMarginDecay = Duration::seconds(600);
inline constexpr Duration kClockMinHoldBacklog = Duration::milliseconds(100);
inline constexpr Duration kClockMaxHoldBacklog = Duration::seconds(10);
inline constexpr Duration kClockMaxDepthSmoothing = Duration::seconds(5);
inline constexpr double kClockMaxRateGainPerTick = 0.5;
inline constexpr Duration kClockMaxRateIntegralTime = Duration::seconds(600);

// Defaults are the ones the transatlantic closed-loop test pins (tests/client/clock_regulator_loop_test).
struct ClockRegulatorSettings {
  // clockMaxRate: the real seconds fed to the tick accumulator are scaled by 1 +- at most this.
  double clock_max_rate = 0.02;
  // baseDepth: the server queue depth (inputs waiting after a tick took its own) aimed at on a calm link.
  double base_depth_ticks = 2.0;
  // marginGrowth / marginMax / marginDecay: each starved tick the server reports widens the target
  // by marginGrowth ticks, up to marginMax; each marginDecay of calm hands one tick back. On a link
  // whose jitter the margin has to cover, the law settles where growth meets decay: one starved tick
  // per marginDecay / marginGrowth seconds, a share of 1 / (decay_s x growth x tick rate) of the
  // ticks. 10 s x 1 at 60 Hz is 0.17% (burst-host: 0.36-0.41% of 60 s with the join, 0.11-0.13%
  // once settled); 4 s x 0.5 was 0.83%, above the 0.5% a bursty host is held to.
  double margin_growth_ticks = 1.0;
  double margin_max_ticks = 4.0;
  Duration margin_decay = Duration::seconds(10);
  bool auto_margin = true;  // autoMargin: off, the margin stays zero (starved ticks still counted)
  // holdBacklog: input production stops only after this much input (in ticks of time) is un-acked.
  Duration hold_backlog = Duration::seconds(1);
  // depthSmoothing: the time constant of the exponential filter over the depth readings (0: none).
  Duration depth_smoothing = Duration::milliseconds(300);
  // rateGain: rate change per tick of depth error (proportional term).
  double rate_gain_per_tick = 0.02;
  // rateIntegralTime: the integral term's time (it absorbs a steady clock drift); 0 switches it off.
  Duration rate_integral_time = Duration::seconds(2);
};

// The same settings with every value clamped into its limits (margin_max also so that
// base + margin_max stays within kClockTargetDepthLimitTicks).
ClockRegulatorSettings sanitized(const ClockRegulatorSettings& settings);

}  // namespace tickwire
