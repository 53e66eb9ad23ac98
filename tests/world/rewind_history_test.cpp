// The rewind history: a body read between two ticks is their lerp, a body's path since a time, a
// time older than the history reads at its oldest tick, a body that came or went is taken from the nearer tick, and the ring
// holds no more than its ticks.
#include "tickwire/world/rewind_history.h"

#include <gtest/gtest.h>

#include <vector>

namespace tickwire::world {
namespace {

RewoundBox pawn_at(uint32_t id, float x) { return RewoundBox{RewoundBox::Kind::pawn, id, {{x, 0, 0}, {x + 1, 2, 1}}}; }

TEST(RewindHistory, ReadsBetweenTwoTicksAsTheirLerp) {
  RewindHistory history(8);
  for (int t = 1; t <= 5; ++t) {
    const RewoundBox bodies[] = {pawn_at(7, static_cast<float>(t) * 2.0f)};
    history.record(Tick::from_value(t), bodies);
  }
  std::vector<RewoundBox> out;
  EXPECT_DOUBLE_EQ(history.at(3.25, out), 3.25);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_FLOAT_EQ(out[0].box.min.x, 6.5f);
  out.clear();
  EXPECT_DOUBLE_EQ(history.at(5.0, out), 5.0);
  EXPECT_FLOAT_EQ(out[0].box.min.x, 10.0f);
}

TEST(RewindHistory, ABodysPathRunsFromTheTickAtOrBeforeATimeToTheNewest) {
  RewindHistory history(8);
  for (int t = 1; t <= 10; ++t) {
    std::vector<RewoundBox> bodies = {pawn_at(7, static_cast<float>(t))};
    if (t % 2 == 0) bodies.push_back(pawn_at(9, -static_cast<float>(t)));  // absent on odd ticks
    bodies.push_back(RewoundBox{RewoundBox::Kind::mover, 7, {}});          // same id, another kind
    history.record(Tick::from_value(t), bodies);
  }
  std::vector<Aabb> path;
  history.path(RewoundBox::Kind::pawn, 7, 6.5, path);  // from tick 6 (at or before 6.5) to 10
  ASSERT_EQ(path.size(), 5u);
  for (std::size_t i = 0; i < path.size(); ++i) EXPECT_FLOAT_EQ(path[i].min.x, 6.0f + static_cast<float>(i));
  path.clear();
  history.path(RewoundBox::Kind::pawn, 7, 0.0, path);  // older than it holds: all it holds (3..10)
  EXPECT_EQ(path.size(), 8u);
  path.clear();
  history.path(RewoundBox::Kind::pawn, 9, 6.0, path);  // only the ticks it was there
  ASSERT_EQ(path.size(), 3u);
  EXPECT_FLOAT_EQ(path.front().min.x, -6.0f);
  path.clear();
  history.path(RewoundBox::Kind::pawn, 8, 1.0, path);
  history.path(RewoundBox::Kind::pawn, 7, 99.0, path);  // ahead of the newest: the newest
  ASSERT_EQ(path.size(), 1u);
  EXPECT_FLOAT_EQ(path[0].min.x, 10.0f);
}

TEST(RewindHistory, ATimeOlderThanItHoldsReadsAtTheOldestTick) {
  RewindHistory history(4);
  for (int t = 1; t <= 10; ++t) {
    const RewoundBox bodies[] = {pawn_at(7, static_cast<float>(t))};
    history.record(Tick::from_value(t), bodies);
  }
  EXPECT_EQ(history.ticks_held(), 4u);
  EXPECT_EQ(history.oldest().value(), 7);
  std::vector<RewoundBox> out;
  EXPECT_DOUBLE_EQ(history.at(2.0, out), 7.0);  // never further back than it holds
  EXPECT_FLOAT_EQ(out[0].box.min.x, 7.0f);
  out.clear();
  EXPECT_DOUBLE_EQ(history.at(99.0, out), 10.0);  // nor ahead of the newest
}

TEST(RewindHistory, ABodyThatCameOrWentIsTakenFromTheNearerTick) {
  RewindHistory history(4);
  const RewoundBox first[] = {pawn_at(1, 0), pawn_at(2, 0)};
  const RewoundBox second[] = {pawn_at(2, 1), pawn_at(3, 5)};
  history.record(Tick::from_value(1), first);
  history.record(Tick::from_value(2), second);
  std::vector<RewoundBox> out;
  history.at(1.25, out);
  ASSERT_EQ(out.size(), 2u);  // 1 still there, 3 not yet
  EXPECT_EQ(out[0].id, 1u);
  EXPECT_EQ(out[1].id, 2u);
  EXPECT_FLOAT_EQ(out[1].box.min.x, 0.25f);
  out.clear();
  history.at(1.75, out);
  ASSERT_EQ(out.size(), 2u);  // 1 gone, 3 come
  EXPECT_EQ(out[0].id, 2u);
  EXPECT_EQ(out[1].id, 3u);
}

TEST(RewindHistory, PawnsAndMoversWithOneIdAreTwoBodies) {
  RewindHistory history(2);
  const RewoundBox bodies[] = {RewoundBox{RewoundBox::Kind::mover, 4, {{0, 0, 0}, {1, 1, 1}}}, pawn_at(4, 3)};
  history.record(Tick::from_value(1), bodies);
  std::vector<RewoundBox> out;
  history.at(1.0, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].kind, RewoundBox::Kind::pawn);
  EXPECT_EQ(out[1].kind, RewoundBox::Kind::mover);
}

}  // namespace
}  // namespace tickwire::world
