// `tickwire server --http` as the README shows it: a real process on loopback with a bot in its
// room, read the way a page reads it: the page itself, the map's layout, the room stream (a line
// with the bot's pawn and the map's doors, then a newer one), the snapshot inspector for the bot
// (its sections' bits and records, each record's own bits), the operator's routes beside them, and
// the dashboard's figures in the stats line. (A bad --http is refused by name: flag_errors_test.)
#include <gtest/gtest.h>

#include <unistd.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_lines.h"
#include "event_lines.h"
#include "http_probe.h"

namespace tickwire {
namespace {

using test::last_line;
using test::next_event;

TEST(ServerDashboard, APageSeesTheRoomItsClientsAndASnapshotTakenApart) {
  test::DashboardCli s("tickwire-dashboard-cli");
  test::ChildProcess server;
  ASSERT_TRUE(server.spawn(TICKWIRE_CLI_PATH, {"server", "--key", s.key().string(), "--port", s.port, "--http", s.http_port,
                                               "--stats-interval", "0.5"}));
  ASSERT_TRUE(server.wait_for_line("ready", 30000)) << server.output();
  const std::string at = last_line(server.output(), "ready").value("http", "");
  ASSERT_EQ(at, "127.0.0.1:" + s.http_port) << server.output();  // loopback unless told otherwise

  const test::HttpAnswer page = test::http_get(at, "/");
  ASSERT_EQ(page.status, 200);
  EXPECT_EQ(page.header("Content-Type"), "text/html; charset=utf-8");
  EXPECT_NE(page.body.find("<canvas id=\"room\""), std::string::npos);
  // The page names no external asset (no CDN, no font service): everything is in this one answer.
  EXPECT_EQ(page.body.find("src=\"http"), std::string::npos);
  EXPECT_EQ(page.body.find("href=\"http"), std::string::npos);
  const auto layout = nlohmann::json::parse(test::http_get(at, "/api/layout").body, nullptr, false);
  ASSERT_TRUE(layout.is_object());
  EXPECT_GT(layout["boxes"].size(), 0u);
  EXPECT_GT(layout["objects"].size(), 300u);  // the reference map's lights, doors, buttons, props
  EXPECT_GT(layout["interest_radius_m"].get<double>(), 0);
  EXPECT_EQ(test::http_get(at, "/healthz").status, 200);
  EXPECT_EQ(test::http_get(at, "/metrics").status, 200);

  test::ChildProcess bot;
  ASSERT_TRUE(bot.spawn(TICKWIRE_CLI_PATH, {"bot", "--server", "127.0.0.1:" + s.port, "--key", s.key().string(), "--count",
                                            "1", "--seconds", "60"}));
  test::TcpProbe events;
  ASSERT_TRUE(events.connect(at) && events.send("GET /events HTTP/1.0\r\n\r\n"));
  std::size_t from = 0;
  nlohmann::json room;
  for (int i = 0; i < 100; ++i) {  // until the bot's pawn is in a line
    room = next_event(events, from);
    ASSERT_TRUE(room.is_object()) << events.received().substr(0, 2000);
    if (!room["clients"].empty() && !room["entities"].empty()) break;
  }
  ASSERT_EQ(room["type"], "room");
  ASSERT_EQ(room["clients"].size(), 1u) << room.dump();
  const int owner = room["clients"][0]["owner"];
  bool pawn = false;
  for (const auto& e : room["entities"]) pawn = pawn || (e["owner"] == owner && e["kind"] == "playerPawn");
  EXPECT_TRUE(pawn) << room["entities"].dump();
  int doors = 0;
  for (const auto& o : room["objects"]) doors += o["sections"].contains("mover") ? 1 : 0;
  EXPECT_GE(doors, 4);
  const nlohmann::json later = next_event(events, from);
  ASSERT_TRUE(later.is_object());
  EXPECT_GT(later["tick"].get<int64_t>(), room["tick"].get<int64_t>());
  EXPECT_GT(later["server"]["tick_hz"].get<double>(), 0);

  // The inspector: the first answer may come before the record log was on; the next has records.
  nlohmann::json inspection;
  for (int i = 0; i < 20; ++i) {
    const test::HttpAnswer a = test::http_get(at, "/api/inspect?client=" + std::to_string(owner));
    ASSERT_EQ(a.status, 200) << a.body;
    inspection = nlohmann::json::parse(a.body, nullptr, false);
    if (!inspection["records"].empty()) break;
    usleep(100'000);
  }
  ASSERT_TRUE(inspection.is_object());
  EXPECT_EQ(inspection["owner"], owner);
  ASSERT_FALSE(inspection["records"].empty()) << inspection.dump();
  uint64_t record_bits = 0;
  for (const auto& r : inspection["records"]) {
    if (r["coding"] != "removed") record_bits += r["bits"].get<uint64_t>();
  }
  const auto& sections = inspection["sections"];
  EXPECT_EQ(record_bits, sections["entities"].get<uint64_t>() + sections["objects"].get<uint64_t>())
      << "each coded record's bits add up to its sections'";
  EXPECT_GT(inspection["message_bytes"].get<int>(), 0);
  EXPECT_EQ(test::http_get(at, "/api/inspect?client=0").status, 400);
  EXPECT_EQ(test::http_get(at, "/api/inspect?client=77").status, 404);  // nobody there

  events.close();
  ASSERT_TRUE(server.wait_for_line("server", 5000));
  server.request_stop();
  ASSERT_TRUE(server.wait_for_line("server_final", 20000)) << server.output();
  EXPECT_EQ(server.stop(), 0);
  const nlohmann::json final_line = last_line(server.output(), "server_final");
  EXPECT_GT(final_line["dashboard"]["lines"].get<uint64_t>(), 1u);
  bot.stop();
}

}  // namespace
}  // namespace tickwire
