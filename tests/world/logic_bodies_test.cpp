// LogicBodies and MoverPose from map objects as a file states them: which body each object's logic
// makes (dynamic prop, kinematic mover, sensor plate and trigger, static collider, none), the box
// turned and scaled with the object, the slide along the mover's own axis; the collider is map data
// (checked like any component's settings, never in a record).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "tickwire/core/assert.h"
#include "tickwire/world/logic_bodies.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/mover_pose.h"
#include "tickwire/world/reference_game.h"

namespace tickwire::world {
namespace {

std::string map_with(const std::string& objects) {
  return R"({"format": "tickwire-map", "version": 2, "name": "bodies", "spawns": [{"position": [0, 0, 0], "yaw_deg": 0}],)"
         R"( "objects": [)" + objects + "]}";
}

Map load(const std::string& objects) {
  auto loaded = load_map(map_with(objects));
  if (!loaded.ok()) ADD_FAILURE() << loaded.error().text();
  TW_ASSERT(loaded.ok(), "the test map loads");
  return std::move(loaded).value();
}

const std::string kDoor =
    R"({"key": "door", "kind": "door", "position": [0, 1, 4], "components": [{"name": "mover", "channels": [0, 0],)"
    R"( "settings": {"axis": [0, 0.5, 0], "distance_m": 2}}, {"name": "collider", "settings": {"half_extents": [1, 1, 0.1]}}]})";
const std::string kPlate =
    R"({"key": "plate", "kind": "plate", "position": [2, 0, 0], "components": [{"name": "plate", "channels": [0],)"
    R"( "settings": {"half_extents": [0.4, 0.1, 0.4]}}, {"name": "collider"}]})";
const std::string kCrate =
    R"({"key": "crate", "kind": "crate_prop", "position": [4, 0.5, 0], "components": [{"name": "physics_prop",)"
    R"( "channels": [10], "settings": {"size": [1, 2, 3]}}]})";
const std::string kButton =
    R"({"key": "button", "kind": "button", "position": [6, 1, 0], "rotation": [0, 0.7071068, 0, 0.7071068],)"
    R"( "scale": [2, 1, 1], "components": [{"name": "button", "channels": [0]}, {"name": "collider",)"
    R"( "settings": {"half_extents": [0.1, 0.2, 0.3]}}]})";
const std::string kGhost =
    R"({"key": "ghost", "kind": "light", "position": [8, 1, 0], "components": [{"name": "light", "channels": [1, 1, 1, 1]},)"
    R"( {"name": "collider", "settings": {"solid": 0}}]})";
const std::string kLamp = R"({"key": "lamp", "kind": "light", "position": [9, 2, 0], "components": [{"name": "light", "channels": [1, 1, 1, 1]}]})";

TEST(LogicBodies, EachObjectsLogicMakesItsBody) {
  const Map map = load(kDoor + "," + kPlate + "," + kCrate + "," + kButton + "," + kGhost + "," + kLamp);
  ASSERT_EQ(map.objects().size(), 6u);
  const auto body = [&](std::size_t i) { return logic_body_of(map.objects()[i]); };
  EXPECT_EQ(body(0).kind, BodyKind::kinematic);
  EXPECT_EQ(body(0).half_extents, (Vec3{1, 1, 0.1f}));
  EXPECT_EQ(body(1).kind, BodyKind::sensor) << "a plate blocks nothing, collider or not";
  EXPECT_EQ(body(1).half_extents, (Vec3{0.4f, 0.1f, 0.4f})) << "the touch box its behaviour tests";
  EXPECT_EQ(body(2).kind, BodyKind::dynamic);
  EXPECT_EQ(body(2).half_extents, (Vec3{0.5f, 1, 1.5f}));
  EXPECT_EQ(body(3).kind, BodyKind::fixed);
  // Scaled 2x along its own x, then turned 90 degrees about y: world x takes its z, world z its x.
  EXPECT_NEAR(body(3).half_extents.x, 0.3f, 1e-5f);
  EXPECT_NEAR(body(3).half_extents.y, 0.2f, 1e-5f);
  EXPECT_NEAR(body(3).half_extents.z, 0.2f, 1e-5f);
  EXPECT_EQ(body(4).kind, BodyKind::sensor) << "a collider authored not solid";
  EXPECT_EQ(body(5).kind, BodyKind::none) << "no collider, no body";
  EXPECT_TRUE(body(0).blocks() && body(2).blocks() && body(3).blocks());
  EXPECT_FALSE(body(1).blocks() || body(4).blocks() || body(5).blocks());
  const Aabb box = body_box(body(0), map.objects()[0].position);
  EXPECT_EQ(box.min, (Vec3{-1, 0, 3.9f}));
  EXPECT_EQ(box.max, (Vec3{1, 2, 4.1f}));
  EXPECT_EQ(body_kind_name(BodyKind::fixed), "static");
}

TEST(MoverPose, TheSlideIsTheAxisMadeUnitAndTurnedTimesDistanceTimesFraction) {
  const Map map = load(kDoor + "," + kLamp);
  const std::optional<MoverSlide> slide = mover_slide(map.objects()[0]);
  ASSERT_TRUE(slide.has_value());
  EXPECT_EQ(slide->direction, (Vec3{0, 1, 0})) << "an axis of [0, 0.5, 0] slides up the whole distance, not half of it";
  EXPECT_EQ(slide->distance_m, 2.0f);
  EXPECT_EQ(mover_offset(*slide, 0.0), (Vec3{0, 0, 0}));
  EXPECT_EQ(mover_offset(*slide, 0.25), (Vec3{0, 0.5f, 0}));
  EXPECT_EQ(mover_offset(*slide, 1.0), (Vec3{0, 2, 0}));
  EXPECT_FALSE(mover_slide(map.objects()[1]).has_value());
  const Map turned = load(
      R"({"key": "gate", "kind": "door", "position": [0, 0, 0], "rotation": [0, 0.7071068, 0, 0.7071068],)"
      R"( "components": [{"name": "mover", "channels": [0, 0]}]})");
  const MoverSlide along = *mover_slide(turned.objects()[0]);
  EXPECT_NEAR(along.direction.x, 0.0f, 1e-6f);
  EXPECT_NEAR(along.direction.z, -1.0f, 1e-6f) << "the default +x axis in a frame turned 90 degrees about y";
}

TEST(LogicBodies, TheColliderIsMapDataCheckedAndNeverReplicated) {
  const auto refused = load_map(map_with(
      R"({"key": "w", "kind": "wall", "position": [0, 0, 0], "components": [{"name": "collider", "settings": {"half_extents": [0, 1, 1]}}]})"));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().path, "objects[0].components[0].settings.half_extents");
  const auto unknown = load_map(map_with(
      R"({"key": "w", "kind": "wall", "position": [0, 0, 0], "components": [{"name": "collider", "settings": {"mass": 1}}]})"));
  ASSERT_FALSE(unknown.ok());

  // The button's record: its button section only; the collider never reaches the wire.
  const Map map = load(kButton);
  ReferenceGame game(map);
  std::vector<protocol::Record> rest;
  game.write_rest_records(rest);
  ASSERT_EQ(rest.size(), 1u);
  const auto& record = std::get<protocol::ObjectRecord>(rest[0].body);
  ASSERT_EQ(record.sections.size(), 1u);
  EXPECT_EQ(record.sections[0].wire_id, static_cast<uint8_t>(ComponentWireId::button));
}

}  // namespace
}  // namespace tickwire::world
