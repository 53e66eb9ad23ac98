// The server's clock read off snapshot arrivals: the highest reading, sagging slowly.
#include "tickwire/client/server_time_estimate.h"

#include <algorithm>

namespace tickwire {

void ServerTimeEstimate::on_snapshot(uint64_t server_us, Duration rtt, MonoTime now) {
  const Duration server = Duration::microseconds(static_cast<int64_t>(server_us));
  const Duration reading = server + rtt / 2 - (now - MonoTime());
  if (!offset_) {
    offset_ = reading;
    offset_at_ = now;
    return;
  }
  const Duration elapsed = now - offset_at_;
  const Duration sag = Duration::nanoseconds(static_cast<int64_t>(
      static_cast<double>(kServerTimeSagPerSecond.ns()) * std::max(0.0, static_cast<double>(elapsed.ns()) * 1e-9)));
  offset_ = std::max(reading, *offset_ - sag);
  offset_at_ = now;
}

uint64_t ServerTimeEstimate::at(MonoTime now) const {
  if (!offset_) return 0;
  const int64_t ns = (now - MonoTime()).ns() + offset_->ns();
  return ns <= 0 ? 0 : static_cast<uint64_t>(ns / 1000);
}

}  // namespace tickwire
