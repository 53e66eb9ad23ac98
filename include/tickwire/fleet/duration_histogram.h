// DurationHistogram: how long something took (a tick's work), counted into fixed buckets the way a
// Prometheus histogram states them (cumulative, each bucket an upper bound in seconds, +Inf the
// total), with the sum and the count. Fixed bounds so the exposition's series never change shape;
// the loop adds, the metrics read, both on the loop's thread.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace tickwire::fleet {

class DurationHistogram {
 public:
  // From 0.25 ms to a third of a second: a 60 Hz tick's budget (16.7 ms) sits inside.
  static constexpr std::array<double, 12> kUpperBoundsSeconds = {0.00025, 0.0005, 0.001, 0.002, 0.004, 0.008,
                                                                 0.0167, 0.025, 0.05, 0.1, 0.2, 0.333};

  void add(double seconds) {
    if (!(seconds >= 0)) return;  // NaN or negative: not a duration
    for (std::size_t k = 0; k < kUpperBoundsSeconds.size(); ++k) {
      if (seconds <= kUpperBoundsSeconds[k]) ++buckets_[k];
    }
    sum_seconds_ += seconds;
    ++count_;
  }
  // Cumulative: durations at most kUpperBoundsSeconds[k].
  uint64_t at_most(std::size_t k) const { return buckets_[k]; }
  double sum_seconds() const { return sum_seconds_; }
  uint64_t count() const { return count_; }

 private:
  std::array<uint64_t, kUpperBoundsSeconds.size()> buckets_{};
  double sum_seconds_ = 0;
  uint64_t count_ = 0;
};

}  // namespace tickwire::fleet
