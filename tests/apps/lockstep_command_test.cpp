// `tickwire lockstep` (docs/deterministic-mode.md): three arena peers and a relay over loopback UDP
// through the link conditioner play for three seconds without a desync, print every peer's figures
// and the relay's, and record seat 0's match, which `tickwire replay` then replays with 0
// divergences: a recording made over real sockets reproduces.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "cli_run.h"

namespace tickwire {
namespace {

using test::run_cli;

TEST(LockstepCommand, APlayedMatchHasNoDesyncAndItsRecordingReplays) {
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("tickwire-lockstep-" + std::to_string(getpid()) + ".twreplay");
  const test::CliRun run = run_cli({"lockstep", "--peers", "3", "--seconds", "3", "--profile", "broadband", "--loss", "0.05",
                                    "--record", file.string()});
  ASSERT_TRUE(run.exited_with(0)) << run.output;
  for (const char* line : {"peer 0: frame ", "peer 2: frame ", "relay: frames compared ", "lagged=0", "desyncs: 0", "recorded "}) {
    EXPECT_NE(run.output.find(line), std::string::npos) << line << "\n" << run.output;
  }
  const test::CliRun replay = run_cli({"replay", file.string()});
  std::filesystem::remove(file);
  EXPECT_TRUE(replay.exited_with(0)) << replay.output;
  EXPECT_NE(replay.output.find("0 divergences"), std::string::npos) << replay.output;
}

TEST(LockstepCommand, AnUnknownProfileIsRefused) {
  const test::CliRun run = run_cli({"lockstep", "--profile", "moon", "--seconds", "1"});
  EXPECT_TRUE(run.exited_with(2)) << run.output;
}

}  // namespace
}  // namespace tickwire
