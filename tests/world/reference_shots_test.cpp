// The reference game's shots on its own map: the claimed eye re-checked (within the tolerance
// traced, past it dropped with nothing raised), a crate struck with its material's impact, a shot
// at the sky striking nothing, one into the pool crossing the water first (at the displaced
// surface) and then striking the floor, a moving pawn struck where the shooter saw it, and the
// claimed eye checked along the shooter's own path since its render time.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "game_rig.h"
#include "tickwire/protocol/vec3_math.h"

namespace tickwire::world {
namespace {

using rigs::Rig;

FireShot shot_from(Vec3 eye, Vec3 toward, double render_tick, uint32_t number = 1) {
  const Vec3 d = toward - eye;
  FireShot shot;
  shot.shot = number;
  shot.eye = eye.to_wire();
  shot.aim = (d * (1.0f / d.length())).to_wire();
  shot.render_tick = render_tick;
  return shot;
}

std::vector<protocol::HitEvent> hits(ReferenceGame& game) {
  std::vector<protocol::HitEvent> out;
  game.take_hits(out);
  return out;
}

Vec3 eye_of(const ReferenceGame& game, EntityRef pawn) {
  const PawnState& s = *game.pawn(pawn);
  return s.feet + Vec3{0, s.eye_height_m, 0};
}

TEST(ReferenceShots, ACrateIsStruckWithItsMaterialsImpact) {
  Rig rig;
  rig.stand({0, 0, 20}, 180);
  rig.ticks(2);
  rig.game.fire(rig.pawn, shot_from(eye_of(rig.game, rig.pawn), {0, 0.5f, 12.5f}, 2.0, 7), Tick::from_value(2));
  const auto events = hits(rig.game);
  ASSERT_EQ(events.size(), 1u);
  const protocol::HitEvent& e = events[0];
  EXPECT_EQ(e.kind, protocol::HitKind::surface);
  EXPECT_EQ(e.body, protocol::HitBody::map_box);
  EXPECT_EQ(rig.map.box_surfaces()[e.body_id].tag, "crate");
  EXPECT_EQ(e.impact, "wood");
  EXPECT_EQ(e.shot, 7u);
  EXPECT_EQ(e.shooter_id, rig.pawn.handle().raw());
  EXPECT_NEAR(e.point.z, 12.5f, 1e-3f);
  EXPECT_EQ(e.normal.z, 1.0f);
}

TEST(ReferenceShots, AClaimedEyeWithinTheToleranceIsTracedAndPastItDropped) {
  Rig rig;
  rig.stand({0, 0, 20}, 180);
  rig.ticks(2);
  const Vec3 eye = eye_of(rig.game, rig.pawn);
  const double tolerance = rigs::rig_contract().limits.fire_eye_tolerance_m;
  rig.game.fire(rig.pawn, shot_from(eye + Vec3{static_cast<float>(tolerance) * 0.9f, 0, 0}, {0, 0.5f, 12.5f}, 2.0), Tick::from_value(2));
  EXPECT_EQ(hits(rig.game).size(), 1u);
  rig.game.fire(rig.pawn, shot_from(eye + Vec3{0, static_cast<float>(tolerance) * 1.1f, 0}, {0, 0.5f, 12.5f}, 2.0), Tick::from_value(2));
  EXPECT_TRUE(hits(rig.game).empty());  // nothing raised, nothing sent back
  EXPECT_EQ(rig.game.shot_drops()[ShotDrop::eye_strayed], 1u);
  EXPECT_EQ(rig.game.shots_traced(), 1u);
}

TEST(ReferenceShots, AShotAtTheSkyStrikesNothingAtItsFarEnd) {
  Rig rig;
  rig.stand({0, 0, 20}, 180);
  rig.ticks(1);
  const Vec3 eye = eye_of(rig.game, rig.pawn);
  rig.game.fire(rig.pawn, shot_from(eye, eye + Vec3{0, 1, 0}, 1.0), Tick::from_value(1));
  const auto events = hits(rig.game);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, protocol::HitKind::nothing);
  EXPECT_EQ(events[0].body, protocol::HitBody::none);
  EXPECT_NEAR(events[0].point.y, eye.y + kShotRangeM, 1e-2f);
  EXPECT_TRUE(events[0].impact.empty());
}

TEST(ReferenceShots, AShotIntoThePoolCrossesTheWaterFirstThenStrikesTheFloor) {
  Rig rig;
  ASSERT_EQ(rig.game.pools().size(), 1u);
  const WaterPool& pool = rig.game.pools()[0];
  rig.stand({24, 0, -20.4f}, 180);  // at the rim, looking over it
  for (int t = 0; t < 40; ++t) {  // a few shots as the waves roll
    rig.tick();
    const Vec3 eye = eye_of(rig.game, rig.pawn);
    rig.game.fire(rig.pawn, shot_from(eye, {24, 0, -24}, static_cast<double>(rig.now)), Tick::from_value(rig.now));
    const auto events = hits(rig.game);
    ASSERT_EQ(events.size(), 2u) << "tick " << rig.now;
    const protocol::HitEvent& water = events[0];
    const protocol::HitEvent& floor = events[1];
    EXPECT_EQ(water.kind, protocol::HitKind::water);
    EXPECT_EQ(water.impact, "water");
    EXPECT_EQ(water.body_id, pool.object_index);
    // At the displaced surface where the ray enters, not the surface at rest.
    const double time_s = static_cast<double>(rig.now) * rigs::kRigDt;
    EXPECT_NEAR(water.point.y, pool.surface_height(water.point.x, water.point.z, time_s), 2e-3f);
    EXPECT_LE(std::fabs(water.point.y - pool.basin.max.y), pool.wave_amplitude_m + 1e-4f);
    EXPECT_GT(water.normal.y, 0.9f);
    EXPECT_EQ(floor.kind, protocol::HitKind::surface);
    EXPECT_EQ(floor.impact, "concrete");
    EXPECT_NEAR(floor.point.y, 0.0f, 1e-3f);
    EXPECT_LT(water.point.z, -21.0f);                 // inside the basin
    EXPECT_GT(water.point.z, floor.point.z);          // nearer the eye than the floor
  }
}

TEST(ReferenceShots, AMovingPawnIsStruckWhereTheShooterSawIt) {
  Rig rig;
  const EntityRef target = EntityRef::make(EntityNetHandle::make(0, 2), 1);
  rig.game.spawn_pawn(target, 2, Tick::from_value(0));
  rig.stand({0, 0, 20}, 180);
  // The target strafes across x at 6 m/s, 6 m in front of the shooter.
  std::vector<float> x_at(40, 0.0f);
  for (int t = 1; t < 40; ++t) {
    x_at[static_cast<std::size_t>(t)] = -3.0f + 0.1f * static_cast<float>(t);
    rig.game.place_pawn(target, Placement{{x_at[static_cast<std::size_t>(t)], 0, 14}, {}, 0, 0, false});
    rig.tick();
  }
  const Vec3 eye = eye_of(rig.game, rig.pawn);
  const int64_t seen = rig.now - 12;  // 200 ms ago at 60 Hz (within the contract's 250 ms)
  const Vec3 drawn{x_at[static_cast<std::size_t>(seen)], 1.0f, 14.3f};  // the target's chest as drawn then (its near face)
  rig.game.fire(rig.pawn, shot_from(eye, drawn, static_cast<double>(seen)), Tick::from_value(rig.now));
  auto events = hits(rig.game);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].body, protocol::HitBody::pawn);
  EXPECT_EQ(events[0].body_id, target.handle().raw());
  EXPECT_EQ(events[0].impact, "flesh");
  // Without the rewind (the server's present), the same shot passes behind the target.
  rig.game.fire(rig.pawn, shot_from(eye, drawn, static_cast<double>(rig.now)), Tick::from_value(rig.now));
  events = hits(rig.game);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_NE(events[0].body, protocol::HitBody::pawn);
  // Between two ticks: the lerp of the two (half a tick on: 5 cm further).
  const Vec3 between{x_at[static_cast<std::size_t>(seen)] + 0.33f, 1.0f, 14.3f};  // 2 cm inside its edge then
  rig.game.fire(rig.pawn, shot_from(eye, between, static_cast<double>(seen) + 0.5), Tick::from_value(rig.now));
  events = hits(rig.game);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].body, protocol::HitBody::pawn);
  rig.game.fire(rig.pawn, shot_from(eye, between, static_cast<double>(seen)), Tick::from_value(rig.now));
  events = hits(rig.game);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_NE(events[0].body, protocol::HitBody::pawn);  // at the whole tick its edge was 3 cm short of it
}

