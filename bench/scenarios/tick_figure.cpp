// The one mean / p99 / max summary of per-tick samples (tick_figure.h).
#include "tick_figure.h"

#include <algorithm>
#include <cstddef>

namespace tickwire::bench {

Summary Summary::of(std::vector<double> samples) {
  Summary s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  double sum = 0;
  for (double v : samples) sum += v;
  s.mean = sum / static_cast<double>(samples.size());
  const auto k = static_cast<std::size_t>(0.99 * static_cast<double>(samples.size() - 1) + 0.5);
  s.p99 = samples[k];
  s.max = samples.back();
  return s;
}

}  // namespace tickwire::bench
