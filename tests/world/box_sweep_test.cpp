// Axis sweeps: a move stops the contact skin short of the first box in the way however long it is,
// ignores boxes it only touches side-on or already sits inside, and a blocked move says so.
#include "tickwire/world/box_sweep.h"

#include <gtest/gtest.h>

#include <vector>

namespace tickwire::world {
namespace {

constexpr Aabb kUnit{{0, 0, 0}, {1, 1, 1}};

TEST(BoxSweep, StopsShortOfTheFirstBoxAlongTheMove) {
  const std::vector<Aabb> statics{{{5, 0, 0}, {6, 1, 1}}, {{3, 0, 0}, {3.1f, 1, 1}}};
  const SweepResult r = sweep_axis(kUnit, Axis::x, 100.0f, statics);  // the thin one at x = 3 first
  EXPECT_TRUE(r.blocked);
  EXPECT_NEAR(r.moved_m, 2.0f - kContactSkinM, 1e-6f);
  const SweepResult back = sweep_axis(kUnit, Axis::x, -100.0f, statics);  // nothing behind
  EXPECT_FALSE(back.blocked);
  EXPECT_EQ(back.moved_m, -100.0f);
  const SweepResult short_move = sweep_axis(kUnit, Axis::x, 1.5f, statics);
  EXPECT_FALSE(short_move.blocked);
  EXPECT_EQ(short_move.moved_m, 1.5f);
}

TEST(BoxSweep, IgnoresBoxesBesideTheMoveAndBoxesItIsInside) {
  const std::vector<Aabb> beside{{{3, 1, 0}, {4, 2, 1}}};  // touches the top face's plane only
  EXPECT_FALSE(sweep_axis(kUnit, Axis::x, 10.0f, beside).blocked);
  const std::vector<Aabb> around{{{-1, -1, -1}, {2, 2, 2}}};  // already inside: free to walk out
  EXPECT_FALSE(sweep_axis(kUnit, Axis::x, 10.0f, around).blocked);
  EXPECT_FALSE(sweep_axis(kUnit, Axis::y, -10.0f, around).blocked);
}

TEST(BoxSweep, DownwardMoveLandsOnATop) {
  const std::vector<Aabb> floor{{{-10, -1, -10}, {10, -0.5f, 10}}};
  const SweepResult r = sweep_axis(kUnit, Axis::y, -3.0f, floor);
  EXPECT_TRUE(r.blocked);
  EXPECT_NEAR(r.moved_m, -(0.5f - kContactSkinM), 1e-6f);
  EXPECT_TRUE(overlaps_any(kUnit, floor) == false);
  EXPECT_TRUE(overlaps_any({{0, -0.75f, 0}, {1, 0.25f, 1}}, floor));
}

TEST(BoxSweep, AZeroMoveGoesNowhere) {
  const std::vector<Aabb> statics{{{1, 0, 0}, {2, 1, 1}}};
  const SweepResult r = sweep_axis(kUnit, Axis::z, 0.0f, statics);
  EXPECT_FALSE(r.blocked);
  EXPECT_EQ(r.moved_m, 0.0f);
}

}  // namespace
}  // namespace tickwire::world
