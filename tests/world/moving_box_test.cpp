// The character mover against moving boxes (a lift, a sliding platform, a door): a rider is carried
// by exactly the distance its box moves, tick after tick (100 lift cycles drift less than a
// millimetre), a pawn walking into a door stops at it, a pawn falling onto a rising lift lands on it,
// a rider carried up into a ceiling stops under it, and without moving boxes nothing changes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "mover_rig.h"
#include "support.h"
#include "tickwire/world/box_sweep.h"
#include "tickwire/world/character_mover.h"

namespace tickwire::world {
namespace {

using test::idle_cmd;
using test::kTickS;
using test::move_cmd;
using test::MoverRig;

// A 4 x 0.2 x 4 m platform whose top starts at `top_y`, centred on x = z = 0.
Aabb platform(float top_y, float x = 0.0f) { return Aabb{{x - 2.0f, top_y - 0.2f, -2.0f}, {x + 2.0f, top_y, 2.0f}}; }

struct Lift {
  MoverRig rig;
  Aabb box = platform(0.5f);
  // One tick with the box moving by `delta` (its velocity x dt), the pawn idle.
  void tick(Vec3 delta, const protocol::InputCmd& cmd = idle_cmd()) {
    const MovingBox moving{box, delta};
    rig.pawn = rig.mover.step(rig.pawn, cmd, kTickS, rig.boxes, std::span<const MovingBox>(&moving, 1));
    box = moving.at(1.0f);
  }
  float offset_y() const { return rig.pawn.feet.y - box.max.y; }
};

// Up 3 m and down again at 2 m/s, 100 times: the rider stays on the platform, its height above the
// top constant to within a millimetre, and never moves sideways.
TEST(MovingBoxes, ARiderOnALiftUpAndDownAHundredTimesDriftsUnderAMillimetre) {
  Lift lift;
  lift.rig.place({0.5f, 0.6f, 0.25f});
  for (int i = 0; i < 30; ++i) lift.tick({});  // settle onto the platform
  ASSERT_TRUE(lift.rig.pawn.grounded);
  const float start_offset = lift.offset_y();
  const Vec3 start_feet = lift.rig.pawn.feet;
  constexpr int kTicksPerLeg = 90;  // 3 m at 2 m/s
  const float step_m = 3.0f / kTicksPerLeg;
  float worst = 0.0f;
  int airborne = 0;
  for (int cycle = 0; cycle < 100; ++cycle) {
    for (float direction : {1.0f, -1.0f}) {
      for (int t = 0; t < kTicksPerLeg; ++t) {
        lift.tick({0, direction * step_m, 0});
        worst = std::max(worst, std::fabs(lift.offset_y() - start_offset));
        if (!lift.rig.pawn.grounded) ++airborne;
      }
    }
  }
  std::printf("[ movers ] 100 lift cycles (3 m at 2 m/s): rider's height over the top %.5f m, worst drift %.6f m, "
              "%d airborne ticks; box top back at %.6f m\n",
              start_offset, worst, airborne, lift.box.max.y);
  EXPECT_LT(worst, 0.001f);
  EXPECT_EQ(airborne, 0);
  EXPECT_EQ(lift.rig.pawn.feet.x, start_feet.x);
  EXPECT_EQ(lift.rig.pawn.feet.z, start_feet.z);
}

// A platform sliding along x carries its rider by exactly the platform's displacement.
TEST(MovingBoxes, ASlidingPlatformCarriesItsRiderExactly) {
  Lift lift;
  lift.rig.place({0.0f, 0.6f, 0.0f});
  for (int i = 0; i < 30; ++i) lift.tick({});
  const float relative_x = lift.rig.pawn.feet.x - lift.box.min.x;
  for (int t = 0; t < 60; ++t) lift.tick({0.05f, 0, 0});
  EXPECT_NEAR(lift.box.min.x, -2.0f + 3.0f, 1e-4f);
  EXPECT_NEAR(lift.rig.pawn.feet.x - lift.box.min.x, relative_x, 1e-4f);
  EXPECT_TRUE(lift.rig.pawn.grounded);
}

// Walking into a door (a moving box standing still, or sliding across the path) stops at it; a pawn
// walking beside a lift is not carried.
TEST(MovingBoxes, ADoorStopsAWalkerAndABoxBesideAPawnDoesNotCarryIt) {
  MoverRig rig;
  rig.stand_at({0, 0, 0});
  const Aabb door{{-1.0f, 0.0f, 2.0f}, {1.0f, 2.0f, 2.2f}};
  const MovingBox closed{door, {}};
  for (int t = 0; t < 120; ++t) rig.pawn = rig.mover.step(rig.pawn, move_cmd(0.0f), kTickS, rig.boxes, std::span(&closed, 1));
  EXPECT_NEAR(rig.pawn.feet.z + rig.settings.radius_m, 2.0f, 2 * kContactSkinM) << "stopped at the door's face";

  MoverRig beside;
  beside.stand_at({5, 0, 0});
  Aabb box = platform(0.0f);
  for (int t = 0; t < 60; ++t) {
    const MovingBox moving{box, {0.02f, 0, 0}};
    beside.pawn = beside.mover.step(beside.pawn, idle_cmd(), kTickS, beside.boxes, std::span(&moving, 1));
    box = moving.at(1.0f);
  }
  EXPECT_EQ(beside.pawn.feet.x, 5.0f) << "the platform never touched it";
}

// A pawn dropped onto a rising lift lands on it, never inside; a rider carried up into a ceiling
// stops under it while the lift goes on (then stands on it again once it comes back down).
TEST(MovingBoxes, ARisingLiftCatchesAFallerAndACeilingStopsARider) {
  Lift lift;
  lift.rig.place({0, 1.0f, 0});
  for (int t = 0; t < 60; ++t) {
    lift.tick({0, 0.04f, 0});
    ASSERT_FALSE(lift.rig.pawn.feet.y < lift.box.max.y - kContactSkinM) << "inside the lift at tick " << t;
  }
  EXPECT_TRUE(lift.rig.pawn.grounded);
  EXPECT_NEAR(lift.offset_y(), kContactSkinM, 2 * kContactSkinM);

  Lift capped;
  capped.rig.boxes.push_back(Aabb{{-10, 3.0f, -10}, {10, 3.5f, 10}});  // a ceiling at 3 m
  capped.rig.place({0, 0.6f, 0});
  for (int i = 0; i < 30; ++i) capped.tick({});
  for (int t = 0; t < 60; ++t) capped.tick({0, 0.02f, 0});  // the top rises to 1.7 m: the head reaches 3 m
  EXPECT_LE(capped.rig.pawn.feet.y + capped.rig.pawn.stance_height_m, 3.0f);
}

// With no moving boxes the step is the one it always was, bit for bit.
TEST(MovingBoxes, NoMovingBoxesChangeNothing) {
  MoverRig a, b;
  a.stand_at({0, 0, 0});
  b.stand_at({0, 0, 0});
  for (int t = 0; t < 240; ++t) {
    const protocol::InputCmd cmd = move_cmd(static_cast<float>(t), 1.0f, t % 50 == 0 ? kButtonJump : 0u);
    a.pawn = a.mover.step(a.pawn, cmd, kTickS, a.boxes);
    b.pawn = b.mover.step(b.pawn, cmd, kTickS, b.boxes, {});
    ASSERT_EQ(a.pawn.feet, b.pawn.feet) << "tick " << t;
    ASSERT_EQ(a.pawn.velocity_mps, b.pawn.velocity_mps) << "tick " << t;
    ASSERT_EQ(a.pawn.grounded, b.pawn.grounded) << "tick " << t;
  }
}

}  // namespace
}  // namespace tickwire::world
