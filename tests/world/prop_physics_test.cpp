// The server's prop solver: a crate dropped on a floor comes to rest and falls asleep; a pushed one
// slides and stops; one on a rising lift rides it up by the lift's velocity; one that falls out of
// the world comes back where the map puts it; poses are rounded to the wire's and stay there; one
// tipping off a ledge turns, and a turning or squeezed one stops at a pawn instead of pressing in.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

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

// The angle a unit quaternion turns by (radians, the short way).
float turned_rad(const Quat& q) { return 2.0f * std::acos(std::min(1.0f, std::fabs(q.w) / std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w))); }

TEST(PropPhysics, ACrateOverALedgesEdgeTipsOffAndLandsTurned) {
  PropPhysics physics;
  const Aabb statics[] = {kFloor, {{-2, 0, -2}, {0, 1, 2}}};  // a 1 m ledge ending at x = 0
  physics.set_statics(statics);
  const PropPose start{{0.2f, 1.5f, 0}, Quat{}};  // its centre 0.2 m past the edge
  physics.add(0, crate(start.position), start);
  float turned = 0, tallest_m = 0;
  for (int i = 0; i < 60 * 4; ++i) {
    physics.step(kDt);
    const PropPose pose = physics.pose(0);
    turned = std::max(turned, turned_rad(pose.rotation));
    const Aabb bounds = prop_box(crate(start.position), pose.position, pose.rotation).bounds();
    tallest_m = std::max(tallest_m, bounds.max.y - bounds.min.y);
  }
  EXPECT_LT(physics.pose(0).position.y, 1.0f) << "it fell off the ledge";
  EXPECT_GT(turned, 0.3f) << "tipping over the edge turned it";
  EXPECT_GT(tallest_m, 1.2f) << "the box a pawn meets is the turned one (on its edge: 1.41 m tall)";
}

// A crate tipping off a ledge toward a pawn standing at its foot.
const char* kLedgeMap =
    R"({"format": "tickwire-map", "version": 2, "name": "ledge", "boxes": [{"tag": "floor", "material": "concrete",)"
    R"( "min": [-5, -1, -5], "max": [5, 0, 5]}, {"tag": "ledge", "material": "concrete", "min": [-2, 0, -2], "max": [0, 1, 2]}],)"
    R"( "spawns": [{"position": [0, 0, -3], "yaw_deg": 0}], "objects": [)"
    R"({"key": "crate", "kind": "crate_prop", "position": [0.3, 1.5, 0], "components": [{"name": "physics_prop", "channels": [10], "bits": 0}]}]})";

TEST(ServerProps, ATurningCrateStopsAtAPawnRatherThanSwingingIntoIt) {
  const Map map = rigs::load_rig_map(kLedgeMap);
  const ObjectSolids solids = ObjectSolids::build(map);
  std::vector<Aabb> statics;
  solids.collect_statics(map, [](uint32_t) { return true; }, statics);
  ServerProps props(ReplicaKinds::from(reference_vocabulary()));
  props.install(solids, statics, [](uint32_t) { return true; });
  const Aabb pawn{{0.85f, 0, -0.4f}, {1.65f, 1.8f, 0.4f}};  // 5 cm off the crate, where its corner swings
  float deepest_m = 0, turned = 0;
  for (int i = 0; i < 60 * 4; ++i) {
    props.step({}, {&pawn, 1}, kDt);
    const PropPose& pose = props.pose(0);
    deepest_m = std::max(deepest_m, overlap_depth(pawn, prop_box(solids.props()[0], pose.position, pose.rotation)));
    turned = std::max(turned, turned_rad(pose.rotation));
  }
  EXPECT_GT(turned, 0.1f) << "the crate turned as it tipped";
  EXPECT_LE(deepest_m, kPropPawnSlopM) << "never pressed into the pawn past the solver's slop";
  std::printf("[ ledge ] turned %.3f rad, deepest in the pawn %.4f m, steps stopped at the pawn %llu\n", turned, deepest_m,
              static_cast<unsigned long long>(props.counts().stopped_at_pawn));
}

// A crate on a floor.
const char* kFloorCrateMap =
    R"({"format": "tickwire-map", "version": 2, "name": "floor-crate", "boxes": [{"tag": "floor", "material": "concrete",)"
    R"( "min": [-50, -1, -50], "max": [50, 0, 50]}], "spawns": [{"position": [0, 0, -3], "yaw_deg": 0}], "objects": [)"
    R"({"key": "crate", "kind": "crate_prop", "position": [3, 0.5, 0], "components": [{"name": "physics_prop", "channels": [10], "bits": 0}]}]})";

TEST(ServerProps, ACrateSqueezedBetweenADoorAndAPawnStopsAtThePawn) {
  const Map map = rigs::load_rig_map(kFloorCrateMap);
  const ObjectSolids solids = ObjectSolids::build(map);
  const std::vector<Aabb> statics{kFloor};
  ServerProps props(ReplicaKinds::from(reference_vocabulary()));
  props.install(solids, statics, [](uint32_t) { return true; });
  // The crate stands on the floor at x = 3, a pawn 2 cm past it, and a door sweeps in behind it at
  // 2 m/s and keeps going: both immovable to the crate.
  const Aabb pawn{{3.52f, 0, -0.4f}, {4.32f, 1.8f, 0.4f}};
  Aabb door{{1.0f, 0, -1}, {2.4f, 2.5f, 1}};
  float deepest_m = 0;
  for (int i = 0; i < 60 * 2; ++i) {
    const MovingBox moving{door, {2.0f * kDt, 0, 0}};
    props.step({&moving, 1}, {&pawn, 1}, kDt);
    door = moving.at(1);
    const PropPose& pose = props.pose(0);
    deepest_m = std::max(deepest_m, overlap_depth(pawn, prop_box(solids.props()[0], pose.position, pose.rotation)));
  }
  EXPECT_LE(deepest_m, kPropPawnSlopM) << "never pressed into the pawn past the solver's slop";
  EXPECT_GT(props.counts().stopped_at_pawn, 0u) << "the solver pressed it in and the step was refused";
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
  std::vector<TurnedBox> boxes;
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
