// A room recovered from a checkpoint taken mid-flight (a door halfway open, lights due to switch on
// after their delays) goes on exactly as the room that kept running: every tick after the recovery,
// both rooms' doors, buttons and lights show the same, and their logic holds the same state.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstdio>

#include "backend_stores.h"
#include "durable_room.h"
#include "game_sim.h"
#include "support.h"
#include "tickwire/core/byte_record.h"

namespace tickwire::durable {
namespace {

using namespace tickwire::test;
using namespace tickwire::durable::test_support;

// What the logic leaves in a room after one tick: each logic object's channels and bits (a light's
// flicker, a function of the room's own tick count, left out) and the logic's whole state.
std::string logic_view(const GameSim& sim) {
  std::string view;
  auto out = std::back_inserter(view);
  const auto objects = sim.map.objects();
  for (uint32_t index = 0; index < objects.size(); ++index) {
    for (std::size_t c = 0; c < objects[index].components.size(); ++c) {
      const world::ObjectComponent& live = sim.game.object_component(index, c);
      if (live.name != "mover" && live.name != "button" && live.name != "light" && live.name != "plate") continue;
      const std::size_t channels = live.name == "light" ? std::min<std::size_t>(live.channel_count, 3) : live.channel_count;
      fmt::format_to(out, "{}.{} bits {} channels {}\n", objects[index].key, live.name, live.bits,
                     fmt::join(std::span(live.channels.data(), channels), " "));
    }
  }
  std::vector<uint8_t> logic;
  ByteRecordWriter write(logic);
  sim.game.logic()->save_state(write);
  fmt::format_to(out, "logic {:02x}\n", fmt::join(logic, ""));
  return view;
}

// Every tick's view from now on, for `duration`.
std::vector<std::string> views_over(GameSim& sim, Duration duration) {
  std::vector<std::string> views;
  sim.watched.after_tick = [&](Tick) { views.push_back(logic_view(sim)); };
  sim.run_for(duration);
  sim.watched.after_tick = nullptr;
  return views;
}

double door_fraction(const GameSim& sim, uint32_t door) { return sim.game.object_component(door, 0).channels[0]; }

TEST(LogicRecovery, ARoomRecoveredMidFlightGoesOnAsTheRoomThatKeptRunning) {
  const uint64_t seed = test_seed(2113);
  BackendStores stores("sqlite");
  ASSERT_FALSE(stores.url().empty()) << stores.why();
  GameSimConfig config;
  config.map_text = busy_map_text();
  GameSim sim(seed, config);
  DurableRoom room(stores.open(), "logic-recovery", "server-a", sim.room, sim.server, TickEpoch::kernel_v1);
  ASSERT_NE(room.keeper, nullptr) << room.error;
  sim.run_for(Duration::from_seconds(0.5));

  // button.s swings door.s and walks its lights one by one, a quarter second apart.
  const uint32_t button = *sim.map.object_index("button.s");
  const uint32_t door = *sim.map.object_index("door.s");
  const uint32_t last_lamp = *sim.map.object_index("light.wall.s.15");
  ASSERT_TRUE(sim.game.logic()->use(button, LogicActivator{1}));
  ASSERT_TRUE(sim.game.logic()->use(*sim.map.object_index("button.e"), LogicActivator{2}));
  sim.run_for(Duration::from_seconds(0.3));
  ASSERT_GT(door_fraction(sim, door), 0.0);
  ASSERT_LT(door_fraction(sim, door), 1.0) << "the door is still on its way";
  ASSERT_GT(sim.game.logic()->runtime().sizes().scheduled, 1u) << "lights still to come";
  const uint8_t lamp_before = sim.game.object_component(last_lamp, 0).bits;
  ASSERT_TRUE(room.keeper->checkpoint_and_flush(sim.room, sim.room.last_tick()));

  GameSim fresh(seed, config);
  auto store = stores.open();
  RecoveryResult recovered = recover_room(*store, "logic-recovery", fresh.room);
  ASSERT_TRUE(std::holds_alternative<Recovery>(recovered));
  EXPECT_EQ(logic_view(fresh), logic_view(sim)) << "as the checkpoint left it";
  EXPECT_EQ(door_fraction(fresh, door), door_fraction(sim, door));

  const std::vector<std::string> kept = views_over(sim, Duration::seconds(3));
  const std::vector<std::string> back = views_over(fresh, Duration::seconds(3));
  ASSERT_GT(std::min(kept.size(), back.size()), 170u);
  for (std::size_t t = 0; t < std::min(kept.size(), back.size()); ++t) ASSERT_EQ(back[t], kept[t]) << "tick " << t + 1;
  EXPECT_EQ(door_fraction(fresh, door), 1.0f);
  EXPECT_NE(fresh.game.object_component(last_lamp, 0).bits, lamp_before) << "the last delayed light came on";
}

TEST(LogicRecovery, EveryCutOfAGameCheckpointIsRefusedBeforeAnythingChanges) {
  GameSimConfig config;
  config.map_text = busy_map_text();
  GameSim sim(test_seed(2114), config);
  sim.run_for(Duration::from_seconds(0.5));
  const std::size_t quiet_bytes = [&] {
    std::vector<uint8_t> quiet;
    sim.game.save_state(quiet);
    return quiet.size();
  }();
  ASSERT_TRUE(sim.game.logic()->use(*sim.map.object_index("button.s"), LogicActivator{1}));
  sim.run_for(Duration::from_seconds(0.3));
  std::vector<uint8_t> bytes;
  sim.game.save_state(bytes);
  std::printf("[ logic ] a game checkpoint: %zu bytes at rest, %zu mid-flight\n", quiet_bytes, bytes.size());

  GameSim target(test_seed(2114), config);
  const std::string before = logic_view(target);
  for (std::size_t cut = 0; cut < bytes.size(); ++cut)
    ASSERT_FALSE(target.game.restore_state(std::span<const uint8_t>(bytes).first(cut))) << "cut at " << cut;
  EXPECT_EQ(logic_view(target), before);
  ASSERT_TRUE(target.game.restore_state(bytes));
  EXPECT_EQ(logic_view(target), logic_view(sim));
}

}  // namespace
}  // namespace tickwire::durable
