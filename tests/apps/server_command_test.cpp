// `tickwire server` and `tickwire bot` as the README shows them, on loopback: a game's own protocol
// id and a 30 Hz world lane; bots with that id play, a bot with another id is refused, and the
// server's JSON stats lines say why by name (netcode.reject.request_wrong_protocol) on stdout,
// with its logs on stderr, and each player's departure by why (disconnect.client_disconnected).
// `use` bots (README: their final line counts the server's answers) press the map's buttons, and
// their taken uses are the server's (game.use.taken). `--pawn-body dynamic` demotes the bots'
// requested prediction: counted once, and they predict nothing.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_lines.h"
#include "cli_run.h"

namespace tickwire {
namespace {

using test::free_port;
using test::last_line;

// A fresh key file from `tickwire keygen` (the caller removes it).
std::filesystem::path make_key() {
  const std::filesystem::path key =
      std::filesystem::temp_directory_path() / ("tickwire-server-test-" + std::to_string(getpid()) + ".key");
  std::filesystem::remove(key);
  test::ChildProcess keygen;
  EXPECT_TRUE(keygen.spawn(TICKWIRE_CLI_PATH, {"keygen", "--out", key.string()}));
  for (int i = 0; i < 1000 && keygen.running(); ++i) usleep(10'000);
  EXPECT_EQ(keygen.stop(), 0);
  return key;
}

// `tickwire server` (its options after the key and a free port) and `tickwire bot` against it (its
// options after the server and the key), each run to its final line; their outputs.
struct ServerAndBots {
  bool ran = false;
  std::string server, bots;
};
ServerAndBots run_server_and_bots(const std::vector<std::string>& server_options, const std::vector<std::string>& bot_options) {
  ServerAndBots run;
  const std::filesystem::path key = make_key();
  const std::string port = std::to_string(free_port());
  std::vector<std::string> server_args{"server", "--key", key.string(), "--port", port};
  server_args.insert(server_args.end(), server_options.begin(), server_options.end());
  std::vector<std::string> bot_args{"bot", "--server", "127.0.0.1:" + port, "--key", key.string()};
  bot_args.insert(bot_args.end(), bot_options.begin(), bot_options.end());
  test::ChildProcess server, bots;
  run.ran = server.spawn(TICKWIRE_CLI_PATH, server_args) && server.wait_for_output("\"type\":\"ready\"", 20000) &&
            bots.spawn(TICKWIRE_CLI_PATH, bot_args) && bots.wait_for_line("bots_final", 30000) &&
            server.wait_for_line("server_final", 30000);
  bots.stop();
  server.stop();
  std::filesystem::remove(key);
  run.server = server.output();
  run.bots = bots.output();
  return run;
}

TEST(ServerCommand, AGamesProtocolIdAndWorldLaneAndRefusalsByName) {
  const std::filesystem::path key = make_key();
  const std::string port = std::to_string(free_port());

  test::ChildProcess server;
  ASSERT_TRUE(server.spawn(TICKWIRE_CLI_PATH, {"server", "--key", key.string(), "--port", port, "--protocol-id", "4242",
                                               "--snapshot-hz", "30", "--time-scale", "0.5", "--seconds", "6",
                                               "--stats-interval", "0.5"}));
  ASSERT_TRUE(server.wait_for_output("\"type\":\"ready\"", 20000)) << server.output();
  test::ChildProcess players, stranger;
  ASSERT_TRUE(players.spawn(TICKWIRE_CLI_PATH, {"bot", "--server", "127.0.0.1:" + port, "--count", "2", "--key",
                                                key.string(), "--protocol-id", "4242", "--seconds", "3"}));
  ASSERT_TRUE(stranger.spawn(TICKWIRE_CLI_PATH, {"bot", "--server", "127.0.0.1:" + port, "--count", "1", "--key",
                                                 key.string(), "--first-client-id", "9000", "--seconds", "3"}));
  ASSERT_TRUE(players.wait_for_line("bots_final", 30000)) << players.output();
  ASSERT_TRUE(stranger.wait_for_line("bots_final", 30000)) << stranger.output();
  ASSERT_TRUE(server.wait_for_line("server_final", 30000)) << server.output();
  players.stop();
  stranger.stop();
  server.stop();
  std::filesystem::remove(key);

  const nlohmann::json bots = last_line(players.output(), "bots_final");
  ASSERT_TRUE(bots.is_object()) << players.output();
  for (const auto& c : bots["clients"]) {
    EXPECT_TRUE(c["welcomed"].get<bool>());
    EXPECT_GT(c["snapshots"].get<uint64_t>(), 100u) << "a snapshot every tick: the pose lane runs at 60 Hz";
  }
  const nlohmann::json other = last_line(stranger.output(), "bots_final");
  ASSERT_TRUE(other.is_object()) << stranger.output();
  EXPECT_FALSE(other["clients"][0]["welcomed"].get<bool>()) << "another protocol id never gets in";

  const nlohmann::json final_line = last_line(server.output(), "server_final");
  ASSERT_TRUE(final_line.is_object()) << server.output();
  EXPECT_GE(final_line["reasons"].value("netcode.reject.request_wrong_protocol", 0), 1)
      << "the refusal is seen from outside, by name";
  EXPECT_EQ(final_line["reasons"].value("disconnect.client_disconnected", 0), 2)
      << "the two players' departures, counted by why: " << server.output();
  EXPECT_EQ(final_line["world"]["time_scale"].get<double>(), 0.5) << "the world settings the room runs under";
  EXPECT_EQ(final_line["world"]["forgiveness"].get<double>(), 1.0);
  // stdout holds only JSON lines: every line parses.
  std::istringstream lines(server.output());
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    EXPECT_FALSE(nlohmann::json::parse(line, nullptr, false).is_discarded()) << line;
  }
}

TEST(ServerCommand, UseBotsCountTheServersAnswersToTheirUses) {
  const ServerAndBots run = run_server_and_bots({"--seconds", "14"}, {"--count", "2", "--behaviour", "use", "--seconds", "10"});
  ASSERT_TRUE(run.ran) << run.server << run.bots;

  const nlohmann::json final_bots = last_line(run.bots, "bots_final");
  ASSERT_TRUE(final_bots.contains("uses")) << run.bots;
  const uint64_t taken = final_bots["uses"].value("taken", uint64_t{0});
  std::printf("[ use bots ] 2 bots, 10 s: %s\n", final_bots["uses"].dump().c_str());
  EXPECT_GE(taken, 1u) << "a bot reached its button and a press was taken";
  for (const auto& c : final_bots["clients"]) EXPECT_TRUE(c.contains("uses"));
  const nlohmann::json final_server = last_line(run.server, "server_final");
  EXPECT_GE(final_server["reasons"].value("game.use.taken", uint64_t{0}), taken)
      << "every use a bot heard taken, the server counted";
}

// `--behaviour fire` as the README shows it: each bot shoots at the nearest other pawn through the
// player's path and prints one line per shot's result (kind, body, impact, point, distance from its
// eye); the final line counts the shots and what they struck, and the server counted them too.
TEST(ServerCommand, FireBotsPrintEachShotsKindPointAndDistance) {
  const ServerAndBots run = run_server_and_bots({"--seconds", "10"}, {"--count", "2", "--behaviour", "fire", "--seconds", "6"});
  ASSERT_TRUE(run.ran) << run.server << run.bots;

  uint64_t lines = 0;
  std::istringstream out(run.bots);
  for (std::string line; std::getline(out, line);) {
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object() || j.value("type", "") != "hit") continue;
    ++lines;
    const std::string kind = j["kind"].get<std::string>();
    EXPECT_TRUE(kind == "surface" || kind == "water" || kind == "nothing") << line;
    EXPECT_EQ(j["point"].size(), 3u) << line;
    EXPECT_GT(j["distance_m"].get<double>(), 0.0) << line;
    if (kind == "surface") {
      EXPECT_FALSE(j["impact"].get<std::string>().empty()) << line;
    }
  }
  const nlohmann::json final_bots = last_line(run.bots, "bots_final");
  ASSERT_TRUE(final_bots.contains("fire")) << run.bots;
  const uint64_t shots = final_bots["fire"].value("shots", uint64_t{0});
  std::printf("[ fire bots ] 2 bots, 6 s: %s, %llu result lines\n", final_bots["fire"].dump().c_str(),
              static_cast<unsigned long long>(lines));
  EXPECT_GE(shots, 5u) << "three shots a second at the other bot";
  EXPECT_GE(lines, 1u);
  const nlohmann::json final_server = last_line(run.server, "server_final");
  EXPECT_GE(final_server.value("fires", uint64_t{0}), lines) << "every shot a bot heard answered, the server took";
  EXPECT_GE(final_server["reasons"].value("game.shot.traced", uint64_t{0}), lines);
}

// `--pawn-body dynamic` as the README shows it: the ready line names the admission (a physics owner,
// not predicted, the requested prediction demoted with its diagnostic), the server counts the
// demotion once for the room however many bots join, and the bots predict nothing yet play.
TEST(ServerCommand, ADynamicRigidbodyPawnIsDemotedOnceAndItsBotsPredictNothing) {
  const ServerAndBots run =
      run_server_and_bots({"--pawn-body", "dynamic", "--seconds", "5"}, {"--count", "3", "--behaviour", "walk", "--seconds", "2"});
  ASSERT_TRUE(run.ran) << run.server << run.bots;

  const nlohmann::json ready = last_line(run.server, "ready");
  ASSERT_TRUE(ready.contains("prediction")) << run.server;
  EXPECT_EQ(ready["prediction"]["pawn_body"], "dynamicRigidbody");
  EXPECT_EQ(ready["prediction"]["transform_owner"], "physics");
  EXPECT_FALSE(ready["prediction"]["own_pawn_predicted"].get<bool>());
  EXPECT_TRUE(ready["prediction"]["demoted"].get<bool>());
  EXPECT_NE(ready["prediction"]["diagnostic"].get<std::string>().find("rollback physics contract"), std::string::npos);
  const nlohmann::json final_line = last_line(run.server, "server_final");
  ASSERT_TRUE(final_line.is_object()) << run.server;
  EXPECT_EQ(final_line["reasons"].value("contract.prediction_demoted.dynamic_rigidbody", 0), 1)
      << "once for the room, not once per client";
  const nlohmann::json final_bots = last_line(run.bots, "bots_final");
  ASSERT_EQ(final_bots["clients"].size(), 3u) << run.bots;
  for (const auto& c : final_bots["clients"]) {
    EXPECT_TRUE(c["welcomed"].get<bool>());
    EXPECT_FALSE(c["own_pawn_predicted"].get<bool>());
    EXPECT_EQ(c["predicted_ticks"].get<uint64_t>(), 0u);
    EXPECT_GT(c["inputs_sent"].get<uint64_t>(), 30u) << "inputs still go up";
    EXPECT_FALSE(c.contains("corrections")) << "no predictor, nothing to correct";
  }
}

// Save states from the CLI (README: `--save-state FILE`, `--initial-state FILE`): a server played
// on by two bots writes its room when it stops; a second server starts from that file at the saved
// tick; a file that is not a save state, or none at all, is refused (exit 2, named on stderr).
TEST(ServerCommand, ASavedRoomStartsASecondServerAndABadFileIsRefusedByName) {
  const std::filesystem::path saved =
      std::filesystem::temp_directory_path() / ("tickwire-save-state-" + std::to_string(getpid()) + ".twss");
  std::filesystem::remove(saved);
  const ServerAndBots first =
      run_server_and_bots({"--seconds", "4", "--save-state", saved.string()}, {"--count", "2", "--seconds", "6"});
  ASSERT_TRUE(first.ran) << first.server << first.bots;
  const nlohmann::json wrote = last_line(first.server, "saved");
  ASSERT_TRUE(wrote.is_object()) << first.server;
  EXPECT_EQ(wrote["sessions"], 2) << "saved with its two players seated";
  ASSERT_TRUE(std::filesystem::exists(saved));
  EXPECT_EQ(std::filesystem::file_size(saved), wrote["bytes"].get<uint64_t>());
  EXPECT_FALSE(std::filesystem::exists(saved.string() + ".partial"));

  const std::filesystem::path key = make_key();
  const std::string port = std::to_string(free_port());
  test::ChildProcess second;
  ASSERT_TRUE(second.spawn(TICKWIRE_CLI_PATH, {"server", "--key", key.string(), "--port", port, "--seconds", "1",
                                               "--initial-state", saved.string()}));
  ASSERT_TRUE(second.wait_for_line("server_final", 20000)) << second.output();
  second.stop();
  const nlohmann::json ready = last_line(second.output(), "ready");
  ASSERT_TRUE(ready.contains("initial_state")) << second.output();
  EXPECT_EQ(ready["initial_state"]["tick"], wrote["tick"]) << "it runs on from the saved tick";
  EXPECT_EQ(ready["initial_state"]["held_pawns"], 0) << "no store, no resume tokens: the saved players' pawns leave";
  const nlohmann::json final_line = last_line(second.output(), "server_final");
  EXPECT_GT(final_line.value("ticks", int64_t{0}), 40) << "from the save at once, not after the saved run";

  std::filesystem::resize_file(saved, 7);  // no longer a save state
  const test::CliRun truncated = test::run_cli({"server", "--key", key.string(), "--port", port, "--initial-state", saved.string()});
  EXPECT_TRUE(truncated.exited_with(2));
  const test::CliRun missing = test::run_cli({"server", "--key", key.string(), "--port", port, "--initial-state", saved.string() + ".none"});
  EXPECT_TRUE(missing.exited_with(2));
  std::filesystem::remove(saved);
  std::filesystem::remove(key);
}

}  // namespace
}  // namespace tickwire
