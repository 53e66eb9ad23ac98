// `tickwire bench` as the README and docs/benchmarks.md show it, short: server-cost at its default
// client count (SCENARIOS.md's 256) decodes every body exactly, a count past what a room serves is
// refused by the command line rather than aborting in the bench, the bandwidth scenarios run and
// decode exactly, and the full-stack room bench runs as docs/benchmarks.md shows it and seats more
// clients than a byte of owner ids names.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_run.h"

namespace tickwire {
namespace {

using test::run_cli;

TEST(BenchCommand, ServerCostAtItsDefaultClientCountDecodesEveryBody) {
  const test::CliRun run = run_cli({"bench", "server-cost", "--ticks", "12", "--json"});
  ASSERT_TRUE(run.exited_with(0)) << run.output;
  const nlohmann::json report = nlohmann::json::parse(run.output, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << run.output;
  EXPECT_EQ(report["clients"], 256);
  EXPECT_EQ(report["entities"], 2000);
  EXPECT_TRUE(report["correct"].get<bool>());
  EXPECT_EQ(report["mismatches"], 0);
  EXPECT_GT(report["verified"].get<uint64_t>(), 0u);
}

TEST(BenchCommand, MoreClientsThanARoomServesIsRefusedByTheCommandLine) {
  const test::CliRun run = run_cli({"bench", "server-cost", "--clients", "1024", "--ticks", "12"});
  ASSERT_TRUE(WIFEXITED(run.status)) << "exits, does not abort";
  EXPECT_NE(WEXITSTATUS(run.status), 0);
}

TEST(BenchCommand, EveryBandwidthScenarioDecodesExactly) {
  const test::CliRun run = run_cli({"bench", "all", "--ticks", "30", "--json"});
  ASSERT_TRUE(run.exited_with(0)) << run.output;
  const nlohmann::json report = nlohmann::json::parse(run.output, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << run.output;
  EXPECT_TRUE(report["correct"].get<bool>());
  ASSERT_EQ(report["scenarios"].size(), 4u);
  for (const auto& s : report["scenarios"]) {
    EXPECT_EQ(s["client"]["mismatches"], 0) << s["scenario"];
    EXPECT_EQ(s["client"]["decode_errors"], 0) << s["scenario"];
  }
}

TEST(BenchCommand, TheRoomBenchRunsItsClientsOverBothTransports) {
  const test::CliRun run = run_cli({"bench", "room", "--clients", "4,8", "--ticks", "30", "--json"});
  ASSERT_TRUE(run.exited_with(0)) << run.output;
  const nlohmann::json report = nlohmann::json::parse(run.output, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << run.output;
  EXPECT_TRUE(report["correct"].get<bool>());
  ASSERT_EQ(report["runs"].size(), 4u);  // sim and udp, 4 and 8 clients
  for (const auto& r : report["runs"]) {
    EXPECT_EQ(r["joined"], r["clients"]) << r["transport"];
    EXPECT_GT(r["server_ms"]["mean"].get<double>(), 0.0) << r["transport"];
  }
  ASSERT_EQ(report["capacity"].size(), 2u);
  EXPECT_EQ(report["capacity"][0]["largest_held"], 8);
}

// Past a byte of owner ids: 300 clients in one room, each welcomed under its own id (the last ones
// 256..300), every one decoding its snapshots at the tick rate with nothing dropped.
TEST(BenchCommand, TheRoomBenchSeatsMoreClientsThanAByteOfOwnerIds) {
  const test::CliRun run =
      run_cli({"bench", "room", "--clients", "300", "--ticks", "30", "--transport", "sim", "--json"});
  ASSERT_TRUE(run.exited_with(0)) << run.output;
  const nlohmann::json report = nlohmann::json::parse(run.output, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << run.output;
  EXPECT_TRUE(report["correct"].get<bool>());
  ASSERT_EQ(report["runs"].size(), 1u);
  EXPECT_EQ(report["runs"][0]["joined"], 300);
  EXPECT_EQ(report["runs"][0]["client_drops"], 0);
}

TEST(BenchCommand, TheRoomBenchTakesALinkProfileAndRefusesAnUnknownOne) {
  const test::CliRun run = run_cli({"bench", "room", "--clients", "4", "--ticks", "30", "--transport", "sim",
                                    "--link", "broadband"});
  ASSERT_TRUE(run.exited_with(0)) << run.output;
  EXPECT_NE(run.output.find("largest N held"), std::string::npos) << run.output;
  const test::CliRun unknown = run_cli({"bench", "room", "--link", "carrier-pigeon"});
  ASSERT_TRUE(WIFEXITED(unknown.status));
  EXPECT_NE(WEXITSTATUS(unknown.status), 0);
}

TEST(BenchCommand, ServerCostTakesOneClientCount) {
  const test::CliRun run = run_cli({"bench", "server-cost", "--clients", "8,16", "--ticks", "12"});
  ASSERT_TRUE(WIFEXITED(run.status));
  EXPECT_EQ(WEXITSTATUS(run.status), 2);
}

}  // namespace
}  // namespace tickwire
