// `tickwire server --record FILE` and `tickwire replay FILE [--walk-speed M]` as the README shows them,
// real processes on loopback: a server recording a room that two walking bots play in, the recording
// replayed with 0 divergences (exit 0), the same recording under a changed rule (the mover's walk
// speed) told its first diverging tick (exit 1), and a cut copy refused by name before any replay
// (exit 1); a room ticking at 2 Hz, a walking bot in it, runs (each tick half a second of walking)
// and its recording replays too. The reader's reasons and the exact tick are tested in
// tests/world/room_recording_test.cpp.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_lines.h"
#include "cli_run.h"

namespace tickwire {
namespace {

using test::free_port;
using test::last_line;
using test::run_cli;

std::filesystem::path temp_path(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("tickwire-room-replay-" + std::to_string(getpid()) + "-" + name);
}

TEST(RoomReplayCommand, AServersRecordingReplaysAndAChangedRuleIsToldItsTick) {
  const std::filesystem::path key = temp_path("key"), recording = temp_path("room.twroom"), cut = temp_path("cut.twroom");
  ASSERT_TRUE(run_cli({"keygen", "--out", key.string()}).exited_with(0));
  const std::string port = std::to_string(free_port());
  test::ChildProcess server, bots;
  ASSERT_TRUE(server.spawn(TICKWIRE_CLI_PATH, {"server", "--key", key.string(), "--port", port, "--seconds", "5",
                                               "--record", recording.string()}));
  ASSERT_TRUE(server.wait_for_output("\"type\":\"ready\"", 20000)) << server.output();
  ASSERT_TRUE(bots.spawn(TICKWIRE_CLI_PATH, {"bot", "--server", "127.0.0.1:" + port, "--key", key.string(), "--count", "2",
                                             "--behaviour", "walk", "--seconds", "3"}));
  ASSERT_TRUE(bots.wait_for_line("bots_final", 30000)) << bots.output();
  ASSERT_TRUE(server.wait_for_line("server_final", 30000)) << server.output();
  bots.stop();
  server.stop();
  const nlohmann::json final_line = last_line(server.output(), "server_final");
  ASSERT_TRUE(final_line.contains("recording")) << server.output();
  const nlohmann::json& rec = final_line["recording"];
  EXPECT_FALSE(rec["full"].get<bool>());
  EXPECT_FALSE(rec["write_failed"].get<bool>());
  EXPECT_EQ(rec["bytes"].get<uint64_t>(), std::filesystem::file_size(recording)) << "the whole recording is on disk";
  EXPECT_GE(rec["ticks"].get<uint64_t>(), 240u);

  const test::CliRun same = run_cli({"replay", recording.string()});
  EXPECT_TRUE(same.exited_with(0)) << same.output;
  EXPECT_NE(same.output.find("room room-1 of tickwire-reference, 60 Hz"), std::string::npos) << same.output;
  EXPECT_NE(same.output.find("0 divergences"), std::string::npos) << same.output;

  const test::CliRun with_map = run_cli({"replay", recording.string(), "--map", std::string(TICKWIRE_SOURCE_DIR) + "/maps/reference.json"});
  EXPECT_TRUE(with_map.exited_with(0)) << "the built-in map's file has its hash: " << with_map.output;

  const test::CliRun changed = run_cli({"replay", recording.string(), "--walk-speed", "0.5"});
  EXPECT_TRUE(changed.exited_with(1)) << changed.output;
  EXPECT_NE(changed.output.find("first divergence at tick "), std::string::npos) << changed.output;
  EXPECT_NE(changed.output.find("witness, recorded checksum"), std::string::npos) << changed.output;
  const auto verdict = [](const std::string& output) {  // the line after the header
    const std::size_t from = output.find('\n') + 1;
    return output.substr(from, output.find('\n', from) - from);
  };
  std::printf("[ room replay ] %s bytes, %s ticks recorded; the same build: %s; walk speed 0.5: %s\n",
              rec["bytes"].dump().c_str(), rec["ticks"].dump().c_str(), verdict(same.output).c_str(),
              verdict(changed.output).c_str());

  {
    std::ifstream in(recording, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(cut, std::ios::binary).write(bytes.data(), 1000);
  }
  const test::CliRun refused = run_cli({"replay", cut.string()});
  EXPECT_TRUE(refused.exited_with(1)) << refused.output;
  EXPECT_EQ(refused.output.find("divergence"), std::string::npos) << "refused (on stderr) before any replay: " << refused.output;
  for (const auto& path : {key, recording, cut}) std::filesystem::remove(path);
}

// A 2 Hz room steps half a second of world time a tick: more substeps than the mover once allowed, so
// a server like this stopped at the mover's assertion as soon as a bot walked in. It plays, the bot
// predicts its pawn at the same long step, and the recording replays with 0 divergences.
TEST(RoomReplayCommand, ATwoHertzRoomWithAWalkingBotRunsAndReplays) {
  const std::filesystem::path key = temp_path("slow-key"), recording = temp_path("slow.twroom");
  ASSERT_TRUE(run_cli({"keygen", "--out", key.string()}).exited_with(0));
  const std::string port = std::to_string(free_port());
  test::ChildProcess server, bots;
  ASSERT_TRUE(server.spawn(TICKWIRE_CLI_PATH, {"server", "--key", key.string(), "--port", port, "--tick-hz", "2",
                                               "--seconds", "6", "--record", recording.string()}));
  ASSERT_TRUE(server.wait_for_output("\"type\":\"ready\"", 20000)) << server.output();
  ASSERT_TRUE(bots.spawn(TICKWIRE_CLI_PATH, {"bot", "--server", "127.0.0.1:" + port, "--key", key.string(), "--count", "1",
                                             "--behaviour", "walk", "--seconds", "4"}));
  ASSERT_TRUE(bots.wait_for_line("bots_final", 30000)) << bots.output();
  ASSERT_TRUE(server.wait_for_line("server_final", 30000)) << server.output();
  EXPECT_TRUE(WIFEXITED(bots.stop()));
  const int server_status = server.stop();
  EXPECT_TRUE(WIFEXITED(server_status) && WEXITSTATUS(server_status) == 0) << "the server ran to its end: " << server.output();
  const nlohmann::json bots_final = last_line(bots.output(), "bots_final");
  ASSERT_EQ(bots_final["clients"].size(), 1u) << bots.output();
  EXPECT_TRUE(bots_final["clients"][0]["welcomed"].get<bool>()) << bots.output();
  EXPECT_GE(bots_final["clients"][0]["predicted_ticks"].get<uint64_t>(), 4u) << "the bot stepped its pawn at the room's rate";
  const test::CliRun replay = run_cli({"replay", recording.string()});
  EXPECT_TRUE(replay.exited_with(0)) << replay.output;
  EXPECT_NE(replay.output.find(", 2 Hz, "), std::string::npos) << replay.output;
  EXPECT_NE(replay.output.find("0 divergences"), std::string::npos) << replay.output;
  for (const auto& path : {key, recording}) std::filesystem::remove(path);
}

}  // namespace
}  // namespace tickwire
