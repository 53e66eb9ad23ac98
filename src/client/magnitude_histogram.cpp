// Logarithmic binning: bin i (1..decades*per_decade) holds [floor * 10^((i-1)/n), floor * 10^(i/n)).
#include "tickwire/client/magnitude_histogram.h"

#include <algorithm>
#include <cmath>

namespace tickwire {

namespace {

constexpr std::size_t kTopBin = kMagnitudeHistogramBins - 1;

std::size_t bin_of(double magnitude_m) {
  if (!std::isfinite(magnitude_m) || magnitude_m < 0) return kTopBin;
  if (magnitude_m < kMagnitudeHistogramFloorM) return 0;
  const double steps = std::log10(magnitude_m / kMagnitudeHistogramFloorM) * kMagnitudeHistogramBinsPerDecade;
  const auto index = static_cast<std::size_t>(std::floor(steps)) + 1;
  return std::min(index, kTopBin);
}

double upper_edge(std::size_t bin) {
  return kMagnitudeHistogramFloorM *
         std::pow(10.0, static_cast<double>(bin) / static_cast<double>(kMagnitudeHistogramBinsPerDecade));
}

}  // namespace

void MagnitudeHistogram::add(double magnitude_m) {
  ++bins_[bin_of(magnitude_m)];
  ++count_;
  if (std::isfinite(magnitude_m)) max_m_ = std::max(max_m_, magnitude_m);
}

double MagnitudeHistogram::quantile_m(double q) const {
  if (count_ == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  const auto rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(count_)));
  uint64_t seen = 0;
  for (std::size_t bin = 0; bin < kMagnitudeHistogramBins; ++bin) {
    seen += bins_[bin];
    if (seen >= std::max<uint64_t>(rank, 1)) return bin == kTopBin ? max_m_ : std::min(upper_edge(bin), max_m_);
  }
  return max_m_;
}

}  // namespace tickwire
