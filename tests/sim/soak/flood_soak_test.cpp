// The logged-in flood for a minute (issue 19's figure): 16 honest bots beside a client sending every
// message type at a hundred times its legal rate and coming back each time it is kicked. The heap in
// use at the end is within 1% of what it was a tenth of the way in; the honest bots keep 59+
// snapshots a second and their corrections.
#include <gtest/gtest.h>

#include "../flood_sim.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

TEST(FloodSoak, AMinuteOfFloodingLeavesMemoryAndHonestBotsAlone) {
  const uint64_t seed = test_seed(1906);
  const auto [alone, flooded] = run_flood_pair(seed, 16, Duration::seconds(60));
  EXPECT_GE(flooded.kicks, 2u) << "seed=" << seed;
  EXPECT_EQ(reason_count(flooded, "kick.flood"), flooded.kicks);
  const double growth = std::fabs(static_cast<double>(flooded.heap_at_end_bytes) - static_cast<double>(flooded.heap_at_warm_bytes)) /
                        static_cast<double>(flooded.heap_at_warm_bytes);
  EXPECT_LE(growth, 0.01) << "seed=" << seed;
  for (std::size_t i = 0; i < flooded.honest_snapshot_hz.size(); ++i) {
    EXPECT_GE(flooded.honest_snapshot_hz[i], 59.0) << "honest client " << i;
    const uint64_t before = alone.honest_corrections[i];
    EXPECT_LE(flooded.honest_corrections[i], before + std::max<uint64_t>(5, before / 10)) << "honest client " << i;
  }
}

}  // namespace
}  // namespace tickwire
