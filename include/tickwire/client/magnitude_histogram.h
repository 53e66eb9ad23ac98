// MagnitudeHistogram: the distribution of correction sizes a session saw, in fixed logarithmic
// bins (no allocation, any number of samples), so a quality report can state a p99 beside the
// count without keeping every sample.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace tickwire {

inline constexpr double kMagnitudeHistogramFloorM = 1e-4;   // lower edge of the first decade
inline constexpr std::size_t kMagnitudeHistogramBinsPerDecade = 10;
inline constexpr std::size_t kMagnitudeHistogramDecades = 9;  // 0.1 mm .. 100 km
// One bin below the floor, the decades, one bin above the top.
inline constexpr std::size_t kMagnitudeHistogramBins = kMagnitudeHistogramBinsPerDecade * kMagnitudeHistogramDecades + 2;

class MagnitudeHistogram {
 public:
  // A non-finite or negative sample is counted in the top bin (it is a magnitude no one should see).
  void add(double magnitude_m);
  uint64_t count() const { return count_; }
  double max_m() const { return max_m_; }
  // An upper bound on the q-quantile (q in [0, 1]): the upper edge of the bin holding it, or the
  // largest sample when that is smaller. 0 with no samples.
  double quantile_m(double q) const;
  void reset() { *this = MagnitudeHistogram{}; }

 private:
  std::array<uint64_t, kMagnitudeHistogramBins> bins_{};
  uint64_t count_ = 0;
  double max_m_ = 0;
};

}  // namespace tickwire
