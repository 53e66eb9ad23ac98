// The bots' line a page draws: each client's drawn pawn against the server's answer (and the
// distance between them), its remotes as drawn against the same entities in the newest snapshot,
// named by the vocabulary and nearest first, capped; its clock and cumulative counters; a client
// with no answer yet and a non-finite number written as null, so the line always parses.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include <nlohmann/json.hpp>

#include "tickwire/dashboard/client_view.h"

namespace tickwire::dashboard {
namespace {

GameVocabulary vocabulary() {
  GameVocabulary v;
  v.kind(1, "playerPawn");
  return v;
}

DrawnEntity entity(uint32_t id, float x, float z) {
  DrawnEntity e;
  e.entity_id = id;
  e.kind = 1;
  e.position_m = {x, 1.0f, z};
  return e;
}

ClientLook playing(uint64_t id, uint8_t owner) {
  ClientLook c;
  c.id = id;
  c.owner = owner;
  c.phase = ClientPhase::playing;
  c.predicted = true;
  c.own_m = {3.0f, 1.0f, 4.0f};
  OwnPawnAnswer a;
  a.tick = 120;
  a.position_m = {3.0f, 1.0f, 3.5f};
  a.correction_m = 0.0125f;
  a.easing_m = 0.004f;
  c.answer = a;
  c.remotes = {entity(7, 10, 10), entity(8, 4, 4)};
  c.newest_tick = 121;
  c.newest = {entity(8, 4.25f, 4), entity(7, 10.5f, 10), entity(9, 50, 50)};
  c.rtt_ms = 42.5;
  c.clock_rate = 1.0125;
  c.clock_margin_ticks = 1.5;
  c.clock_holds = 2;
  c.held_frames = 3;
  c.render_snaps = 1;
  c.prediction_snaps = 4;
  c.corrections = 5;
  c.snapshots = 600;
  return c;
}

TEST(ClientView, ALineHoldsEachClientsPawnAgainstTheServersAnswerAndItsRemotesAgainstTheNewestSnapshot) {
  ClientView view(vocabulary());
  const std::vector<ClientLook> looks = {playing(1000, 1)};
  const auto line = nlohmann::json::parse(view.render(2.5, looks));
  EXPECT_EQ(line["type"], "bots");
  EXPECT_DOUBLE_EQ(line["time_s"].get<double>(), 2.5);
  ASSERT_EQ(line["clients"].size(), 1u);
  const auto& c = line["clients"][0];
  EXPECT_EQ(c["id"], 1000);
  EXPECT_EQ(c["owner"], 1);
  EXPECT_EQ(c["phase"], "playing");
  EXPECT_EQ(c["predicted"], true);
  EXPECT_DOUBLE_EQ(c["own"]["z"].get<double>(), 4.0);
  EXPECT_EQ(c["answer"]["tick"], 120);
  EXPECT_DOUBLE_EQ(c["answer"]["z"].get<double>(), 3.5);
  EXPECT_NEAR(c["answer"]["correction_m"].get<double>(), 0.0125, 1e-4);
  EXPECT_NEAR(c["answer"]["easing_m"].get<double>(), 0.004, 1e-4);
  EXPECT_NEAR(c["ghost_m"].get<double>(), 0.5, 1e-4);  // from the drawn pawn to the answer
  EXPECT_NEAR(c["clock"]["rate"].get<double>(), 1.0125, 1e-5);
  EXPECT_DOUBLE_EQ(c["clock"]["margin_ticks"].get<double>(), 1.5);
  EXPECT_EQ(c["clock"]["holds"], 2);
  EXPECT_EQ(c["counters"]["held_frames"], 3);
  EXPECT_EQ(c["counters"]["render_snaps"], 1);
  EXPECT_EQ(c["counters"]["prediction_snaps"], 4);
  EXPECT_EQ(c["counters"]["corrections"], 5);
  EXPECT_EQ(c["counters"]["snapshots"], 600);
  EXPECT_DOUBLE_EQ(c["rtt_ms"].get<double>(), 42.5);
  // Nearest first, named by the vocabulary; the newest snapshot's copies of the same entities only.
  EXPECT_EQ(c["remote_count"], 2);
  ASSERT_EQ(c["remotes"].size(), 2u);
  EXPECT_EQ(c["remotes"][0]["id"], 8);
  EXPECT_EQ(c["remotes"][0]["kind"], "playerPawn");
  EXPECT_EQ(c["remotes"][0]["extrapolated"], false);
  EXPECT_EQ(c["remotes"][1]["id"], 7);
  EXPECT_EQ(c["newest_tick"], 121);
  ASSERT_EQ(c["newest"].size(), 2u) << c["newest"].dump();
  EXPECT_EQ(c["newest"][0]["id"], 8);
  EXPECT_DOUBLE_EQ(c["newest"][0]["x"].get<double>(), 4.25);
  EXPECT_EQ(c["newest"][1]["id"], 7);
}

TEST(ClientView, AClientBeforeItsFirstAnswerAndANonFiniteNumberStillParse) {
  ClientView view(vocabulary());
  ClientLook connecting;
  connecting.id = 1001;
  ClientLook odd = playing(1002, 2);
  odd.clock_rate = std::numeric_limits<double>::quiet_NaN();
  odd.own_m.x = std::numeric_limits<float>::infinity();
  const std::vector<ClientLook> looks = {connecting, odd};
  const auto line = nlohmann::json::parse(view.render(0, looks));
  ASSERT_EQ(line["clients"].size(), 2u);
  EXPECT_EQ(line["clients"][0]["phase"], "connecting");
  EXPECT_TRUE(line["clients"][0]["answer"].is_null());
  EXPECT_TRUE(line["clients"][0]["ghost_m"].is_null());
  EXPECT_TRUE(line["clients"][0]["newest_tick"].is_null());
  EXPECT_TRUE(line["clients"][0]["remotes"].empty());
  EXPECT_TRUE(line["clients"][1]["clock"]["rate"].is_null());
  EXPECT_TRUE(line["clients"][1]["own"]["x"].is_null());
  EXPECT_TRUE(line["clients"][1]["ghost_m"].is_null());
}

TEST(ClientView, EachClientListsItsNearestRemotesUpToTheCap) {
  ClientView view(vocabulary());
  ClientLook c = playing(1000, 1);
  c.remotes.clear();
  c.newest.clear();
  const std::size_t many = ClientView::kMaxRemotesPerClient + 40;
  for (std::size_t i = 0; i < many; ++i) {
    const float far = static_cast<float>(many - i);  // the last ones are the nearest
    c.remotes.push_back(entity(static_cast<uint32_t>(100 + i), c.own_m.x + far, c.own_m.z));
    c.newest.push_back(entity(static_cast<uint32_t>(100 + i), c.own_m.x + far, c.own_m.z));
  }
  const std::vector<ClientLook> looks = {c};
  const auto line = nlohmann::json::parse(view.render(1, looks));
  const auto& shown = line["clients"][0];
  EXPECT_EQ(shown["remote_count"], many);
  ASSERT_EQ(shown["remotes"].size(), ClientView::kMaxRemotesPerClient);
  EXPECT_EQ(shown["newest"].size(), ClientView::kMaxRemotesPerClient);
  EXPECT_EQ(shown["remotes"][0]["id"], 100 + many - 1);  // the nearest
  for (const auto& e : shown["remotes"]) EXPECT_GE(e["id"].get<std::size_t>(), 100 + many - ClientView::kMaxRemotesPerClient);
}

}  // namespace
}  // namespace tickwire::dashboard