// A shot's request can reach the server well after its shooter fired (resent after a loss, or
// behind a stall whose inputs ran on a guess): its claimed eye is checked against the pawn's eye at
// every tick since the render time too, never against where the pawn has not been.
TEST(ReferenceShots, AClaimedEyeIsCheckedAlongTheShootersPathSinceItsRenderTime) {
  Rig rig;
  // The shooter runs 6 m/s along x: 0.1 m a tick for 30 ticks, 3 m in all.
  for (int t = 0; t < 30; ++t) {
    rig.stand({-1.5f + 0.1f * static_cast<float>(t), 0, 20}, 180);
    rig.tick();
  }
  const Vec3 now_eye = eye_of(rig.game, rig.pawn);
  const Vec3 then_eye = now_eye - Vec3{2.0f, 0, 0};  // where it stood 20 ticks ago
  const Vec3 target{0, 0.5f, 12.5f};
  const auto eye_strays = [&] { return rig.game.shot_drops()[ShotDrop::eye_strayed]; };
  rig.game.fire(rig.pawn, shot_from(then_eye, target, static_cast<double>(rig.now - 24)), Tick::from_value(rig.now));
  EXPECT_EQ(eye_strays(), 0u) << "fired from where its pawn stood since the render time";
  EXPECT_EQ(rig.game.shots_traced(), 1u);
  rig.game.fire(rig.pawn, shot_from(then_eye, target, static_cast<double>(rig.now - 5)), Tick::from_value(rig.now));
  EXPECT_EQ(eye_strays(), 1u) << "its pawn stood there before the render time, not since";
  rig.game.fire(rig.pawn, shot_from(then_eye + Vec3{0, 0, 1.1f}, target, static_cast<double>(rig.now - 24)),
                Tick::from_value(rig.now));
  EXPECT_EQ(eye_strays(), 2u) << "off the path by more than the tolerance";
  rig.game.fire(rig.pawn, shot_from(now_eye + Vec3{0.9f, 0, 0}, target, static_cast<double>(rig.now - 24)),
                Tick::from_value(rig.now));
  EXPECT_EQ(eye_strays(), 2u) << "within the tolerance of its eye now";
  (void)hits(rig.game);
}

TEST(ReferenceShots, TheShooterNeverStrikesItself) {
  Rig rig;
  rig.stand({0, 0, 20}, 180);
  rig.ticks(1);
  const Vec3 feet = rig.game.pawn(rig.pawn)->feet;
  // From inside its own box, down through its feet: the floor, not the shooter.
  rig.game.fire(rig.pawn, shot_from(eye_of(rig.game, rig.pawn), feet + Vec3{0, -1, 0}, 1.0), Tick::from_value(1));
  const auto events = hits(rig.game);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].body, protocol::HitBody::map_box);
  EXPECT_EQ(events[0].impact, "concrete");
}

}  // namespace
}  // namespace tickwire::world
