// `tickwire shards`: rooms on worker-thread shards, each on its own socket, a bot playing in one;
// a burner on shard 0 engages its ladder (its rungs counted by name in the final line) while every
// room keeps its tick rate; a bad burner plan is refused by the command line.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "child_process.h"
#include "cli_run.h"

namespace tickwire {
namespace {

std::filesystem::path key_file() {
  const auto dir = std::filesystem::temp_directory_path() / "tickwire-shards-test";
  std::filesystem::create_directories(dir);
  const auto key = dir / "server.key";
  if (!std::filesystem::exists(key)) (void)test::run_cli({"keygen", "--out", key.string()});
  return key;
}

nlohmann::json line_of(const std::string& output, const std::string& type) {
  std::istringstream lines(output);
  std::string line;
  nlohmann::json found;
  while (std::getline(lines, line)) {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_discarded() && j.value("type", "") == type) found = j;
  }
  return found;
}

TEST(ShardsCommand, RoomsOnShardsServeABotAndABurnerEngagesItsShardsLadder) {
  const auto key = key_file();
  test::ChildProcess shards;
  ASSERT_TRUE(shards.spawn(TICKWIRE_CLI_PATH, {"shards", "--key", key.string(), "--shards", "2", "--rooms-per-shard", "2",
                                               "--first-port", "0", "--seconds", "8", "--stats-interval", "1", "--burn",
                                               "0:0,1:97"}));
  ASSERT_TRUE(shards.wait_for_output("\"type\":\"ready\"", 30000)) << shards.output();
  const nlohmann::json ready = line_of(shards.output(), "ready");
  ASSERT_EQ(ready["rooms"].size(), 4u);
  const std::string room_1 = ready["rooms"][0]["address"];
  const test::CliRun bot = test::run_cli({"bot", "--server", room_1, "--key", key.string(), "--seconds", "4"});
  EXPECT_TRUE(bot.exited_with(0)) << bot.output;
  EXPECT_NE(bot.output.find("\"welcomed\":true"), std::string::npos) << bot.output;
  ASSERT_TRUE(shards.wait_for_output("\"type\":\"shards_final\"", 30000)) << shards.output();
  EXPECT_EQ(WEXITSTATUS(shards.stop()), 0);
  const nlohmann::json final_line = line_of(shards.output(), "shards_final");
  ASSERT_EQ(final_line["shards"].size(), 2u);
  const nlohmann::json& burnt = final_line["shards"][0];
  EXPECT_GE(burnt["engaged"]["placement_closed"].get<int>(), 1) << final_line.dump();
  ASSERT_FALSE(burnt["changes"].empty());
  EXPECT_EQ(burnt["changes"][0]["from"], "calm");
  EXPECT_GE(final_line["roomMinHz"].get<double>(), 50.0) << final_line.dump();
  EXPECT_EQ(final_line["placementRefusals"]["placement_closed"], 0);
}

TEST(ShardsCommand, ABurnerPlanOutOfRangeIsRefused) {
  const test::CliRun run = test::run_cli({"shards", "--key", key_file().string(), "--burn", "0:0,2:150"});
  EXPECT_TRUE(run.exited_with(2));
}

}  // namespace
}  // namespace tickwire
