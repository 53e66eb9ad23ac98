// The main job end to end: `tickwire demo` with 4 bots for 5 s on loopback (a real server, a real
// link conditioner and a bot process, all over UDP) writes a report whose figures are present and
// sane: every bot connected, no reliable channel failed, snapshots arrived at the tick rate within
// 5%, the server ran 60 Hz, and nothing was left running.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "child_process.h"

namespace tickwire {
namespace {

TEST(Demo, AShortRunReportsSaneFigures) {
  const std::filesystem::path json_path =
      std::filesystem::temp_directory_path() / ("tickwire-demo-test-" + std::to_string(getpid()) + ".json");
  test::ChildProcess demo;
  ASSERT_TRUE(demo.spawn(TICKWIRE_CLI_PATH, {"demo", "--bots", "4", "--seconds", "5", "--profile", "lan", "--json",
                                             json_path.string()}));
  ASSERT_TRUE(demo.wait_for_output("contract hash", 60000)) << demo.output();
  demo.stop();
  std::printf("%s", demo.output().c_str());
  std::ifstream in(json_path);
  const nlohmann::json report = nlohmann::json::parse(in, nullptr, false);
  std::filesystem::remove(json_path);
  ASSERT_FALSE(report.is_discarded());

  EXPECT_EQ(report["clients"]["connected"], 4);
  EXPECT_EQ(report["clients"]["reliable_failures"], 0);
  EXPECT_EQ(report["frames_refused"], 0);
  // Every client got a snapshot per server tick (60 Hz) within 5%, counted from its welcome.
  EXPECT_GT(report["snapshots"]["min_client_hz"].get<double>(), 57.0);
  EXPECT_LT(report["snapshots"]["per_client_hz"]["max"].get<double>(), 63.0);
  EXPECT_NEAR(report["server"]["tick_hz"].get<double>(), 60.0, 3.0);
  EXPECT_EQ(report["server"]["declared_ticks"], 0);
  EXPECT_GT(report["bandwidth_kbps"]["down"]["mean"].get<double>(), 10.0);
  EXPECT_GT(report["bandwidth_kbps"]["up"]["mean"].get<double>(), 1.0);
  EXPECT_GT(report["snapshot_bytes"]["mean"].get<double>(), 50.0);
  EXPECT_EQ(report["contract_hash"].get<std::string>().size(), 32u);
  EXPECT_EQ(report["server"]["snapshot_drops"], 0);
}

}  // namespace
}  // namespace tickwire
