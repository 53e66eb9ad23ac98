// Interval rate with an exponential blend (weight 1/4 per interval); a long idle gap is closed in a
// bounded number of steps.
#include "tickwire/transport/bandwidth_meter.h"

#include "tickwire/core/assert.h"

namespace tickwire {
namespace {
constexpr double kBlend = 0.25;
constexpr int kMaxIntervalsPerUpdate = 32;  // after this many idle intervals the rate is ~0 anyway
}  // namespace

BandwidthMeter::BandwidthMeter(Duration interval) : interval_(interval) {
  TW_ASSERT(interval > Duration(), "bandwidth interval must be positive");
}

void BandwidthMeter::add(MonoTime now, std::size_t bytes) {
  update(now);
  window_bytes_ += bytes;
  total_bytes_ += bytes;
}

void BandwidthMeter::update(MonoTime now) {
  if (!started_) {
    started_ = true;
    window_start_ = now;
    return;
  }
  int closed = 0;
  while (now - window_start_ >= interval_) {
    if (closed == kMaxIntervalsPerUpdate) {
      kbps_ = 0.0;
      window_start_ = now;
      break;
    }
    const double rate = static_cast<double>(window_bytes_) * 8.0 / interval_.seconds_f() / 1000.0;
    kbps_ = has_rate_ ? kbps_ + (rate - kbps_) * kBlend : rate;
    has_rate_ = true;
    window_bytes_ = 0;
    window_start_ += interval_;
    ++closed;
  }
}

}  // namespace tickwire
