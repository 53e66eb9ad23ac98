// Replays (issue 20): a recorded five-minute match replays with no divergence; the same recording
// under a changed rule reports the first frame the rule changes; a recording that does not read is
// refused by name. Also writes the recording `tickwire replay` is tested on and the reader's fuzz
// seed (TICKWIRE_FUZZ_SEEDS=write regenerates both).
#include <gtest/gtest.h>

#include <cstdio>

#include "fuzz_seed_check.h"
#include "lockstep_match.h"
#include "support.h"
#include "tickwire/lockstep/replay.h"

namespace tickwire::test {
namespace {

using lockstep::kNoFrame;

MatchReport recorded_match(uint64_t seed, Duration length) {
  MatchOptions o = four_on_transatlantic(seed, length);
  o.record = true;
  LockstepMatch match(o);
  return match.run();
}

TEST(LockstepReplay, AFiveMinuteMatchReplaysWithoutADivergenceAndAChangedRuleIsFound) {
  const uint64_t seed = test_seed(81);
  const MatchReport r = recorded_match(seed, Duration::seconds(300));
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  const Result<lockstep::Replay> read = lockstep::read_replay(r.replay);
  ASSERT_TRUE(read.ok()) << reason_name(read.error());
  const lockstep::Replay& replay = read.value();
  EXPECT_EQ(replay.game, "arena");
  EXPECT_EQ(replay.frames, r.peers[0].confirmed_frame) << "every confirmed frame, once, in order";
  EXPECT_GT(replay.frames, 17'900u);

  world::LockstepArena same(4, 0);
  const lockstep::ReplayVerdict ok = lockstep::replay_run(replay, same);
  ASSERT_TRUE(ok.loaded.ok());
  EXPECT_EQ(ok.first_divergence, kNoFrame) << "seed=" << seed;
  EXPECT_EQ(ok.frames_replayed, replay.frames);

  world::LockstepArena changed(4, 0, world::ArenaRules{13});
  const lockstep::ReplayVerdict diverged = lockstep::replay_run(replay, changed);
  ASSERT_NE(diverged.first_divergence, kNoFrame);
  std::printf("seed=%llu: %u frames (%.0f s, %zu bytes) replayed with 0 divergences; thrust 12 -> 13 diverges at frame %u\n",
              static_cast<unsigned long long>(seed), replay.frames, replay.frames / 60.0, r.replay.size(),
              diverged.first_divergence);
  // The first frame any ship thrusts is the first that can differ; the bots press a direction at once.
  EXPECT_LE(diverged.first_divergence, 40u);
}

TEST(LockstepReplay, ARecordingThatDoesNotReadIsRefusedByName) {
  const MatchReport r = recorded_match(5, Duration::seconds(2));
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  std::vector<uint8_t> cut(r.replay.begin(), r.replay.end() - 3);
  EXPECT_EQ(lockstep::read_replay(cut).error(), Error::truncated) << "cut mid-record";
  std::vector<uint8_t> magic = r.replay;
  magic[0] = 'X';
  EXPECT_EQ(lockstep::read_replay(magic).error(), Error::value_out_of_range);
  std::vector<uint8_t> header(r.replay.begin(), r.replay.begin() + 12);
  EXPECT_EQ(lockstep::read_replay(header).error(), Error::truncated);
  std::vector<uint8_t> huge_state = r.replay;
  const std::size_t state_length_at = 8 + 2 + 1 + 5 + 4 + 1 + 1;  // magic, version, name "arena", hz, seats, input
  huge_state[state_length_at + 3] = 0x7f;
  EXPECT_EQ(lockstep::read_replay(huge_state).error(), Error::length_past_end);
}

TEST(LockstepReplay, TheRecordingsTheCliAndTheFuzzerStartFrom) {
  const MatchReport r = recorded_match(7, Duration::seconds(10));
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  // The CLI's recording is larger than a fuzz seed may be: held to the same rule by hand.
  const std::filesystem::path recording = fixtures_dir() / "replay" / "arena_four_seats_10s.twreplay";
  if (writing_fuzz_seeds()) write_file_bytes(recording, r.replay);
  EXPECT_EQ(read_file_bytes(recording), r.replay) << "TICKWIRE_FUZZ_SEEDS=write regenerates " << recording;
  const MatchReport small = recorded_match(8, Duration::seconds(1));
  check_fuzz_seed(fixtures_dir() / "fuzz" / "fuzz_replay_reader", "arena_one_second.twreplay", small.replay);
}

}  // namespace
}  // namespace tickwire::test
