// Deterministic mode, whole system on SimNetwork (seeds printed; TICKWIRE_TEST_SEED reruns one):
// four arena peers on a transatlantic link with 5% loss play without a desync; a divergence planted
// on one peer is reported by the relay with its frame, within a bound; a peer whose process stalls
// past the lag limit meets the contract's policy (disconnect: the others go on without it; stall:
// the others wait at the window, the frame clock standing still, and resume with it at the logic
// rate). The ten-minute run is in soak/.
#include <gtest/gtest.h>

#include "lockstep_match.h"
#include "support.h"

namespace tickwire::test {
namespace {

using lockstep::kNoFrame;

TEST(LockstepMatch, FourPeersOnALossyTransatlanticLinkNeverDesync) {
  const uint64_t seed = test_seed(71);
  LockstepMatch match(four_on_transatlantic(seed, Duration::seconds(60)));
  const MatchReport r = match.run();
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  r.print(seed, "four peers, transatlantic 5% loss");
  EXPECT_EQ(r.relay.desync_frame, kNoFrame) << "seed=" << seed;
  EXPECT_EQ(r.checksum_disagreement, kNoFrame) << "seed=" << seed;
  EXPECT_GT(r.relay.frames_compared, 3000u) << "the relay compared the peers' checksums";
  for (std::size_t i = 0; i < r.peers.size(); ++i) {
    EXPECT_TRUE(r.connected[i]);
    EXPECT_GT(r.peers[i].confirmed_frame, 3400u) << "peer " << i << " kept up with the clock (60 s at 60 Hz)";
    EXPECT_GT(r.peers[i].rollbacks, 0u) << "on a 100 ms link remote inputs are guessed and corrected";
    EXPECT_EQ(r.peers[i].refused.total(), 0u);
  }
  EXPECT_EQ(r.relay.refused.total(), 0u);
}

TEST(LockstepMatch, APlantedDivergenceIsReportedWithItsFrame) {
  const uint64_t seed = test_seed(72);
  MatchOptions o = four_on_transatlantic(seed, Duration::seconds(20));
  o.diverge_seat = 2;
  o.diverge_frame = 600;
  LockstepMatch match(o);
  const MatchReport r = match.run();
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  r.print(seed, "divergence planted on peer 2 at frame 600");
  ASSERT_NE(r.relay.desync_frame, kNoFrame) << "seed=" << seed;
  EXPECT_EQ(r.relay.desync_frame, 600u) << "checksums every frame: the first diverging frame exactly";
  const uint32_t lag = r.relay.desync_found_frame - r.relay.desync_frame;
  std::printf("found %u frames (%.0f ms) after it happened\n", lag, lag * 1000.0 / 60);
  // Bound: the window (8) plus the round trip to the slowest peer (~7 frames) plus jitter and loss.
  EXPECT_LE(lag, 30u) << "seed=" << seed;
  for (const auto& p : r.peers) EXPECT_EQ(p.desync_frame, 600u) << "every peer hears of it";
}

TEST(LockstepMatch, ALaggingPeerIsDisconnectedUnderTheDisconnectPolicy) {
  const uint64_t seed = test_seed(73);
  MatchOptions o = four_on_transatlantic(seed, Duration::seconds(20));
  o.settings.policy.lag_policy = LagPolicy::disconnect;
  o.settings.policy.lag_limit_ms = 500;
  o.pause_seat = 1;
  o.pause_at = Duration::seconds(8);
  o.pause_for = Duration::seconds(3);
  LockstepMatch match(o);
  const MatchReport r = match.run();
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  r.print(seed, "peer 1 stalls 3 s, lag policy disconnect (limit 500 ms)");
  EXPECT_EQ(r.relay.drops[lockstep::SeatDrop::lagged], 1u);
  EXPECT_FALSE(r.connected[1]) << "the laggard's connection was closed";
  EXPECT_EQ(r.relay.desync_frame, kNoFrame);
  EXPECT_EQ(r.checksum_disagreement, kNoFrame);
  for (uint32_t i : {0u, 2u, 3u}) {
    EXPECT_TRUE(r.connected[i]);
    EXPECT_GT(r.peers[i].confirmed_frame, 1100u) << "peer " << i << " went on without it";
  }
}

TEST(LockstepMatch, UnderTheStallPolicyTheOthersWaitAndResumeTogether) {
  const uint64_t seed = test_seed(74);
  MatchOptions o = four_on_transatlantic(seed, Duration::seconds(20));
  o.settings.policy.lag_policy = LagPolicy::stall;
  o.pause_seat = 1;
  o.pause_at = Duration::seconds(8);
  o.pause_for = Duration::seconds(2);
  LockstepMatch match(o);
  const MatchReport r = match.run();
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  r.print(seed, "peer 1 stalls 2 s, lag policy stall");
  EXPECT_EQ(r.relay.drops.total(), 0u);
  EXPECT_GT(r.relay.held_at_window_ms, 1000u) << "the others waited for it at the window";
  EXPECT_EQ(r.relay.desync_frame, kNoFrame);
  for (std::size_t i = 0; i < r.peers.size(); ++i) {
    EXPECT_TRUE(r.connected[i]);
    if (i != 1) {
      EXPECT_GT(r.peers[i].stalled_updates, 0u) << "peer " << i << " waited at the window";
    }
    // The frame clock stood still while they waited: 20 s less the 2 s stall (and the start).
    EXPECT_GT(r.peers[i].confirmed_frame, 1040u) << "peer " << i << " resumed at the logic rate";
    EXPECT_LT(r.peers[i].catch_up_frames, 60u) << "peer " << i << ": no race to a clock that ran on without them";
  }
}

}  // namespace
}  // namespace tickwire::test
