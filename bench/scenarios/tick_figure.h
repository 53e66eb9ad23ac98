// Mean / p99 / max of a run's per-tick samples: the one summary every scenario prints (bandwidth
// bytes per tick, the server-cost scenario's ms per tick, the room bench's server CPU).
#pragma once

#include <vector>

namespace tickwire::bench {

// mean / p99 / max of one per-tick quantity.
struct Summary {
  double mean = 0, p99 = 0, max = 0;
  // The samples' mean, their 99th percentile (the nearest rank to 99% of the way up the sorted
  // list) and their max; all zero without samples.
  static Summary of(std::vector<double> samples);
};

}  // namespace tickwire::bench
