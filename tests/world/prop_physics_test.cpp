// The server's prop solver: a crate dropped on a floor comes to rest and falls asleep; a pushed one
// slides and stops; one on a rising lift rides it up by the lift's velocity; one that falls out of
// the world comes back where the map puts it; poses are rounded to the wire's and stay there.
#include <gtest/gtest.h>

#include <cmath>

#include "game_rig.h"
#include "tickwire/world/object_solids.h"
#include "tickwire/world/prop_physics.h"
#include "tickwire/world/reference_vocabulary.h"
#include "tickwire/world/server_props.h"

namespace tickwire::world {
namespace {

constexpr float kDt = 1.0f / 60.0f;
const Aabb kFloor{{-50, -1, -50}, {50, 0, 50}};

PropSolid crate(Vec3 at, uint32_t object_index = 0) { return PropSolid{object_index, {0.5f, 0.5f, 0.5f}, at, Quat{}, 10, 0}; }

TEST(PropPhysics, ADroppedCrateComesToRestOnTheFloorAndFallsAsleep) {
  PropPhysics physics;
  physics.set_statics({&kFloor, 1});
  physics.add(0, crate({0, 2, 0}), PropPose{{0, 2, 0}, Quat{}});
  int ticks = 0;
  while (!physics.asleep(0) && ticks < 60 * 10) {
    physics.step(kDt);
    ++ticks;
  }
  EXPECT_TRUE(physics.asleep(0)) << "asleep within 10 s";
  EXPECT_NEAR(physics.pose(0).position.y, 0.5f, 0.02f) << "resting on the floor";
  EXPECT_EQ(physics.awake(), 0u);
  const PropPose rested = physics.pose(0);
  physics.step(kDt);
  EXPECT_EQ(physics.pose(0), rested) << "asleep: exactly where it was";
}

TEST(PropPhysics, APushedCrateSlidesAndFrictionStopsIt) {
  PropPhysics physics;
  physics.set_statics({&kFloor, 1});
  physics.add(0, crate({0, 0.5f, 0}), PropPose{{0, 0.5f, 0}, Quat{}});
  physics.push(0, {0, 0, 20});  // 2 m/s for a 10 kg crate
  EXPECT_FALSE(physics.asleep(0));
  physics.step(kDt);
  EXPECT_GT(physics.velocity(0).z, 1.5f);
  for (int i = 0; i < 60 * 5; ++i) physics.step(kDt);
  EXPECT_GT(physics.pose(0).position.z, 0.2f) << "it slid";
  EXPECT_LT(physics.pose(0).position.z, 1.0f) << "and wood on the floor stopped it within a metre";
  EXPECT_NEAR(physics.velocity(0).z, 0.0f, 0.01f);
}

TEST(PropPhysics, ACrateOnARisingKinematicLiftRidesItsVelocity) {
  PropPhysics physics;
  physics.set_statics({&kFloor, 1});
  // A 4 x 0.2 x 4 lift whose top is at 0.2, rising 1.5 m/s.
  Aabb lift{{-2, 0, -2}, {2, 0.2f, 2}};
  physics.add(0, crate({0, 0.7f, 0}), PropPose{{0, 0.7f, 0}, Quat{}});
  const Vec3 step{0, 1.5f * kDt, 0};
  for (int i = 0; i < 60; ++i) {
    const MovingBox moving{lift, step};
    physics.set_kinematics({&moving, 1}, kDt);
    physics.step(kDt);
    lift = moving.at(1);
  }
  EXPECT_NEAR(lift.max.y, 1.7f, 1e-3f);
  EXPECT_NEAR(physics.pose(0).position.y, lift.max.y + 0.5f, 0.06f) << "it rode up with the lift";
}

// Two crates: one on a 10 m floor (authored asleep), one 20 m out over nothing (authored awake).
const char* kCratesMap =
    R"({"format": "tickwire-map", "version": 2, "name": "crates", "boxes": [{"tag": "floor", "material": "concrete",)"
    R"( "min": [-5, -1, -5], "max": [5, 0, 5]}], "spawns": [{"position": [0, 0, -3], "yaw_deg": 0}], "objects": [)"
    R"({"key": "crate.on", "kind": "crate_prop", "position": [0, 0.5, 0], "components": [{"name": "physics_prop", "channels": [10], "bits": 1}]},)"
    R"({"key": "crate.off", "kind": "crate_prop", "position": [20, 0.5, 0], "components": [{"name": "physics_prop", "channels": [10], "bits": 0,)"
    R"( "settings": {"mass": 30, "material": 2, "size": [1, 2, 1]}}]},)"
    R"({"key": "crate.client", "kind": "crate_prop", "position": [2, 0.5, 0], "components": [{"name": "physics_prop", "channels": [10], "bits": 1,)"
    R"( "settings": {"sim": 1}}]}]})";

TEST(ServerProps, TheServersPropsComeFromTheMapAndAFallenOneComesBack) {
  const Map map = rigs::load_rig_map(kCratesMap);
  const ObjectSolids solids = ObjectSolids::build(map);
  ASSERT_EQ(solids.props().size(), 2u) << "a client-simulated prop is not the server's";
  EXPECT_EQ(solids.prop_slot(2), -1);
  EXPECT_EQ(solids.props()[1].half_extents, (Vec3{0.5f, 1, 0.5f}));
  EXPECT_EQ(solids.props()[1].mass_kg, 30.0f);
  EXPECT_EQ(solids.props()[1].material, 2);
  std::vector<Aabb> statics;
  solids.collect_statics(map, [](uint32_t) { return true; }, statics);
  ServerProps props(ReplicaKinds::from(reference_vocabulary()));
  props.install(solids, statics, [](uint32_t) { return true; });
  EXPECT_FALSE(props.moved(0));
  EXPECT_FALSE(props.moved(1));
  uint64_t ticks = 0;
  while (props.counts().respawns == 0 && ticks < 60 * 10) {
    props.step({}, {}, kDt);
    ++ticks;
  }
  EXPECT_EQ(props.counts().respawns, 1u) << "the one over nothing fell out of the world and came back";
  EXPECT_FALSE(props.moved(1)) << "back where the map puts it";
  EXPECT_FALSE(props.moved(0)) << "the one on the floor never moved";
  std::vector<Aabb> boxes;
  props.append_boxes(boxes);
  EXPECT_EQ(boxes.size(), 2u);
  props.despawn(1);
  boxes.clear();
  props.append_boxes(boxes);
  EXPECT_EQ(boxes.size(), 1u) << "a despawned prop collides with nothing";
}

TEST(ServerProps, APushedPropsPoseIsTheWiresPose) {
  const Map map = rigs::load_rig_map(kCratesMap);
  const ObjectSolids solids = ObjectSolids::build(map);
  const ReplicaKinds kinds = ReplicaKinds::from(reference_vocabulary());
  ServerProps props(kinds);
  std::vector<Aabb> statics;
  solids.collect_statics(map, [](uint32_t) { return true; }, statics);
  props.install(solids, statics, [](uint32_t) { return true; });
  // A pawn against the crate's -z face walking +z at 4 m/s shoves it.
  const Aabb pawn{{-0.3f, 0, -0.83f - 0.3f}, {0.3f, 1.8f, -0.83f + 0.3f}};
  props.push_from(pawn, {0, 0, 4});
  EXPECT_EQ(props.counts().pushes, 1u);
  for (int i = 0; i < 30; ++i) props.step({}, {}, kDt);
  ASSERT_TRUE(props.moved(0));
  EXPECT_GT(props.pose(0).position.z, 0.3f);
  EXPECT_EQ(wire_pose(props.pose(0), kinds), props.pose(0)) << "the pose it collides with is one the wire carries exactly";
  // A wire pose survives another trip unchanged.
  const PropPose odd{{0.123456f, 0.5f, -3.3333f}, Quat{0.01f, 0.7f, 0.0f, 0.71407f}};
  const PropPose once = wire_pose(odd, kinds);
  EXPECT_EQ(wire_pose(once, kinds), once);
}

}  // namespace
}  // namespace tickwire::world
