// The client's fixed-tick accumulator: real frame seconds, scaled by the clock regulator's rate, go
// in; whole client ticks to run come out. The rate is the only place the client's clock bends, so
// keeping the lead is one multiplication here. A long frame runs at most a named number of ticks.
#pragma once

#include <cstdint>

#include "tickwire/clock/time.h"

namespace tickwire {

// Ticks one frame may run; time beyond that is dropped (and counted) rather than run in a burst
// that would overflow the server's 12-deep input queue and starve the frame after it.
inline constexpr uint32_t kClientMaxTicksPerFrame = 8;

class TickAccumulator {
 public:
  explicit TickAccumulator(Duration tick_period, uint32_t max_ticks_per_frame = kClientMaxTicksPerFrame);

  // Adds real_dt x rate and returns how many ticks to run now (<= max_ticks_per_frame).
  // real_dt >= 0 and rate > 0 (programmer errors otherwise).
  uint32_t advance(Duration real_dt, double rate);

  // The fraction of a tick accumulated towards the next one, in [0, 1) (for drawing between ticks).
  double alpha() const;
  uint64_t ticks_run() const { return ticks_run_; }
  // Whole ticks of time discarded by the per-frame cap.
  uint64_t dropped_ticks() const { return dropped_ticks_; }
  uint32_t max_ticks_per_frame() const { return max_ticks_per_frame_; }
  // Leaving a session: no time pending, counts cleared.
  void reset();

 private:
  double tick_period_s_;
  uint32_t max_ticks_per_frame_;
  double pending_s_ = 0.0;  // always < one tick between calls
  uint64_t ticks_run_ = 0;
  uint64_t dropped_ticks_ = 0;
};

}  // namespace tickwire
