// The objects' solids on the server: a static collider stops a pawn, a sensor and a collider-less
// object do not; a lift the map's logic cycles carries the pawn standing on it up and down (the
// body stands where its state puts it and moves by the rate the next tick makes, the trajectory a
// client predicts it on); a despawned object's body goes with it; children ride their mover.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "game_rig.h"
#include "tickwire/world/object_hierarchy.h"
#include "tickwire/world/object_solids.h"

namespace tickwire::world {
namespace {

using rigs::Rig;

std::string map_with(const std::string& objects) {
  return R"({"format": "tickwire-map", "version": 2, "name": "solids", "boxes": [{"tag": "floor", "material": "concrete", "min": [-50, -1, -50], "max": [50, 0, 50]}],)"
         R"( "spawns": [{"position": [0, 0, -5], "yaw_deg": 0}], "objects": [)" + objects + "]}";
}

// A 4 x 0.2 x 4 lift whose top starts at 0.2 m, rising 3 m at 1.5 m/s; a timer toggles it every 3 s.
const std::string kLift =
    R"({"key": "lift", "kind": "door", "position": [0, 0.1, 0], "components": [{"name": "mover", "channels": [0, 0],)"
    R"( "settings": {"axis": [0, 1, 0], "distance_m": 3, "speed_mps": 1.5}}, {"name": "collider", "settings": {"half_extents": [2, 0.1, 2]}}]},)"
    R"({"key": "clock", "kind": "timer", "position": [0, 0, 9], "components": [{"name": "timer", "settings": {"interval_s": 3, "start_on": 1}}],)"
    R"( "outputs": {"onTimer": [{"target": "lift", "input": "toggle"}]}})";
const std::string kWall =
    R"({"key": "wall", "kind": "button", "position": [0, 1, 3], "components": [{"name": "button", "channels": [0]},)"
    R"( {"name": "collider", "settings": {"half_extents": [3, 1, 0.2]}}]})";

TEST(ObjectSolids, StaticsAndTracksFromTheMap) {
  const Map map = rigs::load_rig_map(map_with(kLift + "," + kWall));
  const ObjectSolids solids = ObjectSolids::build(map);
  ASSERT_EQ(solids.statics().size(), 1u);
  EXPECT_EQ(solids.statics()[0].object_index, 2u);
  EXPECT_EQ(solids.statics()[0].box.min, (Vec3{-3, 0, 2.8f}));
  ASSERT_EQ(solids.tracks().size(), 1u);
  const KinematicTrack& lift = solids.tracks()[0];
  EXPECT_EQ(lift.object_index, 0u);
  const MovingBox next = moving_box(lift, MoverState{0.5, 0.01});
  EXPECT_FLOAT_EQ(next.start.max.y, 0.2f + 1.5f);
  EXPECT_NEAR(next.delta_m.y, 0.03f, 1e-6f);
  const MovingBox third = moving_box(lift, MoverState{0.5, 0.01}, 3);
  EXPECT_NEAR(third.start.max.y, 0.2f + 1.56f, 1e-5f) << "two ticks along the trajectory";
  const MovingBox past_the_end = moving_box(lift, MoverState{0.995, 0.01});
  EXPECT_NEAR(past_the_end.delta_m.y, 0.015f, 1e-6f) << "the fraction stops at 1";
  EXPECT_EQ(map_solid_boxes(map).size(), map.boxes().size() + 1);
}

TEST(ObjectSolids, AStaticColliderStopsAPawnUntilItsObjectIsDespawned) {
  Rig rig(map_with(kWall));
  rig.stand({0, 0, 0}, 0);
  const auto walk = [&](int ticks) {
    for (int i = 0; i < ticks; ++i) {
      ++rig.now;
      TickInput input = rigs::still_input(static_cast<uint32_t>(rig.now), 0);
      input.cmd.move_y = 1.0f;
      rig.game.step_pawn(rig.pawn, input, Tick::from_value(rig.now), rigs::kRigDt);
      rig.game.step_world(Tick::from_value(rig.now), rigs::kRigDt);
    }
  };
  walk(90);
  EXPECT_NEAR(rig.game.pawn(rig.pawn)->feet.z, 2.8f - 0.3f, 0.01f) << "stopped at the wall's face";
  ASSERT_TRUE(rig.game.despawn_object(rig.index("wall")));
  walk(60);
  EXPECT_GT(rig.game.pawn(rig.pawn)->feet.z, 4.0f) << "its body went with it";
}

// The timer cycles the lift; the pawn standing on it rides every leg, its feet on the top.
TEST(ObjectSolids, ALiftCarriesItsRiderUpAndDown) {
  Rig rig(map_with(kLift));
  rig.stand({0.5f, 0.25f, 0.5f}, 0);
  rig.ticks(10);
  const auto top = [&] { return 0.2f + 3.0f * rig.channel("lift", 0); };
  float worst = 0, highest = 0;
  int legs_seen = 0;
  float last_fraction = rig.channel("lift", 0);
  for (int t = 0; t < 60 * 60; ++t) {  // a minute
    rig.tick();
    const float fraction = rig.channel("lift", 0);
    if ((fraction == 1.0f || fraction == 0.0f) && fraction != last_fraction) ++legs_seen;
    last_fraction = fraction;
    const float feet = rig.game.pawn(rig.pawn)->feet.y;
    highest = std::max(highest, feet);
    worst = std::max(worst, std::fabs(feet - top()));
  }
  std::printf("[ movers ] a minute on the timer's lift: %d legs, highest feet %.3f m, worst |feet - top| %.5f m\n", legs_seen,
              highest, worst);
  EXPECT_GE(legs_seen, 19) << "a toggle every 3 s, 2 s of travel each";
  EXPECT_GT(highest, 3.1f);
  EXPECT_LT(worst, 0.002f) << "on the top (the contact skin) every tick: the body moved as its logic then did";
}

// The seed's example: a plate in a folder on a lift rides the lift, and a lamp on the plate rides
// too. The lamp's collider moves with the lift (a body under a mover is dynamic), the plate's touch
// volume too: a pawn riding up on the plate keeps it pressed all the way; a prop stops the chain.
const std::string kCarried =
    R"({"key": "lift/folder", "kind": "folder", "position": [0, 0.2, 0]},)"
    R"({"key": "lift/folder/plate", "kind": "plate", "position": [0.5, 0.25, 0.5], "components": [{"name": "plate", "bits": 0,)"
    R"( "settings": {"half_extents": [0.6, 0.3, 0.6]}}]},)"
    R"({"key": "lift/folder/plate/lamp", "kind": "light", "position": [-1.5, 0.7, -1.5], "components": [{"name": "light",)"
    R"( "channels": [1, 1, 1, 1]}, {"name": "collider", "settings": {"half_extents": [0.2, 0.5, 0.2]}}]},)"
    R"({"key": "lift/crate", "kind": "crate_prop", "position": [1.5, 0.7, -1.5], "components": [{"name": "physics_prop",)"
    R"( "channels": [10]}]},)"
    R"({"key": "lift/crate/tag", "kind": "light", "position": [1.5, 1.5, -1.5], "components": [{"name": "light",)"
    R"( "channels": [1, 1, 1, 1]}, {"name": "collider"}]})";

TEST(ObjectHierarchy, AChildFollowsItsParentThroughFoldersAndKinds) {
  const Map map = rigs::load_rig_map(map_with(kLift + "," + kCarried));
  const ObjectHierarchy h = ObjectHierarchy::build(map);
  const auto at = [&](std::string_view key) { return *map.object_index(key); };
  EXPECT_EQ(h.parent(at("lift/folder/plate/lamp")), at("lift/folder/plate"));
  EXPECT_EQ(h.parent(at("lift/folder")), at("lift"));
  EXPECT_FALSE(h.parent(at("lift")).has_value());
  EXPECT_EQ(h.driver(at("lift")), at("lift")) << "a mover moves on its own";
  EXPECT_EQ(h.driver(at("lift/folder/plate/lamp")), at("lift"));
  EXPECT_FALSE(h.driver(at("lift/crate")).has_value()) << "a prop is not carried";
  EXPECT_FALSE(h.driver(at("lift/crate/tag")).has_value()) << "nor does it carry";
  EXPECT_FALSE(h.driver(at("clock")).has_value());

  const ObjectSolids solids = ObjectSolids::build(map);
  ASSERT_EQ(solids.tracks().size(), 3u);  // the lift, the plate's volume, the lamp's collider
  EXPECT_EQ(solids.tracks()[1].body.kind, BodyKind::sensor);
  EXPECT_EQ(solids.tracks()[2].driver_index, at("lift"));
  const MovingBox lamp = moving_box(solids.tracks()[2], MoverState{0.5, 0.01});
  EXPECT_NEAR(lamp.start.max.y, 0.7f + 0.5f + 1.5f, 1e-5f) << "the lamp stands half the lift's travel up";
  EXPECT_NEAR(lamp.delta_m.y, 0.03f, 1e-6f) << "and moves with it";
  EXPECT_EQ(solids.statics().size(), 1u) << "the prop's tag stays where the map put it";
}

TEST(ObjectHierarchy, APlateOnALiftStaysPressedAllTheWayUp) {
  Rig rig(map_with(kLift + "," + kCarried));
  rig.stand({0.5f, 0.25f, 0.5f}, 0);  // on the lift, on the plate
  rig.ticks(10);
  const uint32_t plate = rig.index("lift/folder/plate");
  int released_while_riding = 0, ticks_up = 0;
  float rider_error = 0;
  for (int t = 0; t < 60 * 6; ++t) {  // up, rest, down
    rig.tick();
    const float fraction = rig.channel("lift", 0);
    if (fraction > 0.0f) ++ticks_up;
    if (fraction > 0.0f && (rig.game.object_component(plate, 0).bits & 1u) == 0) ++released_while_riding;
    rider_error = std::max(rider_error, std::fabs(rig.game.pawn(rig.pawn)->feet.y - (0.2f + 3.0f * fraction)));
  }
  std::printf("[ movers ] plate on the lift: %d ticks off the ground, released %d times while riding; rider off the top by "
              "at most %.5f m\n",
              ticks_up, released_while_riding, rider_error);
  EXPECT_GT(ticks_up, 150);  // a timer beat of rest, two seconds up, a second at the top, down
  EXPECT_EQ(released_while_riding, 0) << "the plate's volume rides with the lift";
  EXPECT_LT(rider_error, 0.002f);
}

}  // namespace
}  // namespace tickwire::world
