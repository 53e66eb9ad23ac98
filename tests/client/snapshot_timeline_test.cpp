// The replica ring: snapshots sit at their tick whatever the arrival order, gaps stay gaps, the
// window slides with the newest tick, and every refusal (old, duplicate, over the entity cap,
// duplicate entity, malformed) is counted without disturbing what the ring holds.
#include "tickwire/client/snapshot_timeline.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace tickwire {
namespace {

const EntityNetHandle kA = EntityNetHandle::make(0, 1);
const EntityNetHandle kB = EntityNetHandle::make(0, 2);
const EntityNetHandle kC = EntityNetHandle::make(1, 5);

EntitySample at_x(EntityNetHandle entity, float x) {
  EntitySample s;
  s.entity = entity;
  s.position_m.x = x;
  return s;
}

Tick t(int64_t v) { return Tick::from_value(v); }

TEST(SnapshotTimeline, HoldsSnapshotsAtTheirTicksInAnyArrivalOrder) {
  SnapshotTimeline ring(TimelineConfig{.buffer_ticks = 8});
  EXPECT_TRUE(ring.empty());
  const std::vector<EntitySample> s12 = {at_x(kB, 12), at_x(kA, 12)};
  const std::vector<EntitySample> s10 = {at_x(kA, 10)};
  ASSERT_TRUE(ring.insert(t(12), s12));
  ASSERT_TRUE(ring.insert(t(10), s10));  // late, still in the window
  EXPECT_EQ(ring.newest(), t(12));
  EXPECT_EQ(ring.window_start(), t(5));
  EXPECT_EQ(ring.stored(), 2u);
  ASSERT_NE(ring.at(t(12)), nullptr);
  ASSERT_EQ(ring.at(t(12))->size(), 2u);
  EXPECT_EQ((*ring.at(t(12)))[0].entity, kA) << "sorted by handle";
  EXPECT_EQ(ring.at(t(11)), nullptr) << "a tick never received is a gap";
}

TEST(SnapshotTimeline, TheWindowSlidesWithTheNewestTick) {
  SnapshotTimeline ring(TimelineConfig{.buffer_ticks = 4});
  for (int64_t tick = 0; tick < 4; ++tick) ASSERT_TRUE(ring.insert(t(tick), std::vector{at_x(kA, float(tick))}));
  EXPECT_EQ(ring.stored(), 4u);
  ASSERT_TRUE(ring.insert(t(6), std::vector{at_x(kA, 6)}));  // ticks 4, 5 lost
  EXPECT_EQ(ring.window_start(), t(3));
  EXPECT_EQ(ring.stored(), 2u);  // 3 and 6
  EXPECT_EQ(ring.at(t(2)), nullptr);
  EXPECT_NE(ring.at(t(3)), nullptr);
  // A far jump empties the ring in at most buffer_ticks steps.
  ASSERT_TRUE(ring.insert(t(1'000'000'000), std::vector{at_x(kA, 0)}));
  EXPECT_EQ(ring.stored(), 1u);
}

TEST(SnapshotTimeline, RefusalsAreCountedAndLeaveTheRingAlone) {
  SnapshotTimeline ring(TimelineConfig{.buffer_ticks = 4, .max_entities_per_snapshot = 2});
  ASSERT_TRUE(ring.insert(t(10), std::vector{at_x(kA, 10)}));
  EXPECT_FALSE(ring.insert(t(10), std::vector{at_x(kA, 99)}));
  EXPECT_FALSE(ring.insert(t(6), std::vector{at_x(kA, 6)}));
  EXPECT_FALSE(ring.insert(t(11), std::vector{at_x(kA, 1), at_x(kB, 1), at_x(kC, 1)}));
  EXPECT_FALSE(ring.insert(t(12), std::vector{at_x(kB, 1), at_x(kB, 2)}));
  EntitySample bad = at_x(kA, 1);
  bad.pitch_deg = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(ring.insert(t(13), std::vector{bad}));
  EXPECT_EQ(ring.drops()[SnapshotDropReason::duplicate], 1u);
  EXPECT_EQ(ring.drops()[SnapshotDropReason::too_old], 1u);
  EXPECT_EQ(ring.drops()[SnapshotDropReason::too_many_entities], 1u);
  EXPECT_EQ(ring.drops()[SnapshotDropReason::duplicate_entity], 1u);
  EXPECT_EQ(ring.drops()[SnapshotDropReason::malformed_sample], 1u);
  EXPECT_EQ(ring.newest(), t(10)) << "a refused snapshot never moves the window";
  EXPECT_EQ(ring.stored(), 1u);
  EXPECT_EQ((*ring.at(t(10)))[0].position_m.x, 10.0f) << "the duplicate did not overwrite";
  EXPECT_EQ(reason_name(SnapshotDropReason::too_old), "too_old");
  ring.clear();
  EXPECT_TRUE(ring.empty());
  EXPECT_EQ(ring.drops().total(), 0u);
}

TEST(SnapshotTimeline, BracketsFindTheSamplesAroundARenderTimeAcrossGaps) {
  SnapshotTimeline ring(TimelineConfig{.buffer_ticks = 16});
  ASSERT_TRUE(ring.insert(t(10), std::vector{at_x(kA, 10), at_x(kB, 10)}));
  ASSERT_TRUE(ring.insert(t(11), std::vector{at_x(kA, 11), at_x(kB, 11)}));
  ASSERT_TRUE(ring.insert(t(14), std::vector{at_x(kA, 14)}));  // 12, 13 lost; kB left at 14
  ASSERT_TRUE(ring.insert(t(15), std::vector{at_x(kA, 15), at_x(kC, 15)}));

  SampleBracket b = ring.bracket(kA, 12.5);
  ASSERT_TRUE(b.from && b.to);
  EXPECT_EQ(b.from->tick, t(11));
  EXPECT_EQ(b.to->tick, t(14)) << "a lost snapshot: the blend spans the gap";

  b = ring.bracket(kB, 12.5);
  ASSERT_TRUE(b.from);
  EXPECT_FALSE(b.to);
  EXPECT_TRUE(b.leaving) << "absent from the next snapshot: presence is the lifecycle";

  b = ring.bracket(kC, 12.5);
  EXPECT_FALSE(b.from || b.to) << "not yet spawned at the render time";

  b = ring.bracket(kA, 17.0);
  ASSERT_TRUE(b.from && b.previous);
  EXPECT_FALSE(b.to);
  EXPECT_EQ(b.from->tick, t(15));
  EXPECT_EQ(b.previous->tick, t(14));

  b = ring.bracket(kA, 3.0);  // older than the ring: only what comes after
  EXPECT_FALSE(b.from);
  ASSERT_TRUE(b.to);
  EXPECT_EQ(b.to->tick, t(10));
}

}  // namespace
}  // namespace tickwire
