// `tickwire bench server-cost` as docs/benchmarks.md shows it, short: the default client count (a
// room's most, 255) runs and decodes every body exactly, and a count past what a room serves is
// refused by the command line rather than aborting in the bench.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "child_process.h"

namespace tickwire {
namespace {

// Runs the CLI to its exit; returns its wait status and fills `output` with its stdout.
int run_cli(const std::vector<std::string>& args, std::string& output) {
  test::ChildProcess cli;
  EXPECT_TRUE(cli.spawn(TICKWIRE_CLI_PATH, args));
  (void)cli.wait_for_output("\n}", 120000);  // the JSON's last line, or the child exited
  (void)cli.wait_for_output("never printed", 2000);  // the rest of its output, until it exits
  const int status = cli.stop();
  output = cli.output();
  return status;
}

TEST(BenchCommand, ServerCostAtItsDefaultClientCountDecodesEveryBody) {
  std::string output;
  const int status = run_cli({"bench", "server-cost", "--ticks", "12", "--json"}, output);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << output;
  const nlohmann::json report = nlohmann::json::parse(output, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << output;
  EXPECT_EQ(report["clients"], 255);
  EXPECT_EQ(report["entities"], 2000);
  EXPECT_TRUE(report["correct"].get<bool>());
  EXPECT_EQ(report["mismatches"], 0);
  EXPECT_GT(report["verified"].get<uint64_t>(), 0u);
}

TEST(BenchCommand, MoreClientsThanARoomServesIsRefusedByTheCommandLine) {
  std::string output;
  const int status = run_cli({"bench", "server-cost", "--clients", "256", "--ticks", "12"}, output);
  ASSERT_TRUE(WIFEXITED(status)) << "exits, does not abort";
  EXPECT_NE(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace tickwire
