// A late joiner over the whole system (seed 002, save states): a room saved mid-game (door.s on its
// way, its delayed lights still to come) is the initial state of a second server; a client then
// joins each server at the same moment over the same link, and what it is sent of the world (every
// map object's record, tick by tick) is the same from the loaded room as from the original.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <vector>

#include "game_sim.h"
#include "object_records_match.h"
#include "support.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

// The object records a client holds, by snapshot tick and object index.
using ClientView = std::map<uint32_t, std::map<uint32_t, protocol::ObjectRecord>>;

void watch_client(GameSim& sim, ClientView& view) {
  sim.after_frame = [&view](SimGameClient& c) {
    const protocol::Snapshot* latest = c.client.newest_snapshot();
    if (!latest || view.contains(latest->tick)) return;
    auto& at = view[latest->tick];
    for (const protocol::Record& r : latest->records)
      if (const auto* o = std::get_if<protocol::ObjectRecord>(&r.body)) at[o->object_index] = *o;
  };
}

TEST(SaveStateJoin, ALateJoinerSeesTheLoadedRoomAsItWouldHaveSeenTheOriginal) {
  const uint64_t seed = test_seed(2002);
  GameSim a(seed, GameSimConfig{});
  a.run_for(Duration::seconds(1));
  ASSERT_TRUE(a.game.logic()->use(*a.map.object_index("button.s"), LogicActivator{1}));
  a.run_for(Duration::milliseconds(300));
  const float door_at = a.game.object_component(*a.map.object_index("door.s"), 0).channels[0];
  ASSERT_GT(door_at, 0.0f);
  ASSERT_LT(door_at, 1.0f);
  std::vector<uint8_t> saved;
  ASSERT_FALSE(a.facade->save_state(saved));

  // The second server starts from the save (ServerConfig::initial_state): its next tick is the one
  // after the saved one, due at once.
  GameSimConfig from_save;
  from_save.initial_state = saved;
  GameSim b(seed, from_save);
  ASSERT_EQ(b.room.last_tick(), a.room.last_tick());

  LinkModel link;
  link.latency_ms = 40;
  ClientView view_a, view_b;
  watch_client(a, view_a);
  watch_client(b, view_b);
  GameClientSetup setup;
  setup.up = link;
  setup.down = link;
  setup.input = [](uint32_t) { return protocol::InputCmd{}; };  // standing still where it spawned
  a.add_client(setup);
  b.add_client(setup);
  a.run_for(Duration::seconds(2));
  b.run_for(Duration::seconds(2));
  ASSERT_TRUE(a.all_welcomed());
  ASSERT_TRUE(b.all_welcomed());
  EXPECT_EQ(a.clients[0]->pawn(), b.clients[0]->pawn());

  std::size_t ticks = 0, records = 0, mismatched = 0;
  for (const auto& [tick, objects] : view_a) {
    const auto other = view_b.find(tick);
    if (other == view_b.end()) continue;
    ++ticks;
    for (const auto& [index, record] : objects) {
      ++records;
      const auto there = other->second.find(index);
      if (there == other->second.end() || !same_fields(record, there->second) || !same_fields(there->second, record))
        ++mismatched;
    }
  }
  std::printf("late joiner: %zu snapshot ticks seen by both clients, %zu object records compared, %zu differ\n", ticks,
              records, mismatched);
  EXPECT_GT(ticks, 60u);
  EXPECT_GT(records, 1000u);
  EXPECT_EQ(mismatched, 0u);
  EXPECT_EQ(a.invariants.total(), 0u);
  EXPECT_EQ(b.invariants.total(), 0u);
}

}  // namespace
}  // namespace tickwire
