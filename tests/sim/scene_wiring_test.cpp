// Wiring edits through the whole system (seed 000, "Scene edits"): an editor rewires a button's
// output through Client::edit; the server's logic runs the new list from the next press (every client
// sees the other door open, not the authored one), every client and a late joiner hold the rewiring
// in the sceneNodeState, the rewiring stands while the button is out of the game and applies again
// when it spawns back, a revert gives the map's wiring back, what the old list still had waiting on
// a delay is dropped by name, and a list the rules refuse is told to the editor alone, by name.
#include <gtest/gtest.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "edit_sim.h"
#include "support.h"

namespace tickwire {
namespace {

using namespace tickwire::test;
using protocol::EditRefusal;

constexpr uint8_t kMover = 2;

protocol::SceneEdit wiring(std::vector<protocol::WiringEdit> edits) {
  protocol::SceneEdit g;
  g.wiring_edits = std::move(edits);
  return g;
}

// A door's open fraction as a client draws it (0 when it stands as the map authors it).
float drawn_open(const SimGameClient& c, uint32_t door) {
  const std::optional<ObjectSample> sample = c.facade->map_object(door);
  const SectionSample* mover = sample ? sample->section(kMover) : nullptr;
  return mover != nullptr ? mover->channels[0] : 0.0f;
}

struct WiringSim : EditSim {
  explicit WiringSim(uint64_t seed) : EditSim(seed) {}
  void press(std::string_view button) {
    ASSERT_TRUE(sim.game.logic()->use(object(button), LogicActivator::none())) << button;
  }
  uint64_t logic_drops(std::string_view reason) const {
    uint64_t count = 0;
    sim.game.visit_game_reasons([&](std::string_view name, uint64_t n) {
      if (name == std::string("logic.drop.").append(reason)) count = n;
    });
    return count;
  }
};

TEST(SceneWiring, ARewiredButtonOpensAnotherDoorForEveryClientAndALateJoinerHoldsIt) {
  const uint64_t seed = test_seed(2511);
  WiringSim t(seed);
  const uint32_t button = t.object("button.n"), north = t.object("door.n"), east = t.object("door.e");
  ASSERT_TRUE(t.editor->facade->edit(
      wiring({{button, "onPressed", protocol::WiringOp::set, {protocol::wiring_call("door.e", "toggle")}}})));
  t.sim.run_for(Duration::from_seconds(0.5));
  ASSERT_EQ(t.server_state().revision, 1u) << "seed=" << seed;
  ASSERT_EQ(t.server_state().objects.size(), 1u);
  EXPECT_EQ(t.server_state().objects[0].outputs.size(), 1u);
  for (SimGameClient* c : {t.editor, t.watcher}) EXPECT_EQ(*c->facade->scene_state(), t.server_state());

  t.press("button.n");
  t.sim.run_for(Duration::from_seconds(4));
  for (SimGameClient* c : {t.editor, t.watcher}) {
    EXPECT_FLOAT_EQ(drawn_open(*c, east), 1.0f) << "the rewired press opened the east door, seed=" << seed;
    EXPECT_FLOAT_EQ(drawn_open(*c, north), 0.0f) << "and not the one the map wires";
  }

  SimGameClient& late = t.sim.add_client(EditSim::standing(false));
  t.sim.run_for(Duration::from_seconds(1.5));
  ASSERT_NE(late.facade->scene_state(), nullptr);
  EXPECT_EQ(*late.facade->scene_state(), t.server_state()) << "a late joiner holds the rewiring";
  EXPECT_FLOAT_EQ(drawn_open(late, east), 1.0f);

  // Out of the game and back: the rewiring stands, and the fresh node runs it.
  ASSERT_TRUE(t.sim.game.despawn_object(button));
  ASSERT_TRUE(t.sim.game.spawn_object(button));
  t.press("button.n");
  t.sim.run_for(Duration::from_seconds(4));
  EXPECT_FLOAT_EQ(drawn_open(late, east), 0.0f) << "the respawned button toggled the east door shut";
  EXPECT_FLOAT_EQ(drawn_open(late, north), 0.0f);

  // Reverted: the map's wiring again.
  ASSERT_TRUE(t.editor->facade->edit(wiring({{button, "onPressed", protocol::WiringOp::revert, {}}})));
  t.sim.run_for(Duration::from_seconds(0.5));
  EXPECT_TRUE(t.server_state().objects.empty());
  EXPECT_EQ(*late.facade->scene_state(), t.server_state());
  t.press("button.n");
  t.sim.run_for(Duration::from_seconds(4));
  EXPECT_FLOAT_EQ(drawn_open(late, north), 1.0f) << "the reverted press opened the door the map wires";
  EXPECT_FLOAT_EQ(drawn_open(late, east), 0.0f);
  std::printf("[ wiring ] seed=%llu button.n rewired to door.e: 3 clients held it (a late joiner among them), the east "
              "door opened and shut, the reverted press opened door.n; state revision %u\n",
              static_cast<unsigned long long>(seed), t.server_state().revision);
}

TEST(SceneWiring, WhatTheOldListHadWaitingOnADelayIsDroppedByName) {
  const uint64_t seed = test_seed(2512);
  WiringSim t(seed);
  const uint32_t button = t.object("button.s"), south = t.object("door.s"), west = t.object("door.w");
  using protocol::wiring_call, protocol::wiring_delay;
  ASSERT_TRUE(t.editor->facade->edit(wiring(
      {{button, "onPressed", protocol::WiringOp::set, {wiring_call("door.s", "toggle"), wiring_delay(2), wiring_call("door.w", "toggle")}}})));
  t.sim.run_for(Duration::from_seconds(0.5));
  t.press("button.s");
  t.sim.run_for(Duration::from_seconds(0.5));
  EXPECT_EQ(t.logic_drops("rewired_in_flight"), 0u);
  // Rewired while the west door's call waits on its delay: that rest of the old list never runs.
  ASSERT_TRUE(t.editor->facade->edit(wiring({{button, "onPressed", protocol::WiringOp::set, {wiring_call("door.s", "toggle")}}})));
  t.sim.run_for(Duration::from_seconds(5));
  EXPECT_EQ(t.logic_drops("rewired_in_flight"), 1u) << "seed=" << seed;
  EXPECT_FLOAT_EQ(drawn_open(*t.watcher, south), 1.0f) << "the door the press opened keeps its travel";
  EXPECT_FLOAT_EQ(drawn_open(*t.watcher, west), 0.0f) << "the delayed call of the old list never ran";
  std::printf("[ wiring ] seed=%llu rewired mid-delay: logic.drop.rewired_in_flight 1, door.w stayed shut\n",
              static_cast<unsigned long long>(seed));
}

TEST(SceneWiring, AListTheRulesRefuseIsToldToTheEditorAloneByName) {
  const uint64_t seed = test_seed(2513);
  WiringSim t(seed);
  const uint32_t button = t.object("button.n"), crate = t.object("prop.crate.0");
  using protocol::wiring_call, protocol::wiring_delay;
  ASSERT_TRUE(t.editor->facade->edit(wiring({{button, "onPressed", protocol::WiringOp::set, {wiring_call("door.zz", "toggle")}},
                                             {button, "onPressed", protocol::WiringOp::set, {wiring_delay(100000)}},
                                             {crate, "onPressed", protocol::WiringOp::set, {wiring_call("door.n", "toggle")}},
                                             {button, "onReleased", protocol::WiringOp::revert, {}}})));
  t.sim.run_for(Duration::from_seconds(0.5));
  const std::vector<protocol::SceneEditRefused> told = t.refusals(*t.editor);
  ASSERT_EQ(told.size(), 4u) << "seed=" << seed;
  const EditRefusal expected[] = {EditRefusal::unknown_target, EditRefusal::bad_action, EditRefusal::not_logic,
                                  EditRefusal::not_edited};
  const char* outputs[] = {"onPressed", "onPressed", "onPressed", "onReleased"};
  for (std::size_t i = 0; i < told.size(); ++i) {
    EXPECT_EQ(told[i].reason, expected[i]) << i;
    EXPECT_EQ(told[i].key, outputs[i]) << "a wiring refusal names its output";
  }
  EXPECT_TRUE(t.refusals(*t.watcher).empty());
  EXPECT_EQ(t.server_state().revision, 0u) << "nothing changed";
  EXPECT_EQ(t.sim.game.logic()->runtime().wires(LogicNodeId{button})->at(0).actions.size(), 1u) << "the map's wiring runs";
}

}  // namespace
}  // namespace tickwire
