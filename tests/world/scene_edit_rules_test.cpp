// The scene edit rules and the edit set (seed 000, "Scene edits"): the four value forms, clamping,
// every refusal by name, revert, component add and removal over an inherited one, and what the
// overlay makes of the result (hide drops the body, move moves it).
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "tickwire/protocol/scene_edit.h"
#include "tickwire/wire/codec.h"
#include "tickwire/world/edit_vocabulary.h"
#include "tickwire/world/scene_edit_rules.h"
#include "tickwire/world/scene_edit_set.h"
#include "tickwire/world/scene_overlay.h"

namespace tickwire::world {
namespace {

using protocol::EditRefusal;

constexpr uint8_t kLight = 1, kProp = 5, kCollider = 16, kMover = 2;

ObjectComponent component(std::string name, std::vector<ComponentSetting> settings = {}) {
  ObjectComponent c;
  c.name = std::move(name);
  c.settings = std::move(settings);
  return c;
}

// A small scene: a lamp (a light), a wall piece (a solid collider), a crate (a physics prop) and a
// door (a mover with a solid collider): indices 0..3.
struct Scene {
  std::vector<MapObject> objects;
  Scene() {
    objects.push_back(MapObject{"lamp", "light", Vec3{0, 3, 0}, {}, {}, {component("light")}, {}});
    ComponentSetting half{"half_extents", {1, 1, 0.25f, 0}, 3};
    objects.push_back(MapObject{"wall", "wall", Vec3{4, 1, 0}, {}, {}, {component("collider", {half})}, {}});
    objects.push_back(MapObject{"crate", "crate_prop", Vec3{-4, 0.5f, 0}, {}, {}, {component("physics_prop")}, {}});
    objects.push_back(MapObject{"door", "door", Vec3{8, 1, 0}, {}, {}, {component("collider", {half}), component("mover")}, {}});
  }
  EditTargets targets() const {
    return [this](uint32_t i) {
      if (i >= objects.size()) return EditTarget{};
      return EditTarget{&objects[i], i == 0 || i == 1};  // the crate's solver and the door's mover place them
    };
  }
};

protocol::SceneEdit fields(std::vector<protocol::FieldEdit> edits) {
  protocol::SceneEdit gesture;
  gesture.gesture = 7;
  gesture.field_edits = std::move(edits);
  return gesture;
}

EditRefusal only_refusal(const EditOutcome& outcome) {
  EXPECT_EQ(outcome.refusals.size(), 1u);
  return outcome.refusals.empty() ? EditRefusal::count_ : outcome.refusals.front().reason;
}

TEST(SceneEditRules, EveryComponentOfTheVocabularyHasAUniqueIdAndItsSettingsTable) {
  std::vector<uint8_t> seen;
  for (const EditComponent& c : edit_components()) {
    EXPECT_EQ(std::count(seen.begin(), seen.end(), c.id), 0) << c.name;
    seen.push_back(c.id);
    ASSERT_NE(c.spec, nullptr) << c.name << " is described: it has a settings table";
    EXPECT_EQ(edit_component(c.name), &c);
  }
  EXPECT_EQ(edit_component(kLight)->name, "light");
  EXPECT_EQ(edit_component(kCollider)->name, "collider");
}

TEST(SceneEditRules, TheFourFormsAreWrittenAndStatedBack) {
  const Scene scene;
  SceneEditSet set;
  const EditOutcome outcome = set.apply(
      fields({{0, kLight, "color", protocol::edit_numbers({1, 0.5f, 0.25f})},
              {0, kLight, "shadows", protocol::edit_word("soft")},
              {0, kLight, "layers", protocol::edit_words({"world", "water"})},
              {1, kCollider, "solid", protocol::edit_switch(false)},
              {2, kProp, "material", protocol::edit_word("metal")}}),
      scene.targets());
  EXPECT_TRUE(outcome.refusals.empty());
  EXPECT_TRUE(outcome.changed);
  EXPECT_EQ(set.revision(), 1u);
  EXPECT_EQ(outcome.touched, (std::vector<uint32_t>{0, 1, 2}));
  const protocol::ObjectNodeState* lamp = set.object(0);
  ASSERT_NE(lamp, nullptr);
  ASSERT_EQ(lamp->field_states.size(), 3u);  // ascending key: color, layers, shadows
  EXPECT_EQ(lamp->field_states[0].value, protocol::edit_numbers({1, 0.5f, 0.25f}));
  EXPECT_EQ(lamp->field_states[1].value, protocol::edit_words({"world", "water"}));
  EXPECT_EQ(lamp->field_states[2].value, protocol::edit_word("soft"));
  // The overlay lays the numbers into the settings the behaviours and the renderer read.
  const MapObject lamp_now = edited_object(scene.objects[0], lamp);
  EXPECT_EQ(setting_number(*lamp_now.component("light"), "shadows"), 2.0f);
  EXPECT_EQ(setting_number(*lamp_now.component("light"), "layers"), 9.0f);  // bits 0 (world) and 3 (water)
  const MapObject crate_now = edited_object(scene.objects[2], set.object(2));
  EXPECT_EQ(kPropMaterials[static_cast<std::size_t>(setting_number(*crate_now.component("physics_prop"), "material"))], "metal");
  // A collider switched off is a sensor: it blocks nothing any more.
  EXPECT_EQ(edited_body(scene.objects[1], set.object(1)).kind, BodyKind::sensor);
  EXPECT_EQ(edited_body(scene.objects[1], nullptr).kind, BodyKind::fixed);
}

TEST(SceneEditRules, ANumberOutsideItsRangeIsClampedToTheEnd) {
  const Scene scene;
  SceneEditSet set;
  const FieldCheck check = SceneEditRules::check_field(worn_components(scene.objects[0], nullptr), kLight, "intensity",
                                                       protocol::edit_numbers({5000}));
  ASSERT_FALSE(check.refusal);
  EXPECT_TRUE(check.write.clamped);
  EXPECT_EQ(check.write.values[0], 1000.0f);
  EXPECT_TRUE(set.apply(fields({{0, kLight, "intensity", protocol::edit_numbers({-3})}}), scene.targets()).refusals.empty());
  EXPECT_EQ(set.object(0)->field_states[0].value, protocol::edit_numbers({0}));
}

TEST(SceneEditRules, EachFailingWriteIsRefusedByNameAndTheRestApply) {
  const Scene scene;
  SceneEditSet set;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const EditOutcome outcome = set.apply(
      fields({{0, kProp, "mass", protocol::edit_numbers({1})},               // the lamp wears no prop
              {0, kLight, "brightness", protocol::edit_numbers({1})},        // no such field
              {0, kLight, "intensity", protocol::edit_switch(true)},         // numbers, not a switch
              {0, kLight, "color", protocol::edit_numbers({1, 1})},          // three numbers
              {0, kLight, "range_m", protocol::edit_numbers({nan})},         // not finite
              {0, kLight, "shadows", protocol::edit_word("blurry")},         // not a choice
              {0, kLight, "layers", protocol::edit_words({"world", "sky"})},  // one word not a choice
              {3, kMover, "axis", protocol::edit_numbers({0, 0, 0})},        // no direction
              {9, kLight, "intensity", protocol::edit_numbers({1})},         // no such object
              {0, kLight, "intensity", std::nullopt},                        // nothing to revert
              {0, kLight, "intensity", protocol::edit_numbers({2})}}),       // the one that passes
      scene.targets());
  std::vector<EditRefusal> reasons;
  for (const auto& r : outcome.refusals) {
    reasons.push_back(r.reason);
    EXPECT_EQ(r.gesture, 7u);
  }
  EXPECT_EQ(reasons, (std::vector<EditRefusal>{EditRefusal::component_not_worn, EditRefusal::unknown_key, EditRefusal::wrong_form,
                                               EditRefusal::wrong_count, EditRefusal::not_finite, EditRefusal::not_a_choice,
                                               EditRefusal::not_a_choice, EditRefusal::zero_axis, EditRefusal::unknown_object,
                                               EditRefusal::not_edited}));
  EXPECT_EQ(outcome.refusals[1].key, "brightness");
  EXPECT_EQ(outcome.refusals[1].object, 0u);
  EXPECT_TRUE(outcome.changed);
  ASSERT_NE(set.object(0), nullptr);
  EXPECT_EQ(set.object(0)->field_states.size(), 1u);
  EXPECT_EQ(set.object(3), nullptr) << "a refused write leaves no entry behind";
}

TEST(SceneEditRules, ARevertPutsTheMapsValueBackAndLeavesNoEntry) {
  const Scene scene;
  SceneEditSet set;
  (void)set.apply(fields({{0, kLight, "intensity", protocol::edit_numbers({4})}}), scene.targets());
  ASSERT_NE(set.object(0), nullptr);
  const EditOutcome reverted = set.apply(fields({{0, kLight, "intensity", std::nullopt}}), scene.targets());
  EXPECT_TRUE(reverted.refusals.empty());
  EXPECT_TRUE(reverted.changed);
  EXPECT_EQ(set.revision(), 2u);
  EXPECT_EQ(set.object(0), nullptr);
  EXPECT_TRUE(set.state().objects.empty());
  EXPECT_EQ(edited_object(scene.objects[0], set.object(0)), scene.objects[0]);
}

TEST(SceneEditRules, AComponentIsAddedOrRemovedOverAnInheritedOneAndReverted) {
  const Scene scene;
  SceneEditSet set;
  protocol::SceneEdit gesture;
  gesture.component_edits = {{0, kCollider, protocol::ComponentOp::add},      // the lamp gains a collider
                             {1, kCollider, protocol::ComponentOp::remove},   // the wall loses its own
                             {0, kLight, protocol::ComponentOp::add},         // worn already
                             {0, kMover, protocol::ComponentOp::add},         // a behaviour: never added
                             {3, kMover, protocol::ComponentOp::remove},      // nor taken off
                             {2, kCollider, protocol::ComponentOp::remove},   // the crate's map gives none
                             {2, kLight, protocol::ComponentOp::revert}};     // nothing stands
  gesture.field_edits = {{0, kCollider, "half_extents", protocol::edit_numbers({0.2f, 0.2f, 0.2f})},
                         {1, kCollider, "solid", protocol::edit_switch(true)}};  // removed: not worn
  const EditOutcome outcome = set.apply(gesture, scene.targets());
  std::vector<EditRefusal> reasons;
  for (const auto& r : outcome.refusals) reasons.push_back(r.reason);
  EXPECT_EQ(reasons, (std::vector<EditRefusal>{EditRefusal::already_worn, EditRefusal::not_addable, EditRefusal::not_removable,
                                               EditRefusal::not_inherited, EditRefusal::not_edited,
                                               EditRefusal::component_not_worn}));
  // The lamp is now solid (its added collider, the size written in the same gesture); the wall is not.
  const LogicBody lamp = edited_body(scene.objects[0], set.object(0));
  EXPECT_EQ(lamp.kind, BodyKind::fixed);
  EXPECT_FLOAT_EQ(lamp.half_extents.x, 0.2f);
  EXPECT_EQ(edited_body(scene.objects[1], set.object(1)).kind, BodyKind::none);
  // Reverting the added collider takes its field edits with it.
  protocol::SceneEdit revert;
  revert.component_edits = {{0, kCollider, protocol::ComponentOp::revert}, {1, kCollider, protocol::ComponentOp::add}};
  EXPECT_TRUE(set.apply(revert, scene.targets()).refusals.empty());
  EXPECT_EQ(set.object(0), nullptr);
  EXPECT_EQ(set.object(1), nullptr) << "an add over a removal: it wears what its map says again";
}

TEST(SceneEditRules, HideDropsTheBodyMoveMovesItAndWhatItsLogicPlacesIsNotMoved) {
  const Scene scene;
  SceneEditSet set;
  protocol::SceneEdit gesture;
  const protocol::EditTransform there{protocol::Vec3{10, 1, -2}, protocol::EditRotation{0, 0, 0, 2}};
  gesture.object_edits = {{1, protocol::ObjectVerb::move, there, ""},
                          {0, protocol::ObjectVerb::hide, std::nullopt, ""},
                          {3, protocol::ObjectVerb::move, there, ""},                    // the door's mover places it
                          {2, protocol::ObjectVerb::move, std::nullopt, ""},             // no transform
                          {1, protocol::ObjectVerb::unmove, std::nullopt, ""},           // (moved in this gesture)
                          {1, protocol::ObjectVerb::move, there, ""},
                          {0, protocol::ObjectVerb::rename, std::nullopt, "lamp.hall"}};
  const EditOutcome outcome = set.apply(gesture, scene.targets());
  std::vector<EditRefusal> reasons;
  for (const auto& r : outcome.refusals) reasons.push_back(r.reason);
  EXPECT_EQ(reasons, (std::vector<EditRefusal>{EditRefusal::not_movable, EditRefusal::bad_transform}));
  EXPECT_TRUE(set.object(0)->hidden);
  EXPECT_EQ(set.object(0)->name, "lamp.hall");
  EXPECT_EQ(set.object(1)->transform->rotation->w, 1.0f) << "a rotation is stored unit length";
  EXPECT_EQ(edited_body(scene.objects[0], set.object(0)).kind, BodyKind::none);
  const MapObject wall = edited_object(scene.objects[1], set.object(1));
  EXPECT_EQ(wall.position, (Vec3{10, 1, -2}));
  EXPECT_EQ(edited_body(scene.objects[1], set.object(1)).kind, BodyKind::fixed);
}

TEST(SceneEditRules, AGestureThatWouldOutgrowOneMessageIsRefusedWholeAndChangesNothing) {
  std::vector<MapObject> many(2000, MapObject{"o", "thing", Vec3{}, {}, {}, {component("light")}, {}});
  const EditTargets targets = [&](uint32_t i) { return i < many.size() ? EditTarget{&many[i], true} : EditTarget{}; };
  SceneEditSet set;
  const std::string long_name(protocol::kMaxObjectNameBytes, 'n');
  uint32_t next = 0;
  EditOutcome outcome;
  while (true) {
    protocol::SceneEdit gesture;
    gesture.gesture = next;
    for (std::size_t k = 0; k < protocol::kMaxGestureObjectEdits; ++k)
      gesture.object_edits.push_back({next++, protocol::ObjectVerb::rename, std::nullopt, long_name});
    const uint32_t before = set.revision();
    outcome = set.apply(gesture, targets);
    if (!outcome.changed) {
      EXPECT_EQ(set.revision(), before);
      break;
    }
    ASSERT_LT(next, many.size());
  }
  EXPECT_EQ(only_refusal(outcome), EditRefusal::edit_set_full);
  EXPECT_LE(wire::measure(set.state()), protocol::kMaxSceneNodeStateBytes);
  EXPECT_GT(set.state().objects.size(), 700u);
}

}  // namespace
}  // namespace tickwire::world
