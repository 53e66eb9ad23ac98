// RenderClock: the time remote entities are drawn at, a fractional server tick. It advances on real
// frame time (dt x timescale, in ticks), rate-corrected by at most +-max_rate toward the newest tick
// minus the delay; past the newest tick the frame is held, past the extrapolation cap the clock
// waits, and it snaps only when a stall leaves it behind the replica ring. Arrival times play no part.
//
// "Newest tick minus the delay" is measured at the newest tick's low-water mark: the clock steers
// the least headroom it has had lately (newest - render time, a mark that follows every dip at once
// and climbs back at most max_rate x dt) to delay - 1/2. On an even stream the newest tick climbs a
// one-tick staircase whose average is half a tick above its low, so this is exactly "the delay
// behind the average". On a host that clumps (a 5-tick burst every 83 ms) it is the staircase's
// bottom that is kept clear: a burst costs latency, never a held frame. The slow climb is for a
// staircase's steps; a stall the clock waited out (held frames) is not one: the first frame after
// it takes the headroom its backlog brings at once, so the clock speeds toward its goal instead of
// slowing, the stall's depth still remembered as the lowest mark.
#pragma once

#include <cstdint>

namespace tickwire {

struct RenderClockConfig {
  double max_rate = 0.05;       // dt is scaled by 1 +- at most this
  double gain_per_tick = 0.02;  // rate correction per tick of error: the full 5% at 2.5 ticks
};

// On an even stream the newest tick's low sits this far below its average.
inline constexpr double kEvenStreamLowToMeanTicks = 0.5;

// This frame's landmarks on the tick timeline.
struct RenderClockBounds {
  double newest_tick = 0.0;     // past it the frame is held (no snapshot to blend toward)
  double delay_ticks = 0.0;     // the delay in force
  double halt_tick = 0.0;       // newest + extrapolation cap: the clock waits here
  double back_edge_tick = 0.0;  // the ring's oldest tick: behind it the clock snaps
  double snap_tick = 0.0;       // where a snap lands
  double snap_merge_ticks = 0.0;  // a fall-out this soon after a snap is the same snap
};

struct RenderClockStep {
  double rate = 1.0;            // the commanded multiplier of dt, within 1 +- max_rate
  double advanced_ticks = 0.0;  // how far the render time moved (a snap's jump included)
  bool halted = false;          // the clock waited at the halt tick
  bool snapped = false;
  // The clock fell out of the ring again within snap_merge_ticks of frame time after a snap: the
  // same stall's backlog still landing. It re-lands at the snap tick; the same snap, counted once.
  bool snap_continued = false;
  bool held = false;            // the render time is past the newest tick, or waits at the cap
};

bool render_clock_config_valid(const RenderClockConfig& config);

class RenderClock {
 public:
  explicit RenderClock(const RenderClockConfig& config = {});

  void set_config(const RenderClockConfig& config);
  const RenderClockConfig& config() const { return config_; }

  bool placed() const { return placed_; }
  double render_tick() const { return render_tick_; }
  // The headroom low-water mark the clock steers (ticks).
  double low_water_ticks() const { return low_water_ticks_; }
  // Puts the clock at `tick` with `newest_tick` the newest held; the low-water mark starts there.
  void place(double tick, double newest_tick);
  // One frame: `dt_ticks` is real frame time x timescale, in ticks (>= 0).
  RenderClockStep advance(double dt_ticks, const RenderClockBounds& bounds);
  // The commanded rate for a low-water mark `error_ticks` above its goal (negative: below).
  double rate_for(double error_ticks) const;
  void reset();

 private:
  RenderClockConfig config_;
  bool placed_ = false;
  double render_tick_ = 0.0;
  double low_water_ticks_ = 0.0;
  bool has_snapped_ = false;
  double ticks_since_snap_ = 0.0;  // frame time (in ticks) since the last snap
  bool was_held_ = false;          // the previous frame was held (the clock waited out a stall)
};

}  // namespace tickwire
