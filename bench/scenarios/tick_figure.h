// Mean / p99 / max of a run's per-tick samples: the one summary every cost scenario prints (the
// server-cost scenario's ms per tick, the room bench's server CPU and snapshot bytes).
#pragma once

#include <algorithm>
#include <vector>

namespace tickwire::bench {

struct TickFigure {
  double mean = 0, p99 = 0, max = 0;
};

// The samples' mean, their 99th percentile (the sample 99% of the way up the sorted list) and max.
inline TickFigure figure_of(std::vector<double> samples) {
  TickFigure f;
  if (samples.empty()) return f;
  std::sort(samples.begin(), samples.end());
  double sum = 0;
  for (double s : samples) sum += s;
  f.mean = sum / static_cast<double>(samples.size());
  f.p99 = samples[std::min(samples.size() - 1, samples.size() * 99 / 100)];
  f.max = samples.back();
  return f;
}

}  // namespace tickwire::bench
