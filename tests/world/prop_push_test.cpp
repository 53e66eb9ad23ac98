// The push rule alone: which side a pawn leans on and which way it shoves, and the impulse that
// matches the prop's speed to the pawn's (capped) instead of adding to it.
#include <gtest/gtest.h>

#include "tickwire/world/prop_push.h"

namespace tickwire::world {
namespace {

const Aabb kCrate{{-0.5f, 0, -0.5f}, {0.5f, 1, 0.5f}};

// A pawn 0.6 m wide, 1.8 m tall, its feet at (x, y, z).
Aabb pawn_at(float x, float y, float z) { return Aabb{{x - 0.3f, y, z - 0.3f}, {x + 0.3f, y + 1.8f, z + 0.3f}}; }

TEST(PropPush, APawnAgainstASideWalkingIntoItPushesAwayFromItself) {
  const PropPushSettings settings;
  // Touching the crate's -z face (within the reach), walking +z.
  const auto direction = push_direction(pawn_at(0, 0, -0.83f), {0, 0, 4}, kCrate, settings);
  ASSERT_TRUE(direction.has_value());
  EXPECT_EQ(*direction, (Vec3{0, 0, 1}));
  // Against the +x face, walking -x (and a little sideways): pushed along -x.
  const auto from_x = push_direction(pawn_at(0.82f, 0, 0.2f), {-3, 0, 1}, kCrate, settings);
  ASSERT_TRUE(from_x.has_value());
  EXPECT_EQ(*from_x, (Vec3{-1, 0, 0}));
}

TEST(PropPush, NoPushWalkingAwayAlongOrOutOfReachOrOnTopOrUnder) {
  const PropPushSettings settings;
  EXPECT_FALSE(push_direction(pawn_at(0, 0, -0.83f), {0, 0, -4}, kCrate, settings)) << "walking away";
  EXPECT_FALSE(push_direction(pawn_at(0, 0, -0.83f), {4, 0, 0}, kCrate, settings)) << "walking along the face";
  EXPECT_FALSE(push_direction(pawn_at(0, 0, -0.9f), {0, 0, 4}, kCrate, settings)) << "out of reach";
  EXPECT_FALSE(push_direction(pawn_at(0, 1.0f, 0), {0, 0, 4}, kCrate, settings)) << "standing on it";
  EXPECT_FALSE(push_direction(pawn_at(0, -1.9f, -0.83f), {0, 0, 4}, kCrate, settings)) << "under it";
}

TEST(PropPush, TheImpulseMatchesTheSpeedAndNeverAccumulates) {
  const PropPushSettings settings;  // capped at 2.5 m/s
  const Vec3 forward{0, 0, 1};
  // At rest, walking at 2 m/s: the 10 kg crate is brought to 2 m/s (20 kg m/s).
  const Vec3 first = push_impulse({}, 10, {0, 0, 2}, forward, settings);
  EXPECT_EQ(first, (Vec3{0, 0, 20}));
  // Already at 2 m/s: nothing more, however long the pawn leans on it.
  EXPECT_EQ(push_impulse({0, 0, 2}, 10, {0, 0, 2}, forward, settings), Vec3{});
  // Running at 7 m/s: only up to the cap.
  const Vec3 running = push_impulse({0, 0, 0.5f}, 10, {0, 0, 7}, forward, settings);
  EXPECT_FLOAT_EQ(running.z, 10 * (2.5f - 0.5f));
  // Sideways velocity is the solver's business: the push only tops up its own direction.
  EXPECT_EQ(push_impulse({3, 0, 0}, 10, {0, 0, 2}, forward, settings), (Vec3{0, 0, 20}));
}

}  // namespace
}  // namespace tickwire::world
