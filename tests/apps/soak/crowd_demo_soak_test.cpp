// Issue 23 item 6 as docs/benchmarks.md shows it ("Full bots and the server on one small host"): the
// crowd map written by `tickwire map crowd`, then `tickwire demo` with 255 full bots on two threads
// against the server, through the conditioner, for 40 s. Every bot is seated, no reliable stream
// fails, no frame is refused, every bot takes snapshots at the room's rate; the starved ticks,
// held frames and tick cost are printed (they measure this machine: docs/benchmarks.md has them).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "child_process.h"
#include "../cli_run.h"

namespace tickwire {
namespace {

TEST(CrowdDemo, TwoHundredFiftyFiveFullBotsOnTwoThreadsShareOneRoom) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("tickwire-crowd-demo-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string map = (dir / "crowd.json").string(), json = (dir / "report.json").string();
  ASSERT_TRUE(test::run_cli({"map", "crowd", "--players", "255", "--spacing", "20", "--out", map}).exited_with(0));
  test::ChildProcess demo;
  ASSERT_TRUE(demo.spawn(TICKWIRE_CLI_PATH, {"demo", "--bots", "255", "--bot-threads", "2", "--map", map, "--seconds", "40",
                                             "--profile", "lan", "--json", json}));
  ASSERT_TRUE(demo.wait_for_output("contract hash", 180000)) << demo.output();
  demo.stop();
  std::printf("%s", demo.output().c_str());
  std::ifstream in(json);
  const nlohmann::json report = nlohmann::json::parse(in, nullptr, false);
  std::filesystem::remove_all(dir);
  ASSERT_FALSE(report.is_discarded());
  EXPECT_EQ(report["clients"]["connected"], 255);
  EXPECT_EQ(report["clients"]["reliable_failures"], 0);
  EXPECT_EQ(report["frames_refused"], 0);
  EXPECT_EQ(report["server"]["snapshot_drops"], 0);
  EXPECT_GT(report["snapshots"]["min_client_hz"].get<double>(), 50.0) << "every bot kept taking the room's snapshots";
  std::printf("[ crowd demo ] input queue %s; interpolation %s; server %s\n", report["input_queue"].dump().c_str(),
              report["interpolation"].dump().c_str(), report["server"].dump().c_str());
}

}  // namespace
}  // namespace tickwire
