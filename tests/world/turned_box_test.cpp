// Turned boxes: an unturned one answers exactly as the axis-aligned sweep does; a turned one stops a
// pawn's box at its faces (not the box enclosing it), lets it stand on its top, and keeps the
// shallow-overlap and inside rules.
#include "tickwire/world/turned_box.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace tickwire::world {
namespace {

constexpr Aabb kUnit{{0, 0, 0}, {1, 1, 1}};

Quat yaw(float degrees) {
  const float half = degrees * 3.14159265f / 360.0f;
  return Quat{0, std::sin(half), 0, std::cos(half)};
}

TEST(TurnedBox, UnturnedAnswersAsTheAlignedSweep) {
  const Aabb aligned{{3, 0, 0}, {4, 1, 1}};
  const std::vector<TurnedBox> turned{TurnedBox::of({3.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, Quat{})};
  for (float delta : {100.0f, -100.0f, 1.5f, 2.5f}) {
    const SweepResult a = sweep_axis(kUnit, Axis::x, delta, std::span<const Aabb>(&aligned, 1));
    const SweepResult t = sweep_axis(kUnit, Axis::x, delta, turned);
    EXPECT_EQ(a.blocked, t.blocked) << delta;
    EXPECT_NEAR(a.moved_m, t.moved_m, 1e-5f) << delta;
  }
  EXPECT_FALSE(overlaps(kUnit, turned[0]));
  EXPECT_TRUE(overlaps(Aabb{{2.9f, 0, 0}, {3.1f, 1, 1}}, turned[0]));
}

TEST(TurnedBox, StopsAtTheTurnedFaceNotTheEnclosingBox) {
  // A unit cube turned 45 degrees about y, centred at x = 4: its corner points at the pawn, at
  // x = 4 - 0.707; the enclosing box's face would stand there too, but off the corner's line
  // (z 0.4 above the centre line) the face is 0.4 further.
  const TurnedBox crate = TurnedBox::of({4, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, yaw(45));
  const float corner_x = 4 - std::sqrt(0.5f);
  const SweepResult head_on = sweep_axis(kUnit, Axis::x, 10, std::span<const TurnedBox>(&crate, 1));
  EXPECT_TRUE(head_on.blocked);
  EXPECT_NEAR(1 + head_on.moved_m, corner_x, 0.002f);
  EXPECT_LT(1 + head_on.moved_m, corner_x);
  const Aabb off_line{{0, 0, 0.9f}, {1, 1, 1.9f}};  // its min z 0.4 past the crate's centre line
  const SweepResult beside = sweep_axis(off_line, Axis::x, 10, std::span<const TurnedBox>(&crate, 1));
  EXPECT_TRUE(beside.blocked);
  EXPECT_NEAR(1 + beside.moved_m, corner_x + 0.4f, 0.002f);  // the face slopes away at 45 degrees
  const Aabb stopped{{beside.moved_m, 0, 0.9f}, {1 + beside.moved_m, 1, 1.9f}};
  EXPECT_FALSE(overlaps(stopped, crate));
  const Aabb enclosed = crate.bounds();
  EXPECT_NEAR(enclosed.min.x, corner_x, 1e-5f);
  EXPECT_NEAR(enclosed.max.y, 1.0f, 1e-5f);
}

TEST(TurnedBox, APawnLandsOnATurnedTopAndPassesBesideIt) {
  const TurnedBox crate = TurnedBox::of({0.5f, -0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, yaw(30));
  const Aabb above{{0.2f, 1, 0.2f}, {0.8f, 2, 0.8f}};
  const SweepResult fall = sweep_axis(above, Axis::y, -5, std::span<const TurnedBox>(&crate, 1));
  EXPECT_TRUE(fall.blocked);
  EXPECT_NEAR(fall.moved_m, -(1 - kContactSkinM), 1e-5f);
  const Aabb far_side{{3, 1, 0}, {4, 2, 1}};  // well clear: nothing stops a fall
  EXPECT_FALSE(sweep_axis(far_side, Axis::y, -5, std::span<const TurnedBox>(&crate, 1)).blocked);
}

TEST(TurnedBox, ShallowEntryMayNotGoDeeperAndDeepInsideIsFree) {
  const TurnedBox crate = TurnedBox::of({2, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, yaw(10));
  // Entered by 2 cm on the near side: further in is refused, back out is free.
  const Aabb before{{-1, 0, 0.3f}, {0, 1, 0.7f}};
  const float met_m = sweep_axis(before, Axis::x, 5, std::span<const TurnedBox>(&crate, 1)).moved_m;
  const float in_m = met_m + kContactSkinM + 0.02f;
  const Aabb pressed{{before.min.x + in_m, 0, 0.3f}, {before.max.x + in_m, 1, 0.7f}};
  ASSERT_TRUE(overlaps(pressed, crate));
  const SweepResult in = sweep_axis(pressed, Axis::x, 0.5f, std::span<const TurnedBox>(&crate, 1));
  EXPECT_TRUE(in.blocked);
  EXPECT_EQ(in.moved_m, 0.0f);
  EXPECT_FALSE(sweep_axis(pressed, Axis::x, -0.5f, std::span<const TurnedBox>(&crate, 1)).blocked);
  // Deep inside (placed there): free to walk out either way.
  const Aabb inside{{1.8f, 0.3f, 0.3f}, {2.2f, 0.7f, 0.7f}};
  EXPECT_FALSE(sweep_axis(inside, Axis::x, 3, std::span<const TurnedBox>(&crate, 1)).blocked);
}

TEST(TurnedBox, FixedSolidsTakeTheNearerOfBothKinds) {
  const std::vector<Aabb> boxes{{{6, 0, 0}, {7, 1, 1}}};
  const std::vector<TurnedBox> turned{TurnedBox::of({3.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, yaw(20))};
  const FixedSolids both{boxes, turned};
  const SweepResult r = sweep_axis(kUnit, Axis::x, 10, both);
  EXPECT_TRUE(r.blocked);
  EXPECT_LT(r.moved_m, 3.0f);
  const FixedSolids aligned_only{boxes, {}};
  EXPECT_NEAR(sweep_axis(kUnit, Axis::x, 10, aligned_only).moved_m, 5 - kContactSkinM, 1e-5f);
  EXPECT_TRUE(overlaps_any(Aabb{{3.4f, 0.4f, 0.4f}, {3.6f, 0.6f, 0.6f}}, both));
  EXPECT_FALSE(overlaps_any(Aabb{{4.5f, 0, 0}, {5.5f, 1, 1}}, both));
}

}  // namespace
}  // namespace tickwire::world
