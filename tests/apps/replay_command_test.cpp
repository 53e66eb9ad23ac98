// `tickwire replay FILE [--thrust N]` (docs/deterministic-mode.md): the checked-in ten-second
// recording of a four-seat arena match replays with 0 divergences (exit 0); under a changed rule the
// first diverging frame is named (exit 1); a file that is not a recording is refused (exit 1, the
// reason on stderr; the reader's reasons are tested in tests/lockstep/replay_test.cpp).
#include <gtest/gtest.h>

#include <string>

#include "cli_run.h"

namespace tickwire {
namespace {

using test::run_cli;

std::string recording() {
  std::string path(TICKWIRE_SOURCE_DIR);
  path.append("/tests/fixtures/replay/arena_four_seats_10s.twreplay");
  return path;
}

TEST(ReplayCommand, ARecordingReplaysWithoutADivergence) {
  const test::CliRun run = run_cli({"replay", recording()});
  ASSERT_TRUE(run.exited_with(0)) << run.output;
  EXPECT_NE(run.output.find("game arena, 4 seats, 60 Hz"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("0 divergences"), std::string::npos) << run.output;
}

TEST(ReplayCommand, AChangedRuleIsReportedWithItsFirstDivergingFrame) {
  const test::CliRun run = run_cli({"replay", recording(), "--thrust", "13"});
  EXPECT_TRUE(run.exited_with(1)) << run.output;
  EXPECT_NE(run.output.find("first divergence at frame "), std::string::npos) << run.output;
}

TEST(ReplayCommand, AFileThatIsNotARecordingIsRefusedByName) {
  std::string path(TICKWIRE_SOURCE_DIR);
  path.append("/maps/reference.json");
  const test::CliRun run = run_cli({"replay", path});
  EXPECT_TRUE(run.exited_with(1)) << run.output;
  EXPECT_EQ(run.output.find("divergence"), std::string::npos) << "refused (on stderr) before any replay: " << run.output;
}

}  // namespace
}  // namespace tickwire
