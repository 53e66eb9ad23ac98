// `tickwire bot --http` as the README shows it: a real server and a bot process of two on loopback,
// its page and its stream read the way a page reads them: an "http" line with the address, then a
// line per bot with its drawn pawn, the server's answer for it, the other bot as drawn and in the
// newest snapshot, its clock and its counters, newer lines following; the dashboard's figures in the
// final line. (A bad --http is refused by name: flag_errors_test.)
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "cli_lines.h"
#include "event_lines.h"
#include "http_probe.h"

namespace tickwire {
namespace {

using test::last_line;
using test::next_event;

// Every bot is playing and has heard the server answer for its pawn, and sees the other one.
bool settled(const nlohmann::json& line) {
  if (!line.is_object() || line["clients"].size() != 2) return false;
  for (const auto& c : line["clients"]) {
    if (c["phase"] != "playing" || c["answer"].is_null() || c["remotes"].empty() || c["newest"].empty()) return false;
  }
  return true;
}

TEST(BotDashboard, APageSeesEachBotsPredictionAgainstTheServersAnswerAndItsRemotesAgainstTheNewestSnapshot) {
  test::DashboardCli s("tickwire-bot-dashboard-cli");
  test::ChildProcess server;
  ASSERT_TRUE(server.spawn(TICKWIRE_CLI_PATH, {"server", "--key", s.key().string(), "--port", s.port}));
  ASSERT_TRUE(server.wait_for_line("ready", 30000)) << server.output();
  test::ChildProcess bot;
  ASSERT_TRUE(bot.spawn(TICKWIRE_CLI_PATH, {"bot", "--server", "127.0.0.1:" + s.port, "--key", s.key().string(), "--count",
                                            "2", "--http", s.http_port, "--seconds", "60"}));
  ASSERT_TRUE(bot.wait_for_line("\"type\":\"http\"", 20000)) << bot.output();
  const std::string at = last_line(bot.output(), "http").value("address", "");
  ASSERT_EQ(at, "127.0.0.1:" + s.http_port) << bot.output();  // loopback unless told otherwise

  const test::HttpAnswer page = test::http_get(at, "/");
  ASSERT_EQ(page.status, 200);
  EXPECT_EQ(page.header("Content-Type"), "text/html; charset=utf-8");
  EXPECT_NE(page.body.find("tickwireBotDashboard"), std::string::npos);
  EXPECT_EQ(page.body.find("src=\"http"), std::string::npos);  // no external asset
  EXPECT_EQ(page.body.find("href=\"http"), std::string::npos);
  const auto layout = nlohmann::json::parse(test::http_get(at, "/api/layout").body, nullptr, false);
  ASSERT_TRUE(layout.is_object());
  EXPECT_GT(layout["boxes"].size(), 0u);
  EXPECT_EQ(test::http_get(at, "/api/inspect?client=1").status, 404);  // no inspector on the bots' side

  test::TcpProbe events;
  ASSERT_TRUE(events.connect(at) && events.send("GET /events HTTP/1.0\r\n\r\n"));
  std::size_t from = 0;
  nlohmann::json line;
  for (int i = 0; i < 200 && !settled(line); ++i) {
    line = next_event(events, from);
    ASSERT_TRUE(line.is_object()) << events.received().substr(0, 2000);
  }
  ASSERT_TRUE(settled(line)) << line.dump();
  EXPECT_EQ(line["type"], "bots");
  for (const auto& c : line["clients"]) {
    EXPECT_GT(c["owner"].get<int>(), 0);
    EXPECT_TRUE(c["predicted"].get<bool>());  // the reference game's contract admits it
    EXPECT_TRUE(c["own"]["x"].is_number());
    EXPECT_TRUE(c["answer"]["x"].is_number());
    EXPECT_GT(c["answer"]["tick"].get<int64_t>(), 0);
    EXPECT_LT(c["ghost_m"].get<double>(), 5.0) << "the server's answer is near the drawn pawn: " << c.dump();
    EXPECT_GT(c["clock"]["rate"].get<double>(), 0.5);
    EXPECT_TRUE(c["clock"]["margin_ticks"].is_number());
    EXPECT_GT(c["counters"]["snapshots"].get<uint64_t>(), 0u);
    EXPECT_EQ(c["remotes"][0]["kind"], "playerPawn");  // the other bot, as drawn
    EXPECT_EQ(c["newest"][0]["id"], c["remotes"][0]["id"]);  // and in the newest snapshot
    EXPECT_GE(c["newest_tick"].get<int64_t>(), c["answer"]["tick"].get<int64_t>());
  }
  EXPECT_EQ(line["clients"][0]["id"], 1000);
  EXPECT_EQ(line["clients"][1]["id"], 1001);
  const nlohmann::json later = next_event(events, from);
  ASSERT_TRUE(later.is_object());
  EXPECT_GT(later["time_s"].get<double>(), line["time_s"].get<double>());
  EXPECT_GE(later["clients"][0]["counters"]["snapshots"].get<uint64_t>(), line["clients"][0]["counters"]["snapshots"].get<uint64_t>());

  events.close();
  bot.request_stop();
  ASSERT_TRUE(bot.wait_for_line("\"type\":\"bots_final\"", 20000)) << bot.output();
  EXPECT_EQ(bot.stop(), 0);
  const nlohmann::json final_line = last_line(bot.output(), "bots_final");
  EXPECT_GT(final_line["dashboard"]["lines"].get<uint64_t>(), 1u);
  server.stop();
}

}  // namespace
}  // namespace tickwire
