// `tickwire lockstep` (docs/deterministic-mode.md): three arena peers and a relay over loopback UDP
// through the link conditioner play for three seconds without a desync, print every peer's figures
// and the relay's, and record seat 0's match, which `tickwire replay` then replays with 0
// divergences: a recording made over real sockets reproduces. A recording path that is a FIFO is
// refused before the match (it would block the write when the match ended).
#include <gtest/gtest.h>

#include <sys/stat.h>
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

TEST(LockstepCommand, ARecordingPathThatIsAFifoIsRefusedBeforeTheMatch) {
  const std::filesystem::path fifo =
      std::filesystem::temp_directory_path() / ("tickwire-lockstep-fifo-" + std::to_string(getpid()));
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const test::CliRun run = run_cli({"lockstep", "--peers", "2", "--seconds", "30", "--record", fifo.string()}, 20000);
  std::filesystem::remove(fifo);
  EXPECT_TRUE(run.exited_with(2)) << "refused at once, not after a 30 s match: " << run.output;
  EXPECT_EQ(run.output.find("peer 0: frame "), std::string::npos) << run.output;
}

TEST(LockstepCommand, AnUnknownProfileIsRefused) {
  const test::CliRun run = run_cli({"lockstep", "--profile", "moon", "--seconds", "1"});
  EXPECT_TRUE(run.exited_with(2)) << run.output;
}

}  // namespace
}  // namespace tickwire
