// Samples summarised as a report does: mean, p50, p99 and max over a capped reservoir, shared by
// the server's and the bots' stats lines and the demo's report.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace tickwire::cli {

class SampleStats {
 public:
  static constexpr std::size_t kMaxSamples = 1 << 16;  // beyond this, every other sample is kept

  void add(double value) {
    ++count_;
    sum_ += value;
    max_ = count_ == 1 ? value : std::max(max_, value);
    if (samples_.size() < kMaxSamples) samples_.push_back(value);
    else samples_[count_ % kMaxSamples] = value;
  }
  std::size_t count() const { return count_; }
  double mean() const { return count_ == 0 ? 0.0 : sum_ / static_cast<double>(count_); }
  double max() const { return max_; }
  double percentile(double p) const {
    if (samples_.empty()) return 0.0;
    std::vector<double> sorted = samples_;
    const auto k = static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(k), sorted.end());
    return sorted[k];
  }

 private:
  std::vector<double> samples_;
  std::size_t count_ = 0;
  double sum_ = 0;
  double max_ = 0;
};

}  // namespace tickwire::cli
