// A room's load over a window: its cost against its share of the thread, its mean lateness in ticks.
#include "tickwire/fleet/room_load_meter.h"

#include <algorithm>

#include "tickwire/core/assert.h"

namespace tickwire {

void RoomLoadMeter::record(Duration late, Duration tick_period, Duration cost) {
  TW_ASSERT(tick_period > Duration{}, "a room ticks at a positive period");
  late_ticks_ += static_cast<double>(std::max<int64_t>(late.ns(), 0)) / static_cast<double>(tick_period.ns());
  cost_ = cost_ + std::max(cost, Duration{});
  ++window_iterations_;
  ++iterations_;
}

RoomLoadSignals RoomLoadMeter::close_window(Duration window, uint32_t rooms_sharing) {
  TW_ASSERT(window > Duration{} && rooms_sharing >= 1, "a window of time over at least this room");
  RoomLoadSignals signals;
  const double share_ns = static_cast<double>(window.ns()) / static_cast<double>(rooms_sharing);
  signals.tick_cost_percent = 100.0 * static_cast<double>(cost_.ns()) / share_ns;
  const double mean_late = window_iterations_ == 0 ? 0.0 : late_ticks_ / static_cast<double>(window_iterations_);
  signals.lag_ticks = static_cast<uint32_t>(std::min(mean_late, static_cast<double>(kLoadMaxLagTicks)));
  cost_ = Duration{};
  late_ticks_ = 0.0;
  window_iterations_ = 0;
  return signals;
}

}  // namespace tickwire
