// The client's tick-clock regulation: keep a small steady lead over the server's input queue by
// scaling the real seconds fed to the tick accumulator by at most +-clockMaxRate. It steers the
// server's own replicated queue depth, never the client's un-acked backlog: that backlog is floored
// by the round trip (RTT x tick rate), the server's depth is not; the two clocks differ by a rate.
#pragma once

#include <cstdint>
#include <optional>

#include "tickwire/client/clock_regulator_settings.h"
#include "tickwire/clock/jitter_margin.h"
#include "tickwire/clock/tick.h"
#include "tickwire/clock/time.h"

namespace tickwire {

// For the log (and the overlay's hold flag); all of it cleared by reset().
struct ClockRegulatorCounters {
  uint64_t readings = 0;         // depth readings used (one per newer server tick)
  uint64_t stale_readings = 0;   // readings for a tick not newer than the last one (reordered, duplicated)
  uint64_t starved_ticks = 0;    // starved server ticks reported, acquisition included
  uint64_t margin_growths = 0;   // of those, the ones that widened the margin (after acquisition)
  uint64_t holds = 0;            // times input production was stopped
  double min_rate = 1.0;
  double max_rate = 1.0;
};

class ClockRegulator {
 public:
  // `tick_period`: the session's fixed tick (client and server tick at the same nominal rate).
  ClockRegulator(Duration tick_period, const ClockRegulatorSettings& settings, MonoTime now);

  // One snapshot's owner detail: the server tick it describes and the signed queue-depth byte
  // (inputs waiting unsimulated after that tick took its own, or, negative, the run of consecutive
  // starved ticks ending at it). Readings not newer than the last one are counted and ignored.
  void on_depth_reading(Tick server_tick, int8_t depth_byte, MonoTime now);

  // Once per frame, before the tick accumulator: bleeds the margin off, decides the hold from the
  // inputs sent but not yet acked, and recomputes the rate. `unacked_inputs` never moves the rate.
  void update(MonoTime now, uint32_t unacked_inputs);

  // Replaces every setting (clamped by sanitized()); takes effect from this call. The earned
  // margin carries over, clamped to the new marginMax.
  void set_settings(const ClockRegulatorSettings& settings, MonoTime now);
  // Leaving a session: every reading, the filter, the integral, the margin, the hold and the
  // counters are cleared, so a new link is never regulated by the old one's state. Settings stay.
  void reset(MonoTime now);

  // The multiplier for the real seconds fed to the tick accumulator, in [1 - max, 1 + max].
  double rate() const { return rate_; }
  // True while the client must not produce inputs: set when a full holdBacklog of input is
  // un-acked, cleared once resumed acks bring it under half of that. While holding, the client
  // keeps re-sending its newest un-acked inputs (nothing new), or a link that comes back would
  // have nothing to ack and the hold would never end.
  bool holding() const { return holding_; }
  // The latest raw depth byte (absent until the first reading of the session).
  std::optional<int8_t> last_depth() const { return last_depth_; }
  // The filtered depth in ticks (absent until the first reading).
  std::optional<double> smoothed_depth_ticks() const { return smoothed_depth_ticks_; }
  // base depth + the earned margin: what the smoothed depth is steered to.
  double target_depth_ticks() const;
  double margin_ticks() const { return margin_.value(); }
  // False until the smoothed depth first reaches the base depth: starved ticks before that are the
  // lead being built (the first inputs are still on their way), not jitter, and do not widen the
  // margin. Set once per session.
  bool acquired() const { return acquired_; }
  const ClockRegulatorSettings& settings() const { return settings_; }
  const ClockRegulatorCounters& counters() const { return counters_; }

 private:
  void note_starved_ticks(uint64_t starved, MonoTime now);
  void smooth(double depth_ticks, int64_t ticks_elapsed);
  void integrate(int64_t ticks_elapsed);
  void recompute_rate();
  void update_hold(uint32_t unacked_inputs);

  Duration tick_period_;
  ClockRegulatorSettings settings_;
  JitterMargin margin_;
  std::optional<Tick> last_tick_;
  std::optional<int8_t> last_depth_;
  std::optional<double> smoothed_depth_ticks_;
  double integral_ = 0.0;  // the integral term, as a rate offset
  double rate_ = 1.0;
  bool acquired_ = false;
  bool holding_ = false;
  ClockRegulatorCounters counters_;
};

// The JitterMargin law configured from the client.net.* margin settings (units: ticks).
JitterMarginConfig clock_margin_config(const ClockRegulatorSettings& settings);

}  // namespace tickwire
