// A bytes-per-interval rate, smoothed across intervals, reported in kbit/s: the sent, received and
// acked bandwidth figures of a connection. Fed with byte counts at the caller's `now`.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tickwire/clock/time.h"

namespace tickwire {

class BandwidthMeter {
 public:
  explicit BandwidthMeter(Duration interval = Duration::milliseconds(250));

  void add(MonoTime now, std::size_t bytes);
  // Closes every interval that ended by `now` (an idle link decays towards zero).
  void update(MonoTime now);
  double kbps() const { return kbps_; }
  uint64_t total_bytes() const { return total_bytes_; }

 private:
  Duration interval_;
  MonoTime window_start_;
  bool started_ = false;
  bool has_rate_ = false;
  uint64_t window_bytes_ = 0;
  uint64_t total_bytes_ = 0;
  double kbps_ = 0.0;
};

}  // namespace tickwire
