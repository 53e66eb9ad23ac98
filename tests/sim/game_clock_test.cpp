// The client's clock through the whole game: real room, real clients, the named link profiles.
// Transatlantic: every client's server queue depth settles at its target within 5 s of its
// welcome; after that starved ticks stay under 0.5%, nothing holds, and the rate stays in +-2%.
// Every profile prints its quality report and keeps the rate range and the room's invariants.
#include <gtest/gtest.h>

#include "game_profiles.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

TEST(GameClock, TransatlanticSettlesWithinFiveSecondsAndStaysSteady) {
  const uint64_t seed = test_seed(0x7a11);
  const ProfileRun run = run_profile("transatlantic", seed, 8, Duration::seconds(20));
  ASSERT_EQ(run.welcomed, 8u);
  EXPECT_EQ(run.invariants.total(), 0u);
  for (std::size_t i = 0; i < run.clients.size(); ++i) {
    const QualityReport& r = run.clients[i];
    ASSERT_TRUE(r.settle_s.has_value()) << "client " << i << " never settled";
    EXPECT_LE(*r.settle_s, 5.0) << "client " << i;
    EXPECT_LT(static_cast<double>(r.starved_after_settle), 0.005 * static_cast<double>(r.readings_after_settle))
        << "client " << i;
    EXPECT_EQ(r.holds, 0u) << "client " << i;
    EXPECT_GE(r.min_rate, 0.98) << "client " << i;
    EXPECT_LE(r.max_rate, 1.02) << "client " << i;
  }
}

TEST(GameClock, BroadbandSettlesAndNeverHolds) {
  const uint64_t seed = test_seed(0xb20a);
  const ProfileRun run = run_profile("broadband", seed, 4, Duration::seconds(12));
  ASSERT_EQ(run.welcomed, 4u);
  EXPECT_EQ(run.invariants.total(), 0u);
  for (const QualityReport& r : run.clients) {
    ASSERT_TRUE(r.settle_s.has_value());
    EXPECT_LE(*r.settle_s, 5.0);
    EXPECT_EQ(r.holds, 0u);
    EXPECT_EQ(r.render_snaps, 0u);
    EXPECT_GE(r.min_rate, 0.98);
    EXPECT_LE(r.max_rate, 1.02);
  }
}

// mobile-bad (120 +- 60 ms, 5% loss, dups, reordering, 1 Mbit/s, a 250 ms stall every 5 s): no
// promise of a steady lead, but the regulator never leaves its rate range and the room its caps.
TEST(GameClock, MobileBadKeepsTheRateRangeAndTheRoomsCaps) {
  const uint64_t seed = test_seed(0x30b1);
  const ProfileRun run = run_profile("mobile-bad", seed, 4, Duration::seconds(12));
  ASSERT_EQ(run.welcomed, 4u);
  EXPECT_EQ(run.invariants.total(), 0u);
  for (const QualityReport& r : run.clients) {
    EXPECT_GE(r.min_rate, 0.98);
    EXPECT_LE(r.max_rate, 1.02);
    EXPECT_GT(r.acked_inputs, 0u);
  }
}

}  // namespace
}  // namespace tickwire
