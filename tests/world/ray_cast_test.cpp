// Rays against boxes: the first face crossed from outside with its outward normal, nothing from
// inside, behind or past the reach, and a turned box met at its own faces.
#include "tickwire/world/ray_cast.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tickwire::world {
namespace {

constexpr Aabb kBox{{4, 0, -1}, {6, 2, 1}};

TEST(RayCast, MeetsTheNearFaceWithItsNormal) {
  const auto hit = ray_box(Ray{{0, 1, 0}, {1, 0, 0}}, kBox, 100);
  ASSERT_TRUE(hit);
  EXPECT_FLOAT_EQ(hit->distance_m, 4.0f);
  EXPECT_EQ(hit->normal, (Vec3{-1, 0, 0}));
  const auto from_above = ray_box(Ray{{5, 10, 0}, {0, -1, 0}}, kBox, 100);
  ASSERT_TRUE(from_above);
  EXPECT_FLOAT_EQ(from_above->distance_m, 8.0f);
  EXPECT_EQ(from_above->normal, (Vec3{0, 1, 0}));
}

TEST(RayCast, MissesBesideBehindPastAndFromInside) {
  EXPECT_FALSE(ray_box(Ray{{0, 3, 0}, {1, 0, 0}}, kBox, 100));   // passes over it
  EXPECT_FALSE(ray_box(Ray{{0, 1, 0}, {-1, 0, 0}}, kBox, 100));  // it is behind
  EXPECT_FALSE(ray_box(Ray{{0, 1, 0}, {1, 0, 0}}, kBox, 3.5f));  // out of reach
  EXPECT_FALSE(ray_box(Ray{{5, 1, 0}, {1, 0, 0}}, kBox, 100));   // starts inside: leaving is no hit
  const float d = std::sqrt(0.5f);
  const auto diagonal = ray_box(Ray{{0, 1, -4}, {d, 0, d}}, kBox, 100);
  ASSERT_TRUE(diagonal);
  EXPECT_NEAR(diagonal->distance_m, 4.0f / d, 1e-4f);  // enters through x = 4 at z = 0
}

TEST(RayCast, ATurnedBoxIsMetAtItsOwnFaces) {
  // A 2 m cube turned 45 degrees about y: its corner points at the ray, sqrt(2) m from the centre.
  const float half = 3.14159265f / 8.0f;
  const TurnedBox turned = TurnedBox::of({5, 1, 0}, {1, 1, 1}, Quat{0, std::sin(half), 0, std::cos(half)});
  const auto hit = ray_turned_box(Ray{{0, 1, 0.5f}, {1, 0, 0}}, turned, 100);
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->distance_m, 5.0f - std::sqrt(2.0f) + 0.5f, 1e-4f);  // the face, not the enclosing box at x = 3.59
  EXPECT_NEAR(hit->normal.length(), 1.0f, 1e-5f);
  EXPECT_LT(hit->normal.x, 0.0f);
  EXPECT_GT(hit->normal.z, 0.0f);  // the face turned toward +z
  // Unturned, it answers as the aligned box does.
  const TurnedBox straight = TurnedBox::of({5, 1, 0}, {1, 1, 1}, Quat{});
  const auto a = ray_box(Ray{{0, 1, 0.5f}, {1, 0, 0}}, Aabb{{4, 0, -1}, {6, 2, 1}}, 100);
  const auto t = ray_turned_box(Ray{{0, 1, 0.5f}, {1, 0, 0}}, straight, 100);
  ASSERT_TRUE(a && t);
  EXPECT_NEAR(a->distance_m, t->distance_m, 1e-5f);
  EXPECT_EQ(a->normal, t->normal);
}

}  // namespace
}  // namespace tickwire::world
