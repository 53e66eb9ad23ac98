// Map objects joining and leaving the running reference game, with no network: a despawned plate
// ends the touch of the pawn on it first; a despawn drops the object's continuations and wakes; a
// call to a despawned object is silent and counted, and reaches it once it is back as a fresh node
// at its authored state; a thousand spawn/despawn cycles leak nothing and never land anything the
// old node scheduled on the reused id.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "game_rig.h"
#include "lifecycle_map.h"
#include "tickwire/wire/codec.h"
#include "tickwire/world/button_behaviour.h"

namespace tickwire::world {
namespace {

using rigs::Rig;

struct Fired {
  uint32_t object;
  std::string output;
  uint64_t activator;
};

// The rig over the lifecycle map, recording every output fired and every trace line.
struct LifecycleRig : Rig {
  LifecycleRig() : Rig(tickwire::test::kLifecycleMapText) { watch(); }
  void watch() {
    game.logic()->set_fired_sink([this](uint32_t object, std::string_view output, LogicActivator activator) {
      fired.push_back(Fired{object, std::string(output), activator.value});
    });
    game.logic()->set_trace_sink([this](std::string_view line) { traces.emplace_back(line); });
  }
  const LogicRuntime& runtime() const { return game.logic()->runtime(); }
  uint64_t dropped(LogicDrop reason) const { return runtime().drops()[reason]; }
  bool traced_from(std::string_view key) const {
    return std::any_of(traces.begin(), traces.end(), [&](const std::string& line) { return line.starts_with(key); });
  }
  std::vector<Fired> fired;
  std::vector<std::string> traces;
};

constexpr Vec3 kBeforeButton{1.75f, 0, 6.25f};  // 1.5 m before button.1, facing it (+z)
constexpr Vec3 kOnPlate{-4, 0, 0};
constexpr Vec3 kAway{0, 0, -4};

std::vector<protocol::Record> object_records(const ReferenceGame& game, int64_t tick) {
  TickRecords out;
  game.write_records(Tick::from_value(tick), out);
  std::vector<protocol::Record> objects;
  for (const protocol::Record& r : out.records)
    if (std::holds_alternative<protocol::ObjectRecord>(r.body)) objects.push_back(r);
  return objects;
}

bool names_object(const std::vector<protocol::Record>& records, uint32_t index) {
  return std::any_of(records.begin(), records.end(), [&](const protocol::Record& r) {
    const auto* o = std::get_if<protocol::ObjectRecord>(&r.body);
    return o != nullptr && o->object_index == index;
  });
}

TEST(ObjectLifecycle, DespawningAPlateWithAPawnOnItEndsThatPawnsTouchFirst) {
  LifecycleRig rig;
  const uint32_t plate = rig.index("plate.1");
  rig.stand(kOnPlate, 0);
  rig.tick();
  ASSERT_EQ(rig.bits("plate.1") & 1, 1) << "held down";
  ASSERT_EQ(rig.bits("light.2") & 1, 1) << "onStartTouch lit the lamp";
  rig.fired.clear();
  const uint64_t generation = rig.game.map_generation();

  EXPECT_TRUE(rig.game.despawn_object(plate));
  ASSERT_FALSE(rig.fired.empty());
  EXPECT_EQ(rig.fired.front().object, plate);
  EXPECT_EQ(rig.fired.front().output, "onEndTouch");
  EXPECT_EQ(rig.fired.front().activator, rig.pawn.raw()) << "the pawn that stood on it is the activator";
  EXPECT_EQ(rig.bits("light.2") & 1, 0) << "the wiring ran before the node went";
  EXPECT_FALSE(rig.game.object_spawned(plate));
  EXPECT_FALSE(rig.game.despawn_object(plate)) << "once";
  EXPECT_NE(rig.game.map_generation(), generation) << "the room retakes its rest table";
  EXPECT_EQ(rig.game.lifecycle().despawns, 1u);

  // Gone from the records and the rest table; nothing of it fires while the pawn still stands there.
  EXPECT_FALSE(names_object(object_records(rig.game, rig.now), plate));
  std::vector<protocol::Record> rest;
  rig.game.write_rest_records(rest);
  EXPECT_FALSE(names_object(rest, plate));
  EXPECT_EQ(rest.size(), rig.map.objects().size() - 1);
  EXPECT_FALSE(rig.game.resolves_target(map_object_ref(plate))) << "an interaction naming it is refused";
  rig.fired.clear();
  rig.ticks(10);
  EXPECT_TRUE(rig.fired.empty());
}

TEST(ObjectLifecycle, ADespawnDropsTheObjectsContinuationsAndWakes) {
  LifecycleRig rig;
  rig.stand(kBeforeButton, 0);
  rig.tick(/*use=*/true);  // door.1 toggled now, light.1 toggled after 0.5 s; the button resets after 1 s
  ASSERT_EQ(rig.game.uses(), 1u);
  ASSERT_GT(rig.channel("door.1", 0), 0.0f);
  const uint8_t light_before = rig.bits("light.1");

  const std::size_t scheduled = rig.runtime().sizes().scheduled;
  const uint64_t dropped = rig.dropped(LogicDrop::unloaded_in_flight);
  EXPECT_TRUE(rig.game.despawn_object(rig.index("button.1")));
  EXPECT_EQ(rig.dropped(LogicDrop::unloaded_in_flight) - dropped, 2u) << "the parked toggle and the reset wake";
  EXPECT_EQ(rig.runtime().sizes().scheduled, scheduled - 2);
  rig.ticks(60);
  EXPECT_EQ(rig.bits("light.1"), light_before) << "the parked call never ran";

  // A door despawned mid-travel takes its wake with it, and comes back shut and still.
  rig.game.logic()->runtime().deliver(LogicNodeId{rig.index("door.1")}, "toggle", {});
  rig.ticks(10);
  ASSERT_NE(rig.channel("door.1", 1), 0.0f) << "on its way";
  EXPECT_TRUE(rig.game.despawn_object(rig.index("door.1")));
  EXPECT_TRUE(rig.game.spawn_object(rig.index("door.1")));
  rig.ticks(90);
  EXPECT_EQ(rig.channel("door.1", 0), 0.0f);
  EXPECT_EQ(rig.channel("door.1", 1), 0.0f);
  EXPECT_EQ(rig.dropped(LogicDrop::stale_generation), 0u);
}

TEST(ObjectLifecycle, ACallToADespawnedObjectIsSilentCountedAndReachesItOnceBack) {
  LifecycleRig rig;
  const uint32_t light = rig.index("light.3");
  const uint8_t authored = rig.map.objects()[light].components[0].bits;
  rig.ticks(20);
  EXPECT_TRUE(rig.game.despawn_object(light));
  const uint64_t absent = rig.dropped(LogicDrop::absent_target);
  rig.ticks(10);  // the timer beats at 30 ticks
  EXPECT_EQ(rig.dropped(LogicDrop::absent_target), absent + 1);
  EXPECT_NE(std::find(rig.traces.begin(), rig.traces.end(), "timer.1 fired onTimer -> light.3.toggle (dropped: absent_target)"),
            rig.traces.end());
  std::vector<std::string> names;
  rig.game.visit_game_reasons([&](std::string_view name, uint64_t) { names.emplace_back(name); });
  EXPECT_NE(std::find(names.begin(), names.end(), "logic.drop.absent_target"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "object.despawn"), names.end());

  EXPECT_TRUE(rig.game.spawn_object(light));
  EXPECT_EQ(rig.bits("light.3"), authored) << "back at its authored state";
  EXPECT_EQ(rig.game.lifecycle().spawns, 1u);
  rig.ticks(30);
  EXPECT_NE(rig.bits("light.3"), authored) << "the next beat reaches the fresh node";
  EXPECT_EQ(rig.dropped(LogicDrop::absent_target), absent + 1);
}

TEST(ObjectLifecycle, ARespawnedObjectIsAFreshNodeAtItsAuthoredState) {
  LifecycleRig rig;
  const uint32_t button = rig.index("button.1");
  rig.stand(kBeforeButton, 0);
  rig.tick(true);
  ASSERT_EQ(rig.bits("button.1") & ButtonBehaviour::kPressedBit, ButtonBehaviour::kPressedBit);
  EXPECT_TRUE(rig.game.despawn_object(button));
  EXPECT_FALSE(rig.game.use_object(rig.pawn, button));
  EXPECT_EQ(rig.refused(UseRefusal::unknown_target), 1u);
  EXPECT_TRUE(rig.game.spawn_object(button));
  EXPECT_FALSE(rig.game.spawn_object(button)) << "once";
  EXPECT_EQ(rig.bits("button.1"), 0) << "not latched: a fresh node";
  EXPECT_TRUE(rig.game.use_object(rig.pawn, button)) << "usable again";

  // A continuation another node parked, naming the door, lands on the door's fresh node.
  const uint32_t door = rig.index("door.1");
  EXPECT_TRUE(rig.game.despawn_object(door));
  EXPECT_TRUE(rig.game.spawn_object(door));
  rig.game.logic()->runtime().deliver(LogicNodeId{rig.index("relay.1")}, "trigger", {});
  EXPECT_TRUE(rig.game.despawn_object(door));
  rig.ticks(30);
  EXPECT_TRUE(rig.game.spawn_object(door));
  EXPECT_EQ(rig.channel("door.1", 0), 0.0f);
  rig.ticks(31);
  EXPECT_GT(rig.channel("door.1", 0), 0.0f) << "the relay's open, a second on, reached the fresh door";
}

TEST(ObjectLifecycle, AnObjectDespawnedBeforeTheLogicBeginsGetsNoNode) {
  const Map map = rigs::load_rig_map(tickwire::test::kLifecycleMapText);
  ReferenceGame game(map);
  const uint32_t timer = *map.object_index("timer.1");
  EXPECT_TRUE(game.despawn_object(timer));
  game.begin(rigs::rig_contract());
  ASSERT_NE(game.logic(), nullptr);
  EXPECT_FALSE(game.logic()->spawned(timer));
  EXPECT_EQ(game.logic()->logic_objects(), 7u);
  EXPECT_TRUE(game.spawn_object(timer));
  EXPECT_TRUE(game.logic()->spawned(timer));
}

// One cycle: work in flight on the object, despawn it a few ticks in, respawn it, then check that
// nothing the old node scheduled surfaced on the node that took its id.
void cycle(LifecycleRig& rig, std::string_view key, int ticks_in) {
  const uint32_t index = rig.index(key);
  if (key == "button.1") {
    rig.stand(kBeforeButton, 0);
    rig.tick(true);
  } else if (key == "door.1") {
    rig.game.logic()->runtime().deliver(LogicNodeId{index}, "toggle", {});
  } else if (key == "plate.1") {
    rig.stand(kOnPlate, 0);
    rig.tick();
  } else if (key == "relay.1") {
    rig.game.logic()->runtime().deliver(LogicNodeId{index}, "trigger", {});
  }
  rig.ticks(ticks_in);
  const std::size_t scheduled = rig.runtime().sizes().scheduled;
  const uint64_t dropped = rig.dropped(LogicDrop::unloaded_in_flight);
  rig.fired.clear();
  ASSERT_TRUE(rig.game.despawn_object(index));
  ASSERT_EQ(rig.runtime().sizes().scheduled, scheduled - (rig.dropped(LogicDrop::unloaded_in_flight) - dropped))
      << "every entry of the node left the queue, counted";
  if (key == "plate.1") {
    ASSERT_FALSE(rig.fired.empty());
    ASSERT_EQ(rig.fired.front().output, "onEndTouch");
    rig.stand(kAway, 0);
  }
  rig.ticks(3);
  ASSERT_TRUE(rig.game.spawn_object(index));
  ASSERT_EQ(rig.game.object_component(index, 0), rig.map.objects()[index].components[0]) << "authored";
  rig.traces.clear();
  if (key == "timer.1") {  // the fresh timer beats 30 ticks after its load, not on the old one's phase
    const uint8_t light = rig.bits("light.3");
    rig.ticks(29);
    ASSERT_EQ(rig.bits("light.3"), light);
    rig.tick();
    ASSERT_NE(rig.bits("light.3"), light);
    return;
  }
  rig.ticks(70);
  ASSERT_FALSE(rig.traced_from(key)) << "nothing the old node parked ran";
  if (key == "door.1") {
    ASSERT_EQ(rig.channel("door.1", 0), 0.0f) << "no old wake moved it";
  }
}

TEST(ObjectLifecycle, AThousandCyclesLeakNothingAndNothingLandsOnAReusedId) {
  LifecycleRig rig;
  const LogicRuntimeSizes fresh = rig.runtime().sizes();
  ASSERT_EQ(fresh.nodes, 8u);
  const char* const keys[] = {"button.1", "door.1", "timer.1", "plate.1", "relay.1", "light.1"};
  constexpr int kCycles = 1000;
  for (int i = 0; i < kCycles; ++i) {
    SCOPED_TRACE("cycle " + std::to_string(i));
    cycle(rig, keys[i % 6], (i / 6) % 20);
    if (testing::Test::HasFatalFailure()) return;
    const LogicRuntimeSizes now = rig.runtime().sizes();
    ASSERT_EQ(now.nodes, fresh.nodes);
    ASSERT_EQ(now.names, fresh.names);
    ASSERT_EQ(now.retired, 0u);
    ASSERT_LE(now.scheduled, 8u);
  }
  EXPECT_EQ(rig.game.lifecycle().despawns, static_cast<uint64_t>(kCycles));
  EXPECT_EQ(rig.game.lifecycle().spawns, static_cast<uint64_t>(kCycles));
  EXPECT_EQ(rig.game.uses(), static_cast<uint64_t>((kCycles + 5) / 6)) << "every button cycle pressed it";
  EXPECT_EQ(rig.dropped(LogicDrop::stale_generation), 0u);
  EXPECT_GT(rig.dropped(LogicDrop::unloaded_in_flight), 500u);
  std::printf("[ lifecycle ] %d cycles: %llu entries dropped in flight, %llu loads, sizes %zu/%zu/%zu/%zu\n", kCycles,
              static_cast<unsigned long long>(rig.dropped(LogicDrop::unloaded_in_flight)),
              static_cast<unsigned long long>(rig.runtime().loads().total()), rig.runtime().sizes().nodes,
              rig.runtime().sizes().names, rig.runtime().sizes().scheduled, rig.runtime().sizes().retired);

  // Every object out: the runtime holds nothing. Every object back: as fresh as at load.
  rig.stand(kAway, 0);
  for (uint32_t i = 0; i < rig.map.objects().size(); ++i) ASSERT_TRUE(rig.game.despawn_object(i));
  EXPECT_EQ(rig.runtime().sizes(), LogicRuntimeSizes{});
  EXPECT_TRUE(object_records(rig.game, rig.now).empty());
  for (uint32_t i = 0; i < rig.map.objects().size(); ++i) ASSERT_TRUE(rig.game.spawn_object(i));
  EXPECT_EQ(rig.runtime().sizes(), fresh);
  std::vector<protocol::Record> rest, fresh_rest;
  rig.game.write_rest_records(rest);
  const Map map = rigs::load_rig_map(tickwire::test::kLifecycleMapText);
  const ReferenceGame untouched(map);
  untouched.write_rest_records(fresh_rest);
  EXPECT_EQ(rest.size(), fresh_rest.size());
  for (std::size_t i = 0; i < rest.size() && i < fresh_rest.size(); ++i) {
    std::vector<uint8_t> a(wire::measure(rest[i])), b(wire::measure(fresh_rest[i]));
    ASSERT_TRUE(wire::encode(rest[i], a).ok());
    ASSERT_TRUE(wire::encode(fresh_rest[i], b).ok());
    EXPECT_EQ(a, b) << "object " << i;
  }
}

}  // namespace
}  // namespace tickwire::world
