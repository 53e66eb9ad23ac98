// PawnPlacer: a placement sets where the pawn stands, how it moves, looks and stands, keeps the
// server-owned flags, and bumps the placement epoch by one, wrapping 255 -> 0.
#include "tickwire/world/pawn_placer.h"

#include <gtest/gtest.h>

#include <cmath>

#include "support.h"
#include "tickwire/world/pawn_spawn_epoch.h"

namespace tickwire::world {
namespace {

TEST(PawnSpawnEpoch, BumpsByOneAndWraps) {
  PawnSpawnEpoch epoch;
  EXPECT_EQ(epoch.value, 0);
  epoch.bump();
  EXPECT_EQ(epoch.value, 1);
  epoch.value = 255;
  epoch.bump();
  EXPECT_EQ(epoch.value, 0);
  EXPECT_EQ(epoch, PawnSpawnEpoch{0});
  EXPECT_NE(epoch, PawnSpawnEpoch{1});
}

TEST(PawnPlacer, SetsTheTransformStanceAndBumpsTheEpoch) {
  MoverSettings settings;
  PawnPlacer placer;
  PawnState pawn;
  pawn.grounded = true;
  pawn.noclip = true;
  pawn.frozen = true;
  placer.place(pawn, {{1, 2, 3}, {4, 5, 6}, 270.0f, -30.0f, /*crouched=*/true}, settings);
  EXPECT_EQ(pawn.feet, (Vec3{1, 2, 3}));
  EXPECT_EQ(pawn.velocity_mps, (Vec3{4, 5, 6}));
  EXPECT_EQ(pawn.yaw_deg, 270.0f);
  EXPECT_EQ(pawn.pitch_deg, -30.0f);
  EXPECT_TRUE(pawn.crouched);
  EXPECT_EQ(pawn.stance_height_m, settings.crouched_height_m);
  EXPECT_EQ(pawn.eye_height_m, settings.crouched_eye_m);
  EXPECT_FALSE(pawn.grounded);  // the next step finds the floor
  EXPECT_TRUE(pawn.noclip);     // server-owned flags are not the placer's
  EXPECT_TRUE(pawn.frozen);
  EXPECT_EQ(pawn.placement_epoch.value, 1);
  placer.place(pawn, {{0, 0, 0}, {}, 0.0f, 0.0f, false}, settings);
  EXPECT_FALSE(pawn.crouched);
  EXPECT_EQ(pawn.stance_height_m, settings.standing_height_m);
  EXPECT_EQ(pawn.eye_height_m, settings.standing_eye_m);
  EXPECT_EQ(pawn.placement_epoch.value, 2);
  EXPECT_EQ(placer.placements(), 2u);
}

TEST(PawnPlacer, EveryPlacementBumpsTheEpochWhichWrapsAfter256) {
  MoverSettings settings;
  PawnPlacer placer;
  PawnState pawn;
  for (int i = 1; i <= 300; ++i) {
    placer.place(pawn, {{static_cast<float>(i), 0, 0}, {}, 0.0f, 0.0f, false}, settings);
    ASSERT_EQ(pawn.placement_epoch.value, static_cast<uint8_t>(i % 256)) << i;
  }
  EXPECT_EQ(placer.placements(), 300u);
}

TEST(PawnPlacer, RefusesANonFinitePlacement) {
  tickwire::test::ThrowOnAssert throws;
  MoverSettings settings;
  PawnPlacer placer;
  PawnState pawn;
  EXPECT_THROW(placer.place(pawn, {{NAN, 0, 0}, {}, 0.0f, 0.0f, false}, settings), tickwire::test::AssertionFailure);
  EXPECT_THROW(placer.place(pawn, {{0, 0, 0}, {}, 0.0f, 91.0f, false}, settings), tickwire::test::AssertionFailure);
  EXPECT_EQ(pawn.placement_epoch.value, 0);
  EXPECT_EQ(placer.placements(), 0u);
}

}  // namespace
}  // namespace tickwire::world
