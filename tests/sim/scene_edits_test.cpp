// Scene edits through the whole system (seed 000, "Scene edits"): a session admitted with world
// authority edits through Client::edit, the room refuses a session without it whole (an offence) and
// holds an editor to the contract's edits per second, the game checks every write through the rules
// and tells the sender alone what it refused; every client holds the same edit set, a late joiner
// after 500 edits holds what an early one holds (the state and the rest table), hide and move reach
// the bodies on both ends, and an edited object is stated whole until the rest table is next taken.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "edit_sim.h"
#include "game_sim.h"
#include "support.h"
#include "tickwire/core/rng.h"
#include "tickwire/wire/typed_channel.h"
#include "tickwire/world/light_field_overrides.h"
#include "tickwire/world/scene_editor.h"
#include "tickwire/world/scene_overlay.h"

namespace tickwire {
namespace {

using namespace tickwire::test;
using protocol::EditRefusal;

constexpr uint8_t kLight = 1, kProp = 5, kCollider = 16;

protocol::SceneEdit gesture_of(std::vector<protocol::FieldEdit> fields, std::vector<protocol::ObjectEdit> objects = {}) {
  protocol::SceneEdit g;
  g.field_edits = std::move(fields);
  g.object_edits = std::move(objects);
  return g;
}

TEST(SceneEdits, EveryClientHoldsTheEditSetAndOnlyTheSenderHearsARefusal) {
  const uint64_t seed = test_seed(2501);
  EditSim t(seed);
  const uint32_t lamp = t.object("light.wall.n.00"), crate = t.object("prop.crate.0"), button = t.object("button.n");
  const auto number = t.editor->facade->edit(gesture_of({{lamp, kLight, "intensity", protocol::edit_numbers({4})},
                                                          {lamp, kLight, "layers", protocol::edit_words({"world", "props"})},
                                                          {lamp, kLight, "brightness", protocol::edit_numbers({4})},
                                                          {crate, kProp, "material", protocol::edit_word("metal")},
                                                          {button, kCollider, "solid", protocol::edit_switch(false)}}));
  ASSERT_TRUE(number.has_value());
  t.sim.run_for(Duration::from_seconds(1));
  for (SimGameClient* c : {t.editor, t.watcher}) {
    ASSERT_NE(c->facade->scene_state(), nullptr) << "seed=" << seed;
    EXPECT_EQ(*c->facade->scene_state(), t.server_state());
  }
  EXPECT_EQ(t.server_state().revision, 1u);
  EXPECT_EQ(t.server_state().objects.size(), 3u);
  const auto told = t.refusals(*t.editor);
  ASSERT_EQ(told.size(), 1u);
  EXPECT_EQ(told[0].gesture, *number);
  EXPECT_EQ(told[0].object, lamp);
  EXPECT_EQ(told[0].key, "brightness");
  EXPECT_EQ(told[0].reason, EditRefusal::unknown_key);
  EXPECT_TRUE(t.refusals(*t.watcher).empty()) << "a refusal is for its sender alone";
  // Each client draws the retuned lamp from the same patch over the authored light.
  for (SimGameClient* c : {t.editor, t.watcher}) {
    const auto patches = world::light_overrides(t.sim.map, *c->facade->scene_state());
    ASSERT_EQ(patches.size(), 1u);
    EXPECT_EQ(patches[0].object_index, lamp);
    EXPECT_EQ(patches[0].intensity, 4.0f);
    EXPECT_EQ(patches[0].layers, 5u);  // world and props
    EXPECT_FALSE(patches[0].color.has_value()) << "only what an edit set is stated";
  }
  // The edited material is what a shot now strikes on the crate; the switched-off button blocks nothing.
  const world::MapObject crate_now =
      world::edited_object(t.sim.map.objects()[crate], t.sim.game.scene_edits().object(crate));
  EXPECT_EQ(world::setting_number(*crate_now.component("physics_prop"), "material"), 1.0f);
  EXPECT_EQ(world::edited_body(t.sim.map.objects()[button], t.sim.game.scene_edits().object(button)).kind, world::BodyKind::sensor);
  std::printf("[ edits ] seed=%llu gesture of 5 writes: 4 applied, 1 refused to its sender; state revision %u to 2 of 2 clients\n",
              static_cast<unsigned long long>(seed), t.server_state().revision);
}

// The editor checks a gesture before it sends it, through the same rules: what it refuses locally is
// what the server refuses, by the same names, and the set it expects is the set the server holds.
TEST(SceneEdits, TheEditorsCheckBeforeSendingIsTheServers) {
  const uint64_t seed = test_seed(2506);
  EditSim t(seed);
  const uint32_t lamp = t.object("light.wall.n.00"), door = t.object("door.n"), button = t.object("button.e");
  protocol::SceneEdit gesture = gesture_of({{lamp, kLight, "intensity", protocol::edit_numbers({7})},
                                            {lamp, kLight, "shadows", protocol::edit_word("blurry")},
                                            {door, kLight, "intensity", protocol::edit_numbers({1})},
                                            {button, kCollider, "half_extents", protocol::edit_numbers({0.2f, 0.2f, 0.2f})}},
                                           {{door, protocol::ObjectVerb::move, protocol::EditTransform{}, ""},
                                            {button, protocol::ObjectVerb::hide, std::nullopt, ""}});
  const world::SceneEditor editor(t.sim.map, t.sim.solids);
  const world::CheckedGesture checked = editor.check(gesture, t.editor->facade->scene_state());
  EXPECT_EQ(checked.gesture.field_edits.size(), 2u);
  EXPECT_EQ(checked.gesture.object_edits.size(), 1u);
  ASSERT_EQ(checked.refusals.size(), 3u);
  // What passed the check is sent: the server refuses none of it and holds the set the editor expected.
  ASSERT_TRUE(t.editor->facade->edit(checked.gesture).has_value());
  t.sim.run_for(Duration::from_seconds(1));
  EXPECT_TRUE(t.refusals(*t.editor).empty()) << "seed=" << seed;
  EXPECT_EQ(t.server_state().objects, checked.after);
  // Sent unchecked against the set that now stands (the button is hidden already), the server refuses
  // exactly what the editor refuses, by the same names.
  gesture.field_edits.push_back({lamp, kLight, "intensity", std::nullopt});
  const world::CheckedGesture second = editor.check(gesture, t.editor->facade->scene_state());
  ASSERT_TRUE(t.editor->facade->edit(gesture).has_value());
  t.sim.run_for(Duration::from_seconds(1));
  const auto told = t.refusals(*t.editor);
  ASSERT_EQ(told.size(), second.refusals.size()) << "seed=" << seed;
  EXPECT_EQ(told.size(), 4u);  // the door's move, the button's second hide, the blurry shadows, the door's light
  for (std::size_t i = 0; i < told.size(); ++i) {
    EXPECT_EQ(told[i].reason, second.refusals[i].reason) << i;
    EXPECT_EQ(told[i].object, second.refusals[i].object) << i;
    EXPECT_EQ(told[i].key, second.refusals[i].key) << i;
  }
  EXPECT_EQ(t.server_state().objects, second.after);
}

// A client keeps the newest state and refuses what every reader of it could not trust: a state
// older than the one it holds, or one whose objects do not ascend by index (a hostile server's).
TEST(SceneEdits, AClientRefusesAStaleOrUnorderedStateByName) {
  const uint64_t seed = test_seed(2507);
  EditSim t(seed);
  const uint32_t lamp = t.object("light.wall.n.00");
  ASSERT_TRUE(t.editor->facade->edit(gesture_of({{lamp, kLight, "intensity", protocol::edit_numbers({2})}})));
  t.sim.run_for(Duration::from_seconds(1));
  ASSERT_NE(t.watcher->facade->scene_state(), nullptr);
  const protocol::SceneNodeState held = *t.watcher->facade->scene_state();
  const uint32_t slot = static_cast<uint32_t>(t.watcher->client.session().welcome()->owner_id) - 1;  // owner = slot + 1
  NetChannel* to_watcher = t.sim.server.channel(slot);
  ASSERT_NE(to_watcher, nullptr);
  protocol::SceneNodeState stale = held;
  stale.revision = 0;
  protocol::SceneNodeState unordered;
  unordered.revision = held.revision + 5;
  unordered.objects = {protocol::ObjectNodeState{9, true, {}, {}, {}, {}, {}}, protocol::ObjectNodeState{3, true, {}, {}, {}, {}, {}}};
  ASSERT_TRUE(wire::send_message(*to_watcher, kSessionReliableChannel, stale).ok());
  ASSERT_TRUE(wire::send_message(*to_watcher, kSessionReliableChannel, unordered).ok());
  t.sim.run_for(Duration::from_seconds(1));
  const auto& drops = t.watcher->client.session().drops();
  EXPECT_EQ(drops[ClientDrop::stale_scene_state], 1u) << "seed=" << seed;
  EXPECT_EQ(drops[ClientDrop::scene_state_unordered], 1u);
  EXPECT_EQ(*t.watcher->facade->scene_state(), held);
}

TEST(SceneEdits, ASessionWithoutWorldAuthorityIsRefusedWholeAsAnOffence) {
  const uint64_t seed = test_seed(2502);
  EditSim t(seed);
  const uint32_t lamp = t.object("light.wall.n.00");
  const auto number = t.watcher->facade->edit(gesture_of({{lamp, kLight, "intensity", protocol::edit_numbers({4})}}));
  ASSERT_TRUE(number.has_value());
  t.sim.run_for(Duration::from_seconds(1));
  const auto told = t.refusals(*t.watcher);
  ASSERT_EQ(told.size(), 1u);
  EXPECT_EQ(told[0].gesture, *number);
  EXPECT_EQ(told[0].reason, EditRefusal::not_authority);
  EXPECT_TRUE(told[0].key.empty());
  EXPECT_TRUE(t.refusals(*t.editor).empty());
  EXPECT_EQ(t.server_state().revision, 0u) << "nothing changed";
  EXPECT_EQ(t.watcher->facade->scene_state(), nullptr);
  EXPECT_EQ(t.sim.room.edit_refusals()[EditRefusal::not_authority], 1u);
  EXPECT_EQ(t.sim.server.offences()[Offence::edit_unauthorized], 1u);
}

TEST(SceneEdits, AnEditorIsHeldToTheContractsEditsPerSecond) {
  const uint64_t seed = test_seed(2503);
  EditSim t(seed);
  const uint32_t lamp = t.object("light.wall.n.00");
  const uint32_t rate = t.sim.room.contract().limits.edits_per_second;
  for (uint32_t i = 0; i < 2 * rate; ++i)
    ASSERT_TRUE(t.editor->facade->edit(gesture_of({{lamp, kLight, "intensity", protocol::edit_numbers({float(i + 1)})}})));
  t.sim.run_for(Duration::from_milliseconds(300));
  const auto told = t.refusals(*t.editor);
  const uint64_t limited = t.sim.room.edit_refusals()[EditRefusal::rate_limited];
  EXPECT_GE(limited, rate - rate / 4) << "seed=" << seed;  // the bucket refills while they arrive
  EXPECT_EQ(told.size(), limited);
  EXPECT_EQ(t.sim.room.edits_accepted() + limited, 2 * rate);
  EXPECT_EQ(t.sim.server.offences()[Offence::edit_rate], limited);
  EXPECT_EQ(t.server_state().revision, t.sim.room.edits_accepted());
}

// One gesture of the 500: a lamp retuned (numbers, words), a button hidden, shown or moved, or a
// revert, picked by the run's own generator.
protocol::SceneEdit random_gesture(Rng& rng, const std::vector<uint32_t>& lamps, const std::vector<uint32_t>& buttons) {
  const uint32_t lamp = lamps[rng.next_u32() % lamps.size()];
  const uint32_t button = buttons[rng.next_u32() % buttons.size()];
  switch (rng.next_u32() % 6) {
    case 0: return gesture_of({{lamp, kLight, "intensity", protocol::edit_numbers({float(rng.next_u32() % 2000) / 2})}});
    case 1: return gesture_of({{lamp, kLight, "color", protocol::edit_numbers({0.5f, float(rng.next_u32() % 10) / 10, 1})},
                               {lamp, kLight, "shadows", protocol::edit_word("hard")}});
    case 2: return gesture_of({{lamp, kLight, "intensity", std::nullopt}});
    case 3: return gesture_of({}, {{button, protocol::ObjectVerb::hide, std::nullopt, ""}});
    case 4: return gesture_of({}, {{button, protocol::ObjectVerb::show, std::nullopt, ""}});
    default: {
      const float x = float(rng.next_u32() % 40) - 20, z = float(rng.next_u32() % 40) - 20;
      return gesture_of({}, {{button, protocol::ObjectVerb::move, protocol::EditTransform{protocol::Vec3{x, 1, z}, std::nullopt}, ""}});
    }
  }
}

TEST(SceneEdits, ALateJoinerAfterFiveHundredEditsHoldsWhatAnEarlyOneHolds) {
  const uint64_t seed = test_seed(2504);
  GameSimConfig config;
  config.adjust_policy = [](RoomPolicy& policy) { policy.limits.edits_per_second = 1000; };
  EditSim t(seed, config);
  std::vector<uint32_t> lamps, buttons;
  for (uint32_t i = 0; i < 40; ++i) lamps.push_back(i);
  for (std::string_view key : {"button.n", "button.s", "button.e"}) buttons.push_back(t.object(key));
  Rng rng(seed);
  for (int i = 0; i < 500; ++i) {
    ASSERT_TRUE(t.editor->facade->edit(random_gesture(rng, lamps, buttons)));
    if (i % 10 == 9) t.sim.run_for(Duration::from_milliseconds(20));
  }
  t.sim.run_for(Duration::from_seconds(1));
  // A gesture that changed nothing (a hide of a hidden button, a revert of an unedited lamp) is its
  // one write refused; every other moved the revision once.
  const std::size_t refused = t.refusals(*t.editor).size();
  const uint32_t after_500 = t.server_state().revision;
  EXPECT_EQ(after_500 + refused, 500u) << "seed=" << seed;
  // Whatever the run left, one button stands hidden and another moved, so both must survive the join.
  const uint32_t hidden = t.object("button.w"), moved = buttons[0];
  ASSERT_TRUE(t.editor->facade->edit(gesture_of({}, {{hidden, protocol::ObjectVerb::hide, std::nullopt, ""},
                                                     {moved, protocol::ObjectVerb::show, std::nullopt, ""},
                                                     {moved, protocol::ObjectVerb::move,
                                                      protocol::EditTransform{protocol::Vec3{3, 1, 3}, std::nullopt}, ""}})));
  t.sim.run_for(Duration::from_seconds(1));
  SimGameClient& late = t.sim.add_client(EditSim::standing(false));
  t.sim.run_for(Duration::from_seconds(2));
  ASSERT_TRUE(late.client.session().welcomed());
  const protocol::SceneNodeState& state = t.server_state();
  EXPECT_EQ(state.revision, after_500 + 1);
  ASSERT_NE(late.facade->scene_state(), nullptr);
  EXPECT_EQ(*late.facade->scene_state(), state);
  EXPECT_EQ(*t.watcher->facade->scene_state(), state);
  // The rest tables they hold are one table.
  const RestTable& early_rest = t.watcher->client.session().deltas().rest_table().current();
  const RestTable& late_rest = late.client.session().deltas().rest_table().current();
  EXPECT_EQ(late_rest.revision(), early_rest.revision());
  ASSERT_EQ(late_rest.size(), early_rest.size());
  const auto bytes_of = [](const protocol::Record& r) {
    std::vector<uint8_t> b(wire::measure(r));
    EXPECT_TRUE(wire::encode(r, b).ok());
    return b;
  };
  for (std::size_t i = 0; i < late_rest.size(); ++i)
    EXPECT_EQ(bytes_of(late_rest.records()[i]), bytes_of(early_rest.records()[i])) << "rest record " << i;
  // Hide and move reach the late joiner's snapshots and its prediction world: the statics it builds
  // from the map and the state are the server's.
  const protocol::Snapshot* newest = late.client.newest_snapshot();
  ASSERT_NE(newest, nullptr);
  bool saw_hidden = false, saw_moved = false;
  for (const protocol::Record& r : newest->records) {
    const auto* o = std::get_if<protocol::ObjectRecord>(&r.body);
    if (o == nullptr) continue;
    if (o->object_index == hidden) saw_hidden = (o->flags & world::kObjectHidden) != 0;
    if (o->object_index == moved && o->transform) saw_moved = o->transform->position == protocol::Vec3{3, 1, 3};
  }
  EXPECT_TRUE(saw_hidden);
  EXPECT_TRUE(saw_moved);
  std::vector<world::Aabb> predicted;
  world::scene_solid_boxes(t.sim.map, t.sim.solids, late.facade->scene_state(), predicted);
  const auto server_boxes = t.sim.game.static_boxes();
  ASSERT_EQ(predicted.size(), server_boxes.size());
  for (std::size_t i = 0; i < predicted.size(); ++i) {
    EXPECT_EQ(predicted[i].min, server_boxes[i].min) << i;
    EXPECT_EQ(predicted[i].max, server_boxes[i].max) << i;
  }
  std::printf("[ edits ] seed=%llu 500 gestures (+1): revision %u (%zu no-op gestures refused), %zu objects edited, state %zu bytes; "
              "late joiner equal (state, rest table r%u, %zu static boxes)\n",
              static_cast<unsigned long long>(seed), state.revision, refused, state.objects.size(), wire::measure(state),
              late_rest.revision(), predicted.size());
}

TEST(SceneEdits, AnEditedObjectLeavesTheRestTableUntilItIsNextTaken) {
  const uint64_t seed = test_seed(2505);
  EditSim t(seed);
  const uint32_t a = t.object("light.wall.n.00"), b = t.object("light.wall.n.01");
  const auto rest = [&]() -> const RestTable& { return t.watcher->client.session().deltas().rest_table().current(); };
  const uint32_t first = rest().revision();
  ASSERT_TRUE(rest().names_object(a));
  ASSERT_TRUE(t.editor->facade->edit(gesture_of({{a, kLight, "intensity", protocol::edit_numbers({3})}})));
  t.sim.run_for(Duration::from_seconds(1));
  EXPECT_GT(rest().revision(), first);
  EXPECT_FALSE(rest().names_object(a)) << "seed=" << seed << ": stated whole, never against what it stood at before";
  EXPECT_TRUE(t.sim.game.left_rest_table(a));
  const uint32_t second = rest().revision();
  ASSERT_TRUE(t.editor->facade->edit(gesture_of({{b, kLight, "intensity", protocol::edit_numbers({5})}})));
  t.sim.run_for(Duration::from_seconds(1));
  EXPECT_GT(rest().revision(), second);
  EXPECT_TRUE(rest().names_object(a)) << "the next take brings it back as it stands";
  EXPECT_FALSE(rest().names_object(b));
  // What a retake costs: the whole table again, reliably, to every client that lists it.
  const MapRestTable& server_rest = t.sim.server.replication().rest_table();
  std::size_t bytes = 0;
  protocol::RestTableChunk chunk;
  for (std::size_t i = 0; i < server_rest.chunk_count(); ++i) {
    server_rest.write_chunk(i, chunk);
    bytes += 1 + wire::measure(chunk);
  }
  std::printf("[ edits ] seed=%llu a gesture retakes the rest table: %zu records, %zu chunk(s), %zu bytes to each client\n",
              static_cast<unsigned long long>(seed), server_rest.table().size(), server_rest.chunk_count(), bytes);
}

}  // namespace
}  // namespace tickwire
