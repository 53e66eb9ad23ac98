// Host migration in deterministic mode (issue 20; seed 002, "Handshake Protocol"), four players on
// SimNetwork (transatlantic, 1% loss; seeds printed): a planned handover from the first host to
// the best-ranked candidate loses no frame on any peer (the longest gap between relays a peer saw
// is printed) and no peer diverges after it; a candidate killed as the offer reaches it is given up
// on, and the next candidate completes the handover; a host killed outright is replaced by the
// first successor it named, which rebuilds the authority from what it and the survivors hold.
#include <gtest/gtest.h>

#include <cstdio>

#include "migration_match.h"
#include "support.h"

namespace tickwire::test {
namespace {

using lockstep::kNoFrame;

MigrationOptions four_players(uint64_t seed) {
  MigrationOptions o;
  o.seed = seed;
  o.link = transatlantic_lossy(0.01);
  o.settings.policy.seats = 4;
  return o;
}

void print(const MigrationMatch::Report& r, uint64_t seed, const char* name) {
  std::printf("%s seed=%llu: attempts %u, new host %u, aborts candidate_left=%llu not_accepted=%llu not_moved=%llu\n", name,
              static_cast<unsigned long long>(seed), r.handover.attempts, r.new_host,
              static_cast<unsigned long long>(r.handover.aborts[lockstep::HandoverAbort::candidate_left]),
              static_cast<unsigned long long>(r.handover.aborts[lockstep::HandoverAbort::not_accepted]),
              static_cast<unsigned long long>(r.handover.aborts[lockstep::HandoverAbort::not_moved]));
  for (std::size_t i = 0; i < r.peers.size(); ++i) {
    std::printf("  player %zu%s: confirmed %u, moves %u, longest gap between relays %.0f ms, stalled updates %llu\n", i,
                r.alive[i] ? "" : " (killed)", r.peers[i].confirmed_frame, r.moves[i], r.longest_gap[i].milliseconds_f(),
                static_cast<unsigned long long>(r.peers[i].stalled_updates));
  }
  std::printf("  first host: held at the window %llu ms, seats left %llu\n",
              static_cast<unsigned long long>(r.first_host.held_at_window_ms),
              static_cast<unsigned long long>(r.first_host.drops[lockstep::SeatDrop::left]));
  std::printf("  new host compared %llu frames after the move; desync %s\n", static_cast<unsigned long long>(r.new_host_compared),
              r.desync_frame == kNoFrame ? "none" : std::to_string(r.desync_frame).c_str());
}

TEST(LockstepMigration, APlannedHandoverLosesNoFrameOnAnyPeer) {
  const uint64_t seed = test_seed(91);
  MigrationMatch match(four_players(seed));
  const MigrationMatch::Report r = match.run();
  print(r, seed, "planned handover at 8 s");
  ASSERT_NE(r.new_host, kNoFrame) << "seed=" << seed;
  EXPECT_EQ(r.handover.attempts, 1u);
  EXPECT_EQ(r.handover.aborts.total(), 0u);
  EXPECT_EQ(r.checksum_disagreement, kNoFrame);
  EXPECT_EQ(r.desync_frame, kNoFrame);
  EXPECT_GT(r.new_host_compared, 600u) << "the new host compares the peers' checksums after the move";
  for (std::size_t i = 0; i < r.peers.size(); ++i) {
    EXPECT_EQ(r.moves[i], 1u) << "player " << i;
    EXPECT_GT(r.peers[i].confirmed_frame, 1150u) << "player " << i << " kept playing through the move";
    EXPECT_LT(r.longest_gap[i].milliseconds_f(), 250.0) << "player " << i << ": no frame of the game lost";
  }
}

TEST(LockstepMigration, ACandidateKilledMidHandshakeIsGivenUpOnAndTheNextCompletes) {
  const uint64_t seed = test_seed(92);
  MigrationOptions o = four_players(seed);
  o.kill_first_candidate_on_offer = 1;
  MigrationMatch match(o);
  const MigrationMatch::Report r = match.run();
  print(r, seed, "first candidate killed as the offer reaches it");
  ASSERT_NE(r.new_host, kNoFrame) << "seed=" << seed;
  EXPECT_EQ(r.handover.attempts, 2u);
  EXPECT_EQ(r.handover.aborts.total(), 1u);
  EXPECT_EQ(r.checksum_disagreement, kNoFrame);
  EXPECT_EQ(r.desync_frame, kNoFrame);
  for (std::size_t i = 0; i < r.peers.size(); ++i) {
    if (!r.alive[i]) continue;
    EXPECT_EQ(r.moves[i], 1u) << "player " << i;
    EXPECT_GT(r.peers[i].confirmed_frame, 1100u) << "player " << i << " plays on without the dead candidate";
  }
}

TEST(LockstepMigration, WhenTheHostVanishesTheSurvivorsRebuildTheAuthorityAndPlayOnWithoutDiverging) {
  const uint64_t seed = test_seed(93);
  MigrationOptions o = four_players(seed);
  o.handover_at.reset();
  o.kill_host_at = Duration::seconds(8);
  MigrationMatch match(o);
  const MigrationMatch::Report r = match.run();
  print(r, seed, "host killed outright at 8 s");
  ASSERT_NE(r.taken_over_by, kNoFrame) << "seed=" << seed << ": a survivor rebuilt the authority";
  std::printf("  rebuilt by player %u; survivors recovered %.0f ms after the host died\n", r.taken_over_by,
              r.recovered_after.milliseconds_f());
  EXPECT_GT(r.recovered_after, Duration{});
  EXPECT_LT(r.recovered_after, Duration::seconds(3)) << "the netcode timeout (1 s), a connect and the recovery";
  EXPECT_EQ(r.checksum_disagreement, kNoFrame) << "seed=" << seed;
  EXPECT_EQ(r.desync_frame, kNoFrame);
  EXPECT_GT(r.new_host_compared, 300u) << "the rebuilt authority compares the survivors' checksums";
  for (std::size_t i = 1; i < r.peers.size(); ++i) {
    EXPECT_EQ(r.host_losses[i], 1u) << "player " << i;
    EXPECT_EQ(r.moves[i], 1u) << "player " << i;
    EXPECT_GT(r.peers[i].confirmed_frame, 1050u) << "player " << i << " plays on";
  }
}

}  // namespace
}  // namespace tickwire::test
