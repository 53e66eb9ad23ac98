// Deterministic mode's long run (issue 20): four arena peers on a transatlantic link with 5% loss
// for ten minutes of simulated time: no desync, the rollback depth histogram and the resimulated
// frames per second printed. The one-minute run is in the quick suite.
#include <gtest/gtest.h>

#include "../lockstep_match.h"
#include "support.h"

namespace tickwire::test {
namespace {

TEST(LockstepSoak, FourPeersTenMinutesTransatlanticFivePercentLoss) {
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
