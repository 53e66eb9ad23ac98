// Scaled frame time in, whole ticks out; the remainder stays pending (less than one tick), and what
// the per-frame cap refuses is dropped and counted.
#include "tickwire/client/tick_accumulator.h"

#include <algorithm>
#include <cmath>

#include "tickwire/core/assert.h"

namespace tickwire {

TickAccumulator::TickAccumulator(Duration tick_period, uint32_t max_ticks_per_frame)
    : tick_period_s_(tick_period.seconds_f()), max_ticks_per_frame_(max_ticks_per_frame) {
  TW_ASSERT(tick_period.ns() > 0, "the tick period must be positive");
  TW_ASSERT(max_ticks_per_frame > 0, "a frame must be allowed at least one tick");
}

uint32_t TickAccumulator::advance(Duration real_dt, double rate) {
  TW_ASSERT(real_dt.ns() >= 0, "frame time never runs backwards");
  TW_ASSERT(rate > 0.0 && std::isfinite(rate), "the clock rate must be positive");
  pending_s_ += real_dt.seconds_f() * rate;
  const double whole = std::floor(pending_s_ / tick_period_s_);
  pending_s_ -= whole * tick_period_s_;
  if (pending_s_ < 0.0) pending_s_ = 0.0;  // float residue of the subtraction
  const double cap = static_cast<double>(max_ticks_per_frame_);
  const uint32_t run = whole >= cap ? max_ticks_per_frame_ : static_cast<uint32_t>(whole);
  // A frame hours long drops hours of ticks; the count saturates rather than overflows.
  const double dropped = std::min(whole - static_cast<double>(run), 1e18);
  dropped_ticks_ += static_cast<uint64_t>(dropped);
  ticks_run_ += run;
  return run;
}

double TickAccumulator::alpha() const { return std::clamp(pending_s_ / tick_period_s_, 0.0, 1.0); }

void TickAccumulator::reset() {
  pending_s_ = 0.0;
  ticks_run_ = 0;
  dropped_ticks_ = 0;
}

}  // namespace tickwire
