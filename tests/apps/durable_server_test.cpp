// `tickwire server --store` and `tickwire bot --resume-dir` as the README shows them, real processes
// on loopback, SQLite in a temporary directory: a bot process killed with SIGKILL is started again
// and its players are back in the same pawns within 2 s; then the server itself is killed with
// SIGKILL, a new server process takes the room once the dead one's lease runs out, recovers it,
// and the players (their bot process started again) are back in their pawns there. The server's
// stats lines say how its keeper stands; a SIGTERM drains it (checkpoint, lease given up).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_lines.h"

namespace tickwire {
namespace {

using Clock = std::chrono::steady_clock;

using test::free_port;
using test::lines_of;

// Each bot's newest ticket line: bot index -> the line.
std::map<int, nlohmann::json> tickets(test::ChildProcess& bots) {
  (void)bots.read_lines();
  std::map<int, nlohmann::json> newest;
  for (const nlohmann::json& t : lines_of(bots.output(), "ticket")) newest[t["bot"].get<int>()] = t;
  return newest;
}

// Waits until every one of `count` bots holds a ticket with `outcome`; the time it took, or a
// negative number when `timeout_s` passed first.
double until_tickets(test::ChildProcess& bots, int count, const std::string& outcome, double timeout_s) {
  const auto began = Clock::now();
  while (std::chrono::duration<double>(Clock::now() - began).count() < timeout_s) {
    const auto newest = tickets(bots);
    int matching = 0;
    for (const auto& [bot, line] : newest) matching += line.value("outcome", "") == outcome ? 1 : 0;
    if (matching == count) return std::chrono::duration<double>(Clock::now() - began).count();
    usleep(5'000);
  }
  return -1;
}

struct DurableCli : test::KeyedTempDir {
  DurableCli() : KeyedTempDir("tickwire-durable-cli") {}
  std::vector<std::string> server_args() const {
    return {"server", "--key", key().string(), "--port", port, "--store", "sqlite:" + (dir / "store").string(),
            "--room", "arena", "--lease-term", "2", "--checkpoint-every", "120", "--pawn-hold", "30",
            "--stats-interval", "0.5"};
  }
  std::vector<std::string> bot_args(const std::string& first_client_id) const {
    return {"bot", "--server", "127.0.0.1:" + port, "--key", key().string(), "--count", "2", "--seconds", "60",
            "--first-client-id", first_client_id, "--resume-dir", (dir / "tokens").string()};
  }
  std::string port = std::to_string(free_port());
};

TEST(DurableServerCommand, KilledBotsResumeTheirPawnsAndAKilledServersRoomIsTakenOverAndResumed) {
  DurableCli s;
  test::ChildProcess server;
  ASSERT_TRUE(server.spawn(TICKWIRE_CLI_PATH, s.server_args()));
  ASSERT_TRUE(server.wait_for_output("\"type\":\"ready\"", 20000)) << server.output();
  test::ChildProcess bots;
  ASSERT_TRUE(bots.spawn(TICKWIRE_CLI_PATH, s.bot_args("1000")));
  ASSERT_GE(until_tickets(bots, 2, "fresh", 15), 0) << bots.output();
  std::map<int, uint64_t> pawns;
  for (const auto& [bot, line] : tickets(bots)) pawns[bot] = line["pawn"].get<uint64_t>();
  usleep(1'000'000);

  // The bot process dies; a new one presents the tokens the old one kept.
  bots.kill_now();
  test::ChildProcess again;
  ASSERT_TRUE(again.spawn(TICKWIRE_CLI_PATH, s.bot_args("2000")));
  const double back_s = until_tickets(again, 2, "resumed", 10);
  ASSERT_GE(back_s, 0) << again.output() << server.output();
  // From the new process's start (its own clock: what the player waits once its game is up) to
  // back in the pawn; the wall time from the kill adds the process's own start (the map loaded,
  // its prediction world built), printed beside it.
  double connect_s = 0;
  for (const auto& [bot, line] : tickets(again)) {
    EXPECT_EQ(line["pawn"].get<uint64_t>(), pawns[bot]) << "bot " << bot;
    connect_s = std::max(connect_s, line["t"].get<double>());
  }
  EXPECT_LE(connect_s, 2.0) << "back in their pawns within 2 s";
  std::printf("[ resume ] bot process killed: its players back in their pawns %.0f ms after the new process started, "
              "%.0f ms after the kill\n", connect_s * 1000, back_s * 1000);
  usleep(1'500'000);  // a checkpoint or two and their journal
  (void)server.read_lines();
  const auto running = lines_of(server.output(), "server");
  ASSERT_FALSE(running.empty());
  const nlohmann::json& durable = running.back()["durable"];
  EXPECT_EQ(durable["epoch"], "kernel.v1");
  EXPECT_TRUE(durable["authority"].get<bool>());
  EXPECT_TRUE(durable["stopped"].is_null());
  EXPECT_GE(running.back()["resumes"].get<uint64_t>(), 2u);

  // The server dies; the bots are killed too (their links are dead) and started again once a new
  // server is up: it waits out the dead one's lease, recovers the room, and takes them back.
  const auto killed_at = Clock::now();
  server.kill_now();
  again.kill_now();
  test::ChildProcess heir;
  ASSERT_TRUE(heir.spawn(TICKWIRE_CLI_PATH, s.server_args()));
  ASSERT_TRUE(heir.wait_for_output("\"type\":\"ready\"", 20000)) << heir.output();
  test::ChildProcess third;
  ASSERT_TRUE(third.spawn(TICKWIRE_CLI_PATH, s.bot_args("3000")));
  ASSERT_GE(until_tickets(third, 2, "resumed", 15), 0) << third.output() << heir.output();
  const double takeover_s = std::chrono::duration<double>(Clock::now() - killed_at).count();
  for (const auto& [bot, line] : tickets(third)) EXPECT_EQ(line["pawn"].get<uint64_t>(), pawns[bot]) << "bot " << bot;
  const auto ready = lines_of(heir.output(), "ready");
  ASSERT_EQ(ready.size(), 1u);
  EXPECT_GT(ready[0]["recovered"]["facts_replayed"].get<uint64_t>() + (ready[0]["recovered"]["checkpoint_tick"].is_null() ? 0 : 1), 0u);
  std::printf("[ resume ] server killed: a new process took the room (2 s lease) and the players were back %.1f s after the kill\n",
              takeover_s);

  // SIGTERM drains: the final line is written and the keeper gave its lease up cleanly.
  third.kill_now();
  heir.request_stop();
  ASSERT_TRUE(heir.wait_for_line("server_final", 20000)) << heir.output();
  EXPECT_EQ(heir.stop(), 0);
  const auto final_line = lines_of(heir.output(), "server_final");
  ASSERT_EQ(final_line.size(), 1u);
  EXPECT_EQ(final_line[0]["durable"]["stopped"], "released");
}

}  // namespace
}  // namespace tickwire
