// The logged-in flood, quick (tests/sim/flood_sim.h): a client sending every message type at a
// hundred times its legal rate is kicked within the contract's offence bucket, by name, each time it
// comes back; the honest bots beside it keep their snapshot rate and their corrections, and the
// honest run alone offends nothing. The minute-long run is tests/sim/soak/flood_soak_test.cpp.
#include <gtest/gtest.h>

#include "flood_sim.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

TEST(Flood, AFlooderIsKickedByNameAndHonestBotsSeeNothing) {
  const uint64_t seed = test_seed(1905);
  const auto [alone, flooded] = run_flood_pair(seed, 4, Duration::seconds(10));
  for (const ReasonCount& r : alone.reasons) {
    EXPECT_NE(r.name.rfind("offence.", 0), 0u) << r.name << " " << r.count << ": an honest client offended (seed=" << seed << ")";
    EXPECT_NE(r.name.rfind("kick.", 0), 0u) << r.name;
  }
  EXPECT_GE(flooded.kicks, 2u) << "seed=" << seed;
  EXPECT_EQ(reason_count(flooded, "kick.flood"), flooded.kicks);
  EXPECT_GE(flooded.flooder_sessions, flooded.kicks);
  EXPECT_GE(flooded.first_kick_after_s, 0.0);
  EXPECT_LT(flooded.first_kick_after_s, 1.0) << "the bucket empties within the first second of the flood";
  for (const char* offence : {"offence.input_rate", "offence.interact_rate", "offence.fire_rate", "offence.relay_refused",
                              "offence.ping_rate", "offence.edit_unauthorized", "offence.undecodable", "offence.unexpected"})
    EXPECT_GT(reason_count(flooded, offence), 0u) << offence;
  ASSERT_EQ(flooded.honest_snapshot_hz.size(), alone.honest_snapshot_hz.size());
  for (std::size_t i = 0; i < flooded.honest_snapshot_hz.size(); ++i) {
    EXPECT_GE(flooded.honest_snapshot_hz[i], 59.0) << "honest client " << i << " (seed=" << seed << ")";
    const uint64_t before = alone.honest_corrections[i];
    const uint64_t after = flooded.honest_corrections[i];
    EXPECT_LE(after, before + std::max<uint64_t>(5, before / 10)) << "honest client " << i << " corrected more under the flood";
  }
}

// Honest bots on the hard links (a host whose sleeps overshoot, a bad mobile link) stall and burst:
// their inputs arrive in clumps, and still none of it is an offence.
TEST(Flood, HonestBotsOnHardLinksOffendNothing) {
  const uint64_t seed = test_seed(1907);
  for (const char* profile : {"burst-host", "mobile-bad"}) {
    const FloodFigures alone = run_flood(seed, 4, Duration::seconds(10), false, profile);
    print_flood(profile, alone);
    for (const ReasonCount& r : alone.reasons)
      EXPECT_NE(r.name.rfind("offence.", 0), 0u) << profile << ": " << r.name << " " << r.count << " (seed=" << seed << ")";
  }
}

}  // namespace
}  // namespace tickwire
