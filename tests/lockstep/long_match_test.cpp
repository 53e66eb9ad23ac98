// Deterministic mode's long runs (issue 20), quick because simulated time is cheap (about 2 s of
// CPU for both): four arena peers on a transatlantic link with 5% loss for ten minutes (no desync,
// the rollback depth histogram and the resimulated frames per second printed), and every link
// profile for a minute on three seeds each.
#include <gtest/gtest.h>

#include "lockstep_match.h"
#include "support.h"

namespace tickwire::test {
namespace {

TEST(LockstepLongMatch, FourPeersTenMinutesTransatlanticFivePercentLoss) {
  const uint64_t seed = test_seed(75);
  LockstepMatch match(four_on_transatlantic(seed, Duration::seconds(600)));
  const MatchReport r = match.run();
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  r.print(seed, "ten minutes, four peers, transatlantic 5% loss");
  EXPECT_EQ(r.relay.desync_frame, lockstep::kNoFrame) << "seed=" << seed;
  EXPECT_EQ(r.checksum_disagreement, lockstep::kNoFrame) << "seed=" << seed;
  EXPECT_GT(r.relay.frames_compared, 35'000u);
  for (std::size_t i = 0; i < r.peers.size(); ++i) {
    EXPECT_TRUE(r.connected[i]);
    EXPECT_GT(r.peers[i].confirmed_frame, 35'000u);
  }
}

}  // namespace
}  // namespace tickwire::test

namespace tickwire::test {
namespace {

// Every link profile, several seeds, a minute each: no desync, every pair of peers agreeing on
// every frame both confirmed, no refusal on either end.
TEST(LockstepLongMatch, EveryLinkProfileAndSeveralSeedsNeverDesync) {
  for (const LinkProfile& profile : link_profiles()) {
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      MatchOptions o = four_on_transatlantic(test_seed(seed * 1000 + 76), Duration::seconds(60));
      o.link = profile.model;
      LockstepMatch match(o);
      const MatchReport r = match.run();
      ASSERT_FALSE(::testing::Test::HasFatalFailure()) << profile.name << " seed=" << o.seed;
      std::printf("%.*s seed=%llu: confirmed %u, rollbacks %llu, waits %llu, desync %s\n", static_cast<int>(profile.name.size()),
                  profile.name.data(), static_cast<unsigned long long>(o.seed), r.peers[0].confirmed_frame,
                  static_cast<unsigned long long>(r.peers[0].rollbacks), static_cast<unsigned long long>(r.peers[0].stalled_updates),
                  r.relay.desync_frame == lockstep::kNoFrame ? "none" : "FOUND");
      EXPECT_EQ(r.relay.desync_frame, lockstep::kNoFrame) << profile.name << " seed=" << o.seed;
      EXPECT_EQ(r.checksum_disagreement, lockstep::kNoFrame) << profile.name << " seed=" << o.seed;
      EXPECT_EQ(r.relay.refused.total(), 0u);
      for (const auto& p : r.peers) EXPECT_EQ(p.refused.total(), 0u);
    }
  }
}

}  // namespace
}  // namespace tickwire::test
