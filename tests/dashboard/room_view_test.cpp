// The room line a page draws: entities with their kind's name, owner (a pawn's: its client's)
// and a velocity from the previous line; objects with their moved transform and their sections named by the vocabulary;
// clients' net graph rates from two looks at their counters (a reconnect starts over, never a
// negative rate); a non-finite number written as null, so the line always parses.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "tickwire/dashboard/net_graph.h"
#include "tickwire/dashboard/room_view.h"
#include "tickwire/replication/handles/entity_handle.h"

namespace tickwire::dashboard {
namespace {

GameVocabulary vocabulary() {
  GameVocabulary v;
  v.kind(1, "playerPawn").component(2, "mover", 4).component(3, "light", 4);
  return v;
}

protocol::Record pawn(uint8_t owner, float x, float z) {
  protocol::EntityRecord e;
  e.kind = 1;
  e.position = {x, 1.0f, z};
  e.yaw_deg = 90;
  return {EntityNetHandle::make(owner, 1).raw(), e};
}

protocol::Record door(uint32_t index, float open) {
  protocol::ObjectRecord o;
  o.object_index = index;
  protocol::ComponentSection s;
  s.wire_id = 2;
  s.channel[0] = open;
  s.channel_count = 1;
  o.sections.push_back(s);
  protocol::ComponentSection unknown;
  unknown.wire_id = 9;
  unknown.bits = 1;
  o.sections.push_back(unknown);
  return {1000 + index, o};
}

TEST(RoomView, ALineNamesKindsAndSectionsAndTakesVelocityFromThePreviousLine) {
  RoomView view(vocabulary());
  TickRecords records;
  records.add(pawn(3, 10, 20));
  records.add(door(7, 0.25f));
  ServerStats stats;
  stats.clients = 1;
  stats.tick_rate_hz = 60;
  const auto first = nlohmann::json::parse(view.render(100, 1.0, records, stats, {}, {}), nullptr, false);
  ASSERT_TRUE(first.is_object());
  EXPECT_EQ(first["type"], "room");
  EXPECT_EQ(first["tick"], 100);
  ASSERT_EQ(first["entities"].size(), 1u);
  EXPECT_EQ(first["entities"][0]["kind"], "playerPawn");
  EXPECT_EQ(first["entities"][0]["owner"], 3);
  EXPECT_EQ(first["entities"][0]["vx"], 0.0);
  ASSERT_EQ(first["objects"].size(), 1u);
  EXPECT_EQ(first["objects"][0]["index"], 7);
  EXPECT_DOUBLE_EQ(first["objects"][0]["sections"]["mover"]["ch"][0].get<double>(), 0.25);
  EXPECT_EQ(first["objects"][0]["sections"]["component9"]["bits"], 1);  // not in the vocabulary: named by its id
  EXPECT_FALSE(first["objects"][0].contains("x"));  // no transform in the record: the page places it from the layout

  records.clear();
  records.add(pawn(3, 12, 19));
  const auto second = nlohmann::json::parse(view.render(106, 1.5, records, stats, {}, {}), nullptr, false);
  EXPECT_DOUBLE_EQ(second["entities"][0]["vx"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(second["entities"][0]["vz"].get<double>(), -2.0);
}

TEST(RoomView, APawnsOwnerIsTheClientWhosePawnItIs) {
  RoomView view(vocabulary());
  TickRecords records;
  records.add(pawn(0, 1, 1));  // the authority's record id, as a room spawns pawns
  NetSample client;
  client.owner = 6;
  client.pawn_record_id = records.records[0].entity_id;
  const auto line = nlohmann::json::parse(view.render(1, 0, records, {}, {client}, {}), nullptr, false);
  EXPECT_EQ(line["entities"][0]["owner"], 6);
  EXPECT_EQ(line["clients"][0]["owner"], 6);
}

TEST(RoomView, NonFiniteNumbersAreWrittenAsNull) {
  RoomView view(vocabulary());
  TickRecords records;
  records.add(pawn(1, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()));
  ServerStats stats;
  stats.tick_rate_hz = std::numeric_limits<double>::quiet_NaN();
  const auto line = nlohmann::json::parse(view.render(1, 0, records, stats, {}, {}), nullptr, false);
  ASSERT_TRUE(line.is_object());
  EXPECT_TRUE(line["entities"][0]["x"].is_null());
  EXPECT_TRUE(line["entities"][0]["z"].is_null());
  EXPECT_TRUE(line["server"]["tick_hz"].is_null());
}

TEST(NetGraph, RatesComeFromTwoLooksAndAReconnectStartsOver) {
  NetGraph graph;
  ClientLink link;
  link.owner = 4;
  link.client_id = 77;
  link.bytes_sent = 1000;
  link.bytes_received = 100;
  link.snapshots_sent = 10;
  link.snapshot_bytes = 2000;
  link.repeated_ticks = 1;
  auto first = graph.sample(1.0, {link});
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].down_bytes_per_s, 0);  // nothing to difference yet
  link.bytes_sent += 5000;
  link.bytes_received += 500;
  link.snapshots_sent += 5;
  link.snapshot_bytes += 1500;
  link.zeroed_ticks += 2;
  auto second = graph.sample(1.5, {link});
  EXPECT_DOUBLE_EQ(second[0].down_bytes_per_s, 10000);
  EXPECT_DOUBLE_EQ(second[0].up_bytes_per_s, 1000);
  EXPECT_DOUBLE_EQ(second[0].snapshots_per_s, 10);
  EXPECT_EQ(second[0].snapshot_bytes_mean, 300u);
  EXPECT_DOUBLE_EQ(second[0].starved_per_s, 4);
  ClientLink again;  // another client in the same slot, its counters from zero
  again.owner = 4;
  again.client_id = 78;
  auto third = graph.sample(2.0, {again});
  EXPECT_EQ(third[0].down_bytes_per_s, 0);
  EXPECT_EQ(third[0].starved_per_s, 0);
}

}  // namespace
}  // namespace tickwire::dashboard
