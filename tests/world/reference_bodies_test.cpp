// The reference map's solid objects, no network: its colliders (map data) make the lift a platform
// that carries a rider up while another pawn holds its plate, and its doors and buttons boxes a
// walking pawn stops at (a door's panel short of the wall; once the door slides open, the wall).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>

#include "game_rig.h"
#include "tickwire/world/logic_bodies.h"
#include "tickwire/world/mover_pose.h"

namespace tickwire::world {
namespace {

using rigs::Rig;

constexpr float kRadiusM = MoverSettings{}.radius_m;

// Where an object's body stands with its mover (if any) at `fraction` open.
Aabb body_at(const MapObject& object, double fraction) {
  const std::optional<MoverSlide> slide = mover_slide(object);
  const Vec3 offset = slide ? mover_offset(*slide, fraction) : Vec3{};
  return body_box(logic_body_of(object), object.position + offset);
}

const MapObject& object(const Rig& rig, std::string_view key) { return rig.map.objects()[rig.index(key)]; }

// Walks the rig's pawn from `feet` along `yaw_deg` for two seconds (8 m of walking) and returns
// where it ended.
Vec3 walk_from(Rig& rig, Vec3 feet, float yaw_deg) {
  rig.stand(feet, yaw_deg);
  for (int i = 0; i < 2 * static_cast<int>(rigs::kRigHz); ++i) {
    ++rig.now;
    rig.game.step_pawn(rig.pawn, rigs::walking_input(static_cast<uint32_t>(rig.now), yaw_deg), Tick::from_value(rig.now),
                       rigs::kRigDt);
    rig.game.step_world(Tick::from_value(rig.now), rigs::kRigDt);
  }
  return rig.game.pawn(rig.pawn)->feet;
}

TEST(ReferenceBodies, TheLiftCarriesItsRiderToTheTopWhileAnotherPawnHoldsThePlate) {
  Rig rig;
  const MapObject& lift = object(rig, "lift.w");
  ASSERT_EQ(logic_body_of(lift).kind, BodyKind::kinematic);
  EXPECT_EQ(body_at(lift, 0).max.y, 0.0f) << "at rest its top is the floor";
  const float top_m = body_at(lift, 1).max.y;
  EXPECT_NEAR(top_m, 3.0f, 1e-5f) << "3 m up when open";

  const EntityRef holder = EntityRef::make(EntityNetHandle::make(0, 2), 1);
  rig.game.spawn_pawn(holder, 2, Tick::from_value(0));
  rig.game.place_pawn(holder, Placement{{-22, 0, 12}, {}, 0, 0, false});  // on plate.lift.w
  rig.stand({lift.position.x, 0, lift.position.z}, 0);                   // on the platform's middle
  float worst_m = 0;
  for (int i = 0; i < 4 * static_cast<int>(rigs::kRigHz); ++i) {
    ++rig.now;
    const uint32_t sequence = static_cast<uint32_t>(rig.now);
    rig.game.step_pawn(holder, rigs::still_input(sequence, 0), Tick::from_value(rig.now), rigs::kRigDt);
    rig.game.step_pawn(rig.pawn, rigs::still_input(sequence, 0), Tick::from_value(rig.now), rigs::kRigDt);
    rig.game.step_world(Tick::from_value(rig.now), rigs::kRigDt);
    const float platform_m = body_at(lift, rig.channel("lift.w", 0)).max.y;
    worst_m = std::max(worst_m, std::fabs(rig.game.pawn(rig.pawn)->feet.y - platform_m));
  }
  EXPECT_EQ(rig.bits("plate.lift.w") & 1, 1) << "held down all along";
  EXPECT_EQ(rig.channel("lift.w", 0), 1.0f) << "fully open";
  const PawnState& rider = *rig.game.pawn(rig.pawn);
  EXPECT_NEAR(rider.feet.y, top_m, 0.01f) << "standing on the platform's top";
  EXPECT_NEAR(rider.feet.x, lift.position.x, 0.01f);
  EXPECT_NEAR(rider.feet.z, lift.position.z, 0.01f);
  EXPECT_TRUE(rider.grounded);
  // 1 m/s: a tick's travel apart at most (a pawn's step comes before the world's), never left behind.
  EXPECT_LE(worst_m, 1.0f / rigs::kRigHz + 0.01f) << "carried tick by tick";
}

TEST(ReferenceBodies, APawnWalkingIntoAClosedDoorStopsAtItsPanelAndAtTheWallOnceItIsOpen) {
  Rig rig;
  const Aabb panel = body_at(object(rig, "door.n"), 0);
  EXPECT_LT(panel.max.z, 32.0f) << "inside the arena, short of the north wall";
  EXPECT_EQ(panel.min.y, 0.0f) << "standing on the floor";
  EXPECT_NEAR(panel.max.y, 2.5f, 1e-5f);

  const Vec3 stopped = walk_from(rig, {0, 0, 28}, 0);
  EXPECT_LE(stopped.z + kRadiusM, panel.min.z) << "never into the panel";
  EXPECT_GT(stopped.z + kRadiusM, panel.min.z - 0.05f) << "stopped at the panel";
  EXPECT_NEAR(stopped.x, 0.0f, 1e-4f);

  // Open, the door slides away from its button (-x for the north one), clear of the path.
  rig.stand({1.75f, 0, 30.25f}, 0);  // before button.n, facing it
  rig.tick(/*use=*/true);
  rig.ticks(static_cast<int>(rigs::kRigHz));
  ASSERT_EQ(rig.channel("door.n", 0), 1.0f);
  EXPECT_LE(body_at(object(rig, "door.n"), 1).max.x, -kRadiusM);
  const Vec3 through = walk_from(rig, {0, 0, 28}, 0);
  EXPECT_GT(through.z + kRadiusM, 32.0f - 0.05f) << "on to the wall";
}

TEST(ReferenceBodies, AButtonIsASolidBoxOnTheWall) {
  Rig rig;
  const MapObject& button = object(rig, "button.n");
  ASSERT_EQ(logic_body_of(button).kind, BodyKind::fixed);
  const Aabb box = body_at(button, 0);
  EXPECT_NEAR(box.max.z, 32.0f, 1e-5f) << "against the north wall";
  const Vec3 stopped = walk_from(rig, {button.position.x, 0, 28}, 0);
  EXPECT_LE(stopped.z + kRadiusM, box.min.z);
  EXPECT_GT(stopped.z + kRadiusM, box.min.z - 0.05f) << "stopped at the button, short of the wall";
}

}  // namespace
}  // namespace tickwire::world
