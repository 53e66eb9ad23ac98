// The character mover, one behaviour per test with the figure it must produce: walk and run
// distances, the jump apex, falls that land on the floor and on a crate, a wall slide, no tunnelling,
// crouch heights and the ceiling that refuses standing up, noclip at 400 m/s, frozen.
#include "tickwire/world/character_mover.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "mover_rig.h"
#include "support.h"
#include "tickwire/world/box_sweep.h"

namespace tickwire::world {
namespace {

using test::idle_cmd;
using test::kTickS;
using test::move_cmd;
using test::MoverRig;

// On a floor and no longer falling (a pawn within the ground probe is grounded a tick or two before
// it touches down).
bool landed(const PawnState& pawn) { return pawn.grounded && pawn.velocity_mps.y == 0.0f; }

// Accelerating from rest at a m/s^2 to v m/s costs v^2 / (2a) metres against cruising the whole time.
float distance_after_one_second(float speed_mps, float accel_mps2) {
  return speed_mps - speed_mps * speed_mps / (2.0f * accel_mps2);
}

TEST(CharacterMover, WalksAtWalkSpeedForOneSecond) {
  MoverRig rig;
  rig.stand_at({0, 0, 0});
  ASSERT_TRUE(rig.pawn.grounded);
  rig.run(move_cmd(0.0f), 60);
  EXPECT_FLOAT_EQ(rig.pawn.velocity_mps.z, 4.0f);
  EXPECT_NEAR(rig.pawn.feet.z, distance_after_one_second(4.0f, 60.0f), 1e-3f);  // 3.8667 m
  EXPECT_FLOAT_EQ(rig.pawn.feet.x, 0.0f);
  EXPECT_NEAR(rig.pawn.feet.y, 0.0f, 2 * kContactSkinM);
  EXPECT_TRUE(rig.pawn.grounded);
}

TEST(CharacterMover, RunsFasterThanItWalks) {
  MoverRig rig;
  rig.stand_at({0, 0, 0}, 90.0f);
  rig.run(move_cmd(90.0f, 1.0f, kButtonRun), 60);
  EXPECT_FLOAT_EQ(rig.pawn.velocity_mps.x, 7.0f);
  EXPECT_NEAR(rig.pawn.feet.x, distance_after_one_second(7.0f, 60.0f), 1e-3f);  // 6.5917 m
  EXPECT_NEAR(rig.pawn.feet.z, 0.0f, 1e-5f);
}

TEST(CharacterMover, DiagonalInputIsNoFasterThanStraight) {
  MoverRig rig;
  rig.stand_at({0, 0, 0});
  rig.run(move_cmd(0.0f, 1.0f, 0, 1.0f), 60);
  const Vec3 v = rig.pawn.velocity_mps;
  EXPECT_NEAR(std::sqrt(v.x * v.x + v.z * v.z), 4.0f, 1e-4f);
  EXPECT_NEAR(v.x, v.z, 1e-5f);
}

TEST(CharacterMover, StopsWhenTheInputStops) {
  MoverRig rig;
  rig.stand_at({0, 0, 0});
  rig.run(move_cmd(0.0f), 60);
  rig.run(idle_cmd(), 10);  // brakes at 60 m/s^2: 4 m/s is gone in 4 ticks
  EXPECT_EQ(rig.pawn.velocity_mps.z, 0.0f);
}

TEST(CharacterMover, JumpApexIsVSquaredOverTwoG) {
  MoverRig rig;
  rig.stand_at({0, 0, 0});
  const float start_y = rig.pawn.feet.y;
  rig.run(move_cmd(0.0f, 0.0f, kButtonJump), 1);
  EXPECT_FALSE(rig.pawn.grounded);
  float apex_y = rig.pawn.feet.y;
  int airborne_ticks = 1;
  while (!landed(rig.pawn) && airborne_ticks < 200) {
    rig.run(idle_cmd(), 1);
    apex_y = std::max(apex_y, rig.pawn.feet.y);
    ++airborne_ticks;
  }
  const float expected_m = 5.0f * 5.0f / (2.0f * 9.81f);  // 1.2742 m
  EXPECT_NEAR(apex_y - start_y, expected_m, 0.01f);
  // Flight time 2v/g = 1.019 s = 61.2 ticks.
  EXPECT_GE(airborne_ticks, 60);
  EXPECT_LE(airborne_ticks, 63);
  EXPECT_NEAR(rig.pawn.feet.y, start_y, 2 * kContactSkinM);
}

TEST(CharacterMover, JumpsOnlyWhenGrounded) {
  MoverRig rig;
  rig.place({0, 5, 0});
  rig.run(move_cmd(0.0f, 0.0f, kButtonJump), 1);
  EXPECT_LT(rig.pawn.velocity_mps.y, 0.0f);  // mid-air: the jump button does nothing
  EXPECT_LT(rig.pawn.feet.y, 5.0f);
}

TEST(CharacterMover, FallsUnderGravityAndLandsOnTheFloor) {
  MoverRig rig;
  rig.place({0, 10, 0});
  rig.run(idle_cmd(), 30);  // 0.5 s: fallen g t^2 / 2 = 1.226 m, at g t = 4.905 m/s
  EXPECT_NEAR(rig.pawn.feet.y, 10.0f - 0.5f * 9.81f * 0.25f, 1e-3f);
  EXPECT_NEAR(rig.pawn.velocity_mps.y, -4.905f, 1e-3f);
  int ticks = 30;
  while (!landed(rig.pawn) && ticks < 300) {
    rig.run(idle_cmd(), 1);
    ++ticks;
  }
  EXPECT_NEAR(static_cast<float>(ticks) * kTickS, std::sqrt(2.0f * 10.0f / 9.81f), 2 * kTickS);  // 1.428 s
  EXPECT_GE(rig.pawn.feet.y, 0.0f);
  EXPECT_LE(rig.pawn.feet.y, 2 * kContactSkinM);
  EXPECT_EQ(rig.pawn.velocity_mps.y, 0.0f);
  rig.run(idle_cmd(), 120);  // and stays there
  EXPECT_TRUE(rig.pawn.grounded);
  EXPECT_LE(rig.pawn.feet.y, 2 * kContactSkinM);
}

TEST(CharacterMover, LandsOnACrateTop) {
  MoverRig rig;
  rig.boxes.push_back({{-0.5f, 0.0f, -0.5f}, {0.5f, 1.0f, 0.5f}});
  rig.place({0, 3, 0});
  rig.run(idle_cmd(), 120);
  EXPECT_TRUE(rig.pawn.grounded);
  EXPECT_GE(rig.pawn.feet.y, 1.0f);
  EXPECT_LE(rig.pawn.feet.y, 1.0f + 2 * kContactSkinM);
}

TEST(CharacterMover, RunningJumpLandsOnACrateItCannotWalkInto) {
  MoverRig rig;
  rig.boxes.push_back({{-1.0f, 0.0f, 2.0f}, {1.0f, 0.5f, 20.0f}});  // 0.5 m tall, its near face at z = 2
  rig.stand_at({0, 0, 0});
  rig.run(move_cmd(0.0f, 1.0f, kButtonRun), 60);
  EXPECT_NEAR(rig.pawn.feet.z, 2.0f - 0.3f - kContactSkinM, 1e-4f);  // no step-up: the side stops it
  EXPECT_EQ(rig.pawn.velocity_mps.z, 0.0f);
  rig.run(move_cmd(0.0f, 1.0f, kButtonRun | kButtonJump), 1);
  rig.run(move_cmd(0.0f, 1.0f, kButtonRun), 60);
  EXPECT_TRUE(rig.pawn.grounded);
  EXPECT_NEAR(rig.pawn.feet.y, 0.5f, 2 * kContactSkinM);
  EXPECT_GT(rig.pawn.feet.z, 2.0f);
}

TEST(CharacterMover, SlidesAlongAWallKeepingTheTangentialComponent) {
  MoverRig rig;
  rig.boxes.push_back({{1.0f, 0.0f, -100.0f}, {1.1f, 3.0f, 100.0f}});  // a wall across +x
  rig.stand_at({0, 0, 0}, 45.0f);
  rig.run(move_cmd(45.0f), 120);
  const float tangential_mps = 4.0f * std::sin(45.0f * 3.14159265f / 180.0f);  // 2.828 m/s
  EXPECT_EQ(rig.pawn.velocity_mps.x, 0.0f);
  EXPECT_NEAR(rig.pawn.velocity_mps.z, tangential_mps, 1e-3f);
  EXPECT_NEAR(rig.pawn.feet.x, 1.0f - 0.3f - kContactSkinM, 1e-4f);
  EXPECT_GT(rig.pawn.feet.z, 2.0f * tangential_mps - 0.2f);  // lost only the first ticks' acceleration
  EXPECT_TRUE(rig.pawn.grounded);
}

TEST(CharacterMover, DoesNotTunnelThroughAThinWall) {
  // 0.12 m and 1.67 m per 60 Hz tick against a 0.1 m wall (a 0.6 m pawn clears it whole at 100 m/s).
  for (float run_mps : {7.0f, 100.0f}) {
    MoverSettings settings;
    settings.run_speed_mps = run_mps;
    MoverRig rig(settings);
    rig.boxes.push_back({{-50.0f, 0.0f, 2.0f}, {50.0f, 3.0f, 2.1f}});
    const float contact_z = 2.0f - 0.3f - kContactSkinM;
    rig.stand_at({0, 0, 1.2f});
    rig.pawn.velocity_mps = {0, 0, run_mps};
    rig.run(move_cmd(0.0f, 1.0f, kButtonRun), 60);
    EXPECT_NEAR(rig.pawn.feet.z, contact_z, 1e-4f) << run_mps;
    EXPECT_EQ(rig.pawn.velocity_mps.z, 0.0f) << run_mps;
    // One long step (16 substeps, 0.27 s) is swept too.
    rig.stand_at({0, 0, 0});
    rig.pawn.velocity_mps = {0, 0, run_mps};
    rig.pawn = rig.mover.step(rig.pawn, move_cmd(0.0f, 1.0f, kButtonRun), 16 * kTickS, rig.boxes);
    EXPECT_LE(rig.pawn.feet.z, contact_z + 1e-4f) << run_mps;
  }
}

TEST(CharacterMover, CrouchChangesStanceEyeAndSpeed) {
  MoverRig rig;
  rig.stand_at({0, 0, 0});
  EXPECT_FLOAT_EQ(rig.pawn.stance_height_m, 1.8f);
  EXPECT_FLOAT_EQ(rig.pawn.eye_height_m, 1.6f);
  protocol::InputCmd crouch = move_cmd(0.0f, 1.0f, kButtonRun);
  crouch.buttons |= kButtonCrouch;
  rig.run(crouch, 60);
  EXPECT_TRUE(rig.pawn.crouched);
  EXPECT_FLOAT_EQ(rig.pawn.stance_height_m, 1.0f);
  EXPECT_FLOAT_EQ(rig.pawn.eye_height_m, 0.8f);
  EXPECT_FLOAT_EQ(rig.pawn.velocity_mps.z, 2.0f);  // crouch speed, even with run held
  rig.run(idle_cmd(), 1);
  EXPECT_FALSE(rig.pawn.crouched);
  EXPECT_FLOAT_EQ(rig.pawn.stance_height_m, 1.8f);
  EXPECT_FLOAT_EQ(rig.pawn.eye_height_m, 1.6f);
}

TEST(CharacterMover, CannotStandUpUnderALowCeiling) {
  MoverRig rig;
  rig.boxes.push_back({{-5.0f, 1.5f, -5.0f}, {5.0f, 2.0f, 1.0f}});  // a 1.5 m ceiling up to z = 1
  rig.place({0, 0, 0}, 0.0f, /*crouched=*/true);
  rig.run(idle_cmd(), 30);
  EXPECT_TRUE(rig.pawn.crouched);
  EXPECT_FLOAT_EQ(rig.pawn.stance_height_m, 1.0f);
  EXPECT_FLOAT_EQ(rig.pawn.eye_height_m, 0.8f);
  // Walking out (crouch released, crouch speed): stands up once the standing box clears z = 1.
  // The stance is taken before the tick's move, so the position it was checked at is the one before.
  float stood_at_z = -1.0f;
  for (int i = 0; i < 120 && stood_at_z < 0.0f; ++i) {
    const float z_before = rig.pawn.feet.z;
    rig.run(move_cmd(0.0f), 1);
    if (!rig.pawn.crouched) stood_at_z = z_before;
  }
  EXPECT_GE(stood_at_z, 1.0f + 0.3f);
  EXPECT_LE(stood_at_z, 1.0f + 0.3f + 2.0f * kTickS + 1e-5f);  // the first tick clear, at crouch speed
  EXPECT_FLOAT_EQ(rig.pawn.stance_height_m, 1.8f);
}

TEST(CharacterMover, HitsItsHeadOnACeilingWhenJumping) {
  MoverRig rig;
  rig.boxes.push_back({{-5.0f, 2.3f, -5.0f}, {5.0f, 3.0f, 5.0f}});
  rig.stand_at({0, 0, 0});
  float apex_y = 0.0f;
  rig.run(move_cmd(0.0f, 0.0f, kButtonJump), 1);
  for (int i = 0; i < 90; ++i) {
    rig.run(idle_cmd(), 1);
    apex_y = std::max(apex_y, rig.pawn.feet.y);
  }
  EXPECT_NEAR(apex_y, 2.3f - 1.8f - kContactSkinM, 1e-4f);  // 0.5 m, not 1.27 m
  EXPECT_TRUE(rig.pawn.grounded);
}

TEST(CharacterMover, NoclipFliesAt400ThroughBoxesAlongTheLook) {
  MoverSettings settings;
  settings.noclip_speed_mps = 400.0f;
  MoverRig rig(settings);
  for (int i = 1; i <= 10; ++i) {  // ten walls across the flight path
    const float x = 30.0f * static_cast<float>(i);
    rig.boxes.push_back({{x, -10.0f, -10.0f}, {x + 1.0f, 10.0f, 10.0f}});
  }
  rig.place({0, 1, 0}, 90.0f);
  rig.pawn.noclip = true;
  rig.run(move_cmd(90.0f), 60);
  EXPECT_NEAR(rig.pawn.feet.x, 400.0f, 0.05f);
  EXPECT_FLOAT_EQ(rig.pawn.feet.y, 1.0f);  // no gravity
  EXPECT_NEAR(rig.pawn.feet.z, 0.0f, 1e-3f);
  EXPECT_NEAR(rig.pawn.velocity_mps.x, 400.0f, 1e-3f);
  // Pitched up 30 degrees: 400 m/s along the look, 200 m/s of it upward.
  protocol::InputCmd climb = move_cmd(90.0f);
  climb.pitch_deg = 30.0f;
  rig.run(climb, 60);
  EXPECT_NEAR(rig.pawn.feet.y, 201.0f, 0.05f);
  EXPECT_NEAR(rig.pawn.feet.x, 400.0f + 400.0f * std::sqrt(3.0f) / 2.0f, 0.05f);
  EXPECT_FALSE(rig.pawn.grounded);
  // No input: hovers.
  const Vec3 hover = rig.pawn.feet;
  rig.run(idle_cmd(90.0f), 60);
  EXPECT_EQ(rig.pawn.feet, hover);
}

TEST(CharacterMover, FrozenNeverMoves) {
  MoverRig rig;
  rig.place({0, 5, 0});
  rig.pawn.velocity_mps = {3, 2, 1};
  rig.pawn.frozen = true;
  const PawnState before = rig.pawn;
  protocol::InputCmd everything = move_cmd(123.0f, 1.0f, kButtonJump | kButtonRun, 1.0f);
  everything.buttons |= kButtonCrouch;
  everything.pitch_deg = -20.0f;
  rig.run(everything, 600);
  EXPECT_EQ(rig.pawn.feet, before.feet);  // in mid-air, and still not falling
  EXPECT_EQ(rig.pawn.velocity_mps, Vec3{});
  EXPECT_EQ(rig.pawn.crouched, before.crouched);
  EXPECT_EQ(rig.pawn.stance_height_m, before.stance_height_m);
  EXPECT_EQ(rig.pawn.yaw_deg, 123.0f);  // the look still turns
  EXPECT_EQ(rig.pawn.pitch_deg, -20.0f);
}

TEST(CharacterMover, SubstepsKeepA30HzStepLikeTwo60HzSteps) {
  MoverRig at60, at30;
  at60.place({0, 10, 0});
  at30.place({0, 10, 0});
  for (int i = 0; i < 30; ++i) {
    at60.run(move_cmd(0.0f), 2);
    at30.pawn = at30.mover.step(at30.pawn, move_cmd(0.0f), 2 * kTickS, at30.boxes);
  }
  EXPECT_NEAR(at30.pawn.feet.y, at60.pawn.feet.y, 1e-4f);
  EXPECT_NEAR(at30.pawn.feet.z, at60.pawn.feet.z, 1e-4f);
}

// The longest step a room asks (1 Hz at time scale 4: four seconds) is 240 substeps, within the
// bound: a slow room's pawn falls and walks as one at 60 Hz would.
TEST(CharacterMover, TheLongestStepARoomAsksIsTakenLikeItsSixtyHertzSteps) {
  MoverRig at60, slow;
  at60.place({0, 10, 0});
  slow.place({0, 10, 0});
  at60.run(move_cmd(0.0f), 240);
  slow.pawn = slow.mover.step(slow.pawn, move_cmd(0.0f), 240 * kTickS, slow.boxes);
  EXPECT_NEAR(slow.pawn.feet.y, at60.pawn.feet.y, 1e-3f);
  EXPECT_NEAR(slow.pawn.feet.z, at60.pawn.feet.z, 1e-3f);
  EXPECT_GT(slow.pawn.feet.z, 10.0f) << "it walked";
  EXPECT_TRUE(slow.pawn.grounded) << "it fell to the floor and stands on it";
}

TEST(CharacterMover, ProgrammerErrorsAssert) {
  tickwire::test::ThrowOnAssert throws;
  MoverSettings bad;
  bad.crouched_height_m = 2.0f;  // taller than standing
  EXPECT_THROW(CharacterMover{bad}, tickwire::test::AssertionFailure);
  bad = {};
  bad.noclip_speed_mps = 5000.0f;
  EXPECT_THROW(CharacterMover{bad}, tickwire::test::AssertionFailure);
  MoverRig rig;
  EXPECT_THROW((void)rig.mover.step(rig.pawn, idle_cmd(), (kMaxMoverSubsteps + 1) * kTickS, rig.boxes),
               tickwire::test::AssertionFailure);
  EXPECT_THROW((void)rig.mover.step(rig.pawn, idle_cmd(), -kTickS, rig.boxes), tickwire::test::AssertionFailure);
}

TEST(CharacterMover, NonFiniteInputIsIgnored) {
  MoverRig rig;
  rig.stand_at({0, 0, 0}, 10.0f);
  protocol::InputCmd junk = move_cmd(NAN, NAN);
  junk.pitch_deg = INFINITY;
  rig.run(junk, 10);
  EXPECT_EQ(rig.pawn.yaw_deg, 10.0f);
  EXPECT_EQ(rig.pawn.pitch_deg, 0.0f);
  EXPECT_EQ(rig.pawn.velocity_mps, Vec3{});
}

}  // namespace
}  // namespace tickwire::world
