// The render clock's step: low-water headroom, proportional rate correction clamped to
// +-max_rate, hold, halt at the extrapolation cap, snap behind the ring.
#include "tickwire/client/render_clock.h"

#include <algorithm>
#include <cmath>

#include "tickwire/core/assert.h"

namespace tickwire {

namespace {
constexpr double kHeldEpsilonTicks = 1e-9;  // float residue is not a held frame
}

bool render_clock_config_valid(const RenderClockConfig& config) {
  return std::isfinite(config.max_rate) && config.max_rate >= 0.0 && config.max_rate < 1.0 &&
         std::isfinite(config.gain_per_tick) && config.gain_per_tick >= 0.0;
}

RenderClock::RenderClock(const RenderClockConfig& config) { set_config(config); }

void RenderClock::set_config(const RenderClockConfig& config) {
  TW_ASSERT(render_clock_config_valid(config), "render clock: max_rate in [0, 1), gain >= 0");
  config_ = config;
}

void RenderClock::place(double tick, double newest_tick) {
  TW_ASSERT(std::isfinite(tick) && std::isfinite(newest_tick), "the render time is a finite tick");
  placed_ = true;
  render_tick_ = tick;
  low_water_ticks_ = newest_tick - tick;
}

double RenderClock::rate_for(double error_ticks) const {
  return 1.0 + std::clamp(error_ticks * config_.gain_per_tick, -config_.max_rate, config_.max_rate);
}

RenderClockStep RenderClock::advance(double dt_ticks, const RenderClockBounds& bounds) {
  TW_ASSERT(placed_, "place the render clock before advancing it");
  TW_ASSERT(dt_ticks >= 0.0 && std::isfinite(dt_ticks), "frame time moves forward");
  RenderClockStep step;
  const double before = render_tick_;
  step.rate = rate_for(low_water_ticks_ - (bounds.delay_ticks - kEvenStreamLowToMeanTicks));
  double next = render_tick_ + dt_ticks * step.rate;
  if (next > bounds.halt_tick) {
    // Waits at the cap; never moves backward (a cap lowered live leaves the clock where it is).
    next = std::max(bounds.halt_tick, std::min(render_tick_, next));
    step.halted = true;
  }
  render_tick_ = next;
  if (render_tick_ < bounds.back_edge_tick) {
    place(bounds.snap_tick, bounds.newest_tick);
    step.snapped = true;
    step.snap_continued = has_snapped_ && ticks_since_snap_ < bounds.snap_merge_ticks;
    has_snapped_ = true;
    ticks_since_snap_ = 0.0;
  } else {
    // The headroom this frame is drawn with. The mark follows a dip at once and climbs back no
    // faster than the clock itself can correct.
    const double headroom = bounds.newest_tick - render_tick_;
    low_water_ticks_ = was_held_ ? headroom : std::min(headroom, low_water_ticks_ + config_.max_rate * dt_ticks);
  }
  if (!step.snapped) ticks_since_snap_ += dt_ticks;
  step.advanced_ticks = render_tick_ - before;
  // Waiting at the cap is holding too (with a zero cap the clock waits on the newest tick itself).
  step.held = step.halted || render_tick_ > bounds.newest_tick + kHeldEpsilonTicks;
  was_held_ = step.held;
  return step;
}

void RenderClock::reset() {
  placed_ = false;
  render_tick_ = 0.0;
  low_water_ticks_ = 0.0;
  has_snapped_ = false;
  ticks_since_snap_ = 0.0;
  was_held_ = false;
}

}  // namespace tickwire
