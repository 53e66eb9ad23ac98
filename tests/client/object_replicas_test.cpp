// The client's map objects on the interpolation timeline: equal states merge into one run, a door's
// open fraction lerps between runs while bits and flags snap, a pose lerps the short way, presence
// follows the snapshots (absent before, gone after, back as a fresh object), and the history stays
// bounded (one run per resting object, 50,000 of them).
#include "tickwire/client/object_replicas.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace tickwire {
namespace {

constexpr uint8_t kLight = 1;  // the reference game's component wire ids
constexpr uint8_t kMover = 2;
constexpr uint8_t kButton = 3;

protocol::ComponentSection section(uint8_t wire_id, float channel0, uint8_t bits = 0) {
  protocol::ComponentSection s;
  s.wire_id = wire_id;
  s.dirty = 0x3F;
  s.channel[0] = channel0;
  s.channel_count = 2;
  s.bits = bits;
  return s;
}

protocol::Record object(uint32_t index, std::vector<protocol::ComponentSection> sections, uint8_t flags = 1) {
  protocol::ObjectRecord o;
  o.object_index = index;
  o.flags = flags;
  o.sections = std::move(sections);
  return protocol::Record{1000 + index, o};
}

protocol::Record door(uint32_t index, float open_fraction) { return object(index, {section(kMover, open_fraction)}); }
protocol::Record lamp(uint32_t index, uint8_t on) { return object(index, {section(kLight, 0.0f, on)}); }

void feed(ObjectReplicas& replicas, int64_t tick, std::vector<protocol::Record> records) {
  replicas.on_snapshot(Tick::from_value(tick), records);
}

float open_fraction(const ObjectReplicas& replicas, uint32_t index, double render_tick) {
  const std::optional<ObjectSample> s = replicas.sample(index, render_tick);
  EXPECT_TRUE(s.has_value()) << "at " << render_tick;
  if (!s || s->section(kMover) == nullptr) return -1.0f;
  return s->section(kMover)->channels[0];
}

TEST(ObjectReplicas, EqualStatesMergeIntoOneRun) {
  ObjectReplicas replicas;
  for (int64_t tick = 10; tick < 110; ++tick) feed(replicas, tick, {lamp(3, 1)});
  EXPECT_EQ(replicas.held_states(3), 1u);
  EXPECT_TRUE(replicas.changing().empty());
  EXPECT_EQ(replicas.present(), 1u);
  EXPECT_EQ(replicas.entity_id(3), 1003u);
  EXPECT_EQ(replicas.sample(3, 50.5)->section(kLight)->bits, 1u);
  EXPECT_EQ(replicas.counters().appeared, 1u);
}

TEST(ObjectReplicas, ADoorsOpenFractionLerpsBetweenRunsAtFractionalRenderTicks) {
  ObjectReplicas replicas;
  feed(replicas, 10, {door(0, 0.0f)});
  feed(replicas, 11, {door(0, 0.0f)});
  feed(replicas, 12, {door(0, 0.5f)});
  feed(replicas, 16, {door(0, 1.0f)});  // snapshots lost between: the gap is lerped across
  EXPECT_EQ(replicas.held_states(0), 3u);
  EXPECT_FLOAT_EQ(open_fraction(replicas, 0, 10.5), 0.0f);   // inside the first run
  EXPECT_FLOAT_EQ(open_fraction(replicas, 0, 11.0), 0.0f);
  EXPECT_FLOAT_EQ(open_fraction(replicas, 0, 11.25), 0.125f);
  EXPECT_FLOAT_EQ(open_fraction(replicas, 0, 11.5), 0.25f);
  EXPECT_FLOAT_EQ(open_fraction(replicas, 0, 12.0), 0.5f);
  EXPECT_FLOAT_EQ(open_fraction(replicas, 0, 13.0), 0.625f);  // 12 -> 16: a quarter of the way
  EXPECT_FLOAT_EQ(open_fraction(replicas, 0, 15.0), 0.875f);
  EXPECT_FLOAT_EQ(open_fraction(replicas, 0, 16.0), 1.0f);
  EXPECT_FLOAT_EQ(open_fraction(replicas, 0, 40.0), 1.0f);    // past the newest: held, never extrapolated
}

TEST(ObjectReplicas, BitsAndFlagsSnapToTheNewerState) {
  ObjectReplicas replicas;
  feed(replicas, 10, {object(4, {section(kLight, 0.0f, 0)}, 1)});
  feed(replicas, 12, {object(4, {section(kLight, 1.0f, 1)}, 3)});
  const ObjectSample early = *replicas.sample(4, 10.5);
  EXPECT_FLOAT_EQ(early.section(kLight)->channels[0], 0.25f);  // the channel eases...
  EXPECT_EQ(early.section(kLight)->bits, 1u);                  // ...the on bit is already the newer's
  EXPECT_EQ(early.flags, 3u);
  EXPECT_EQ(replicas.sample(4, 10.0)->section(kLight)->bits, 0u);  // at the older run: the older state
  EXPECT_EQ(replicas.sample(4, 10.0)->flags, 1u);
}

TEST(ObjectReplicas, ABlendTakesTheNewerSectionListAndReadsAMissingChannelAsZero) {
  ObjectSample older;
  older.section_count = 1;
  older.sections[0] = SectionSample{kMover, 1, {0.5f, 0, 0, 0}, 0};
  ObjectSample newer;
  newer.section_count = 2;
  newer.sections[0] = SectionSample{kButton, 1, {1.0f, 0, 0, 0}, 1};
  newer.sections[1] = SectionSample{kMover, 2, {1.0f, 4.0f, 0, 0}, 0};
  const ObjectSample half = blend_objects(older, newer, 0.5);
  EXPECT_EQ(half.section_count, 2u);
  EXPECT_FLOAT_EQ(half.section(kButton)->channels[0], 0.5f);  // from zero: no button section before
  EXPECT_FLOAT_EQ(half.section(kMover)->channels[0], 0.75f);
  EXPECT_FLOAT_EQ(half.section(kMover)->channels[1], 2.0f);   // beyond the older's count: from zero
}

TEST(ObjectReplicas, APoseLerpsItsPositionAndItsRotationTheShortWayNormalised) {
  ObjectSample older, newer;
  older.pose = ObjectPose{{0, 0, 0}, wire::Quat{0, 0, 0, 1}, protocol::Vec3{1, 1, 1}};
  // 90 degrees about y, written as its negative (the same rotation, the long way if taken as is).
  const float h = static_cast<float>(std::sqrt(0.5));
  newer.pose = ObjectPose{{2, 4, -6}, wire::Quat{0, -h, 0, -h}, protocol::Vec3{3, 1, 1}};
  const ObjectSample mid = blend_objects(older, newer, 0.5);
  ASSERT_TRUE(mid.pose && mid.pose->rotation && mid.pose->scale);
  EXPECT_FLOAT_EQ(mid.pose->position.x, 1.0f);
  EXPECT_FLOAT_EQ(mid.pose->position.y, 2.0f);
  EXPECT_FLOAT_EQ(mid.pose->position.z, -3.0f);
  EXPECT_FLOAT_EQ(mid.pose->scale->x, 2.0f);
  const wire::Quat q = *mid.pose->rotation;
  EXPECT_NEAR(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w, 1.0, 1e-6);
  // 45 degrees about +y: (0, sin 22.5, 0, cos 22.5), the short way (w stays positive).
  EXPECT_NEAR(q.y, std::sin(M_PI / 8), 1e-6);
  EXPECT_NEAR(q.w, std::cos(M_PI / 8), 1e-6);
  // Only the newer has a pose: it stands there (nothing to lerp from).
  ObjectSample bare = older;
  bare.pose.reset();
  EXPECT_EQ(blend_objects(bare, newer, 0.5).pose, newer.pose);
}

TEST(ObjectReplicas, AnObjectIsAbsentBeforeItIsFirstSeenAndGoneOnceASnapshotStopsNamingIt) {
  ObjectReplicas replicas;
  feed(replicas, 10, {lamp(1, 0)});
  feed(replicas, 20, {lamp(1, 0), lamp(2, 1)});
  feed(replicas, 21, {lamp(1, 0), lamp(2, 1)});
  EXPECT_FALSE(replicas.sample(2, 19.5).has_value());  // not there before it was first seen
  EXPECT_FALSE(replicas.sample(1, 9.0).has_value());
  EXPECT_TRUE(replicas.sample(2, 20.0).has_value());
  feed(replicas, 22, {lamp(1, 0)});                     // 2 is no longer named
  EXPECT_EQ(replicas.counters().left, 1u);
  EXPECT_EQ(replicas.present(), 1u);
  EXPECT_TRUE(replicas.sample(2, 21.5).has_value());    // a render tick behind still draws it...
  EXPECT_FALSE(replicas.sample(2, 22.0).has_value());   // ...until it reaches the snapshot that left it out
  EXPECT_FALSE(replicas.sample(2, 30.0).has_value());
  EXPECT_FALSE(replicas.sample(7, 21.0).has_value());   // never named at all
  EXPECT_FALSE(replicas.sample(1u << 20, 21.0).has_value());
}

TEST(ObjectReplicas, AnObjectBackAfterItLeftIsFreshNothingOfItsOldStateBlended) {
  ObjectReplicas replicas;
  feed(replicas, 10, {door(5, 0.0f)});
  feed(replicas, 11, {});
  feed(replicas, 14, {door(5, 1.0f)});
  EXPECT_EQ(replicas.counters().appeared, 2u);
  EXPECT_FLOAT_EQ(open_fraction(replicas, 5, 10.5), 0.0f);  // the old life, up to the tick it left
  EXPECT_FALSE(replicas.sample(5, 11.0).has_value());       // away
  EXPECT_FALSE(replicas.sample(5, 13.5).has_value());
  EXPECT_FLOAT_EQ(open_fraction(replicas, 5, 14.0), 1.0f);  // back whole: no 0 -> 1 ease
}

TEST(ObjectReplicas, ARecordWhoseSectionSetChangesIsAFreshObject) {
  ObjectReplicas replicas;
  feed(replicas, 10, {door(6, 0.0f)});
  feed(replicas, 12, {object(6, {section(kButton, 1.0f, 1)})});  // another map's object at that index
  EXPECT_EQ(replicas.counters().appeared, 2u);
  EXPECT_EQ(replicas.counters().left, 0u);
  const ObjectSample before = *replicas.sample(6, 11.5);  // the old object held, not blended
  ASSERT_NE(before.section(kMover), nullptr);
  EXPECT_FLOAT_EQ(before.section(kMover)->channels[0], 0.0f);
  const ObjectSample after = *replicas.sample(6, 12.0);
  EXPECT_EQ(after.section(kMover), nullptr);
  EXPECT_FLOAT_EQ(after.section(kButton)->channels[0], 1.0f);
}

TEST(ObjectReplicas, AStaleSnapshotIsIgnoredAndCounted) {
  ObjectReplicas replicas;
  feed(replicas, 10, {door(0, 0.5f)});
  feed(replicas, 9, {door(0, 1.0f)});
  feed(replicas, 10, {door(0, 1.0f)});
  EXPECT_EQ(replicas.counters().stale_snapshots, 2u);
  EXPECT_EQ(replicas.counters().snapshots, 1u);
  EXPECT_FLOAT_EQ(open_fraction(replicas, 0, 10.0), 0.5f);
}

TEST(ObjectReplicas, AnIndexPastTheCapIsCountedAndNotHeld) {
  ObjectReplicaSettings settings;
  settings.max_objects = 100;
  ObjectReplicas replicas(settings);
  feed(replicas, 1, {lamp(99, 1), lamp(100, 1), lamp(70000, 1)});
  EXPECT_EQ(replicas.counters().over_cap, 2u);
  EXPECT_EQ(replicas.present(), 1u);
  EXPECT_FALSE(replicas.sample(100, 1.0).has_value());
  EXPECT_EQ(replicas.held_states(), 1u);
}

TEST(ObjectReplicas, PruningKeepsAtLeastOneRunAndTheOldestStateBeyondIt) {
  ObjectReplicaSettings settings;
  settings.runs_per_object = 4;
  settings.history_ticks = 10;
  ObjectReplicas replicas(settings);
  for (int64_t tick = 1; tick <= 20; ++tick) feed(replicas, tick, {door(0, static_cast<float>(tick) / 20.0f)});
  EXPECT_EQ(replicas.held_states(0), 4u);  // the cap on runs
  EXPECT_FLOAT_EQ(open_fraction(replicas, 0, 2.0), 17.0f / 20.0f);  // before the oldest held: its state (it did exist)
  for (int64_t tick = 21; tick <= 60; ++tick) feed(replicas, tick, {door(0, 1.0f)});
  EXPECT_EQ(replicas.held_states(0), 1u);  // the older runs aged out; the resting one stays
  EXPECT_FLOAT_EQ(open_fraction(replicas, 0, 59.0), 1.0f);
  for (int64_t tick = 61; tick <= 300; tick += 50) feed(replicas, tick, {door(0, 1.0f)});
  EXPECT_EQ(replicas.held_states(0), 1u);  // never below one
  EXPECT_TRUE(replicas.sample(0, 400.0).has_value());
}

TEST(ObjectReplicas, ChangingListsOnlyObjectsHoldingMoreThanOneState) {
  ObjectReplicas replicas;
  feed(replicas, 1, {lamp(1, 0), door(2, 0.0f), lamp(3, 1), door(4, 0.0f)});
  feed(replicas, 2, {lamp(1, 1), door(2, 0.0f), lamp(3, 1), door(4, 0.25f)});
  ASSERT_EQ(replicas.changing().size(), 2u);
  EXPECT_EQ(replicas.changing()[0], 1u);
  EXPECT_EQ(replicas.changing()[1], 4u);
  feed(replicas, 3, {door(2, 0.0f), lamp(3, 1), door(4, 0.25f)});  // 1 left: no longer listed
  ASSERT_EQ(replicas.changing().size(), 1u);
  EXPECT_EQ(replicas.changing()[0], 4u);
}

TEST(ObjectReplicas, FiftyThousandRestingObjectsCostOneRunEach) {
  constexpr uint32_t kObjects = 50'000;
  ObjectReplicas replicas;
  std::vector<protocol::Record> records;
  records.reserve(kObjects);
  for (uint32_t i = 0; i < kObjects; ++i) records.push_back(i % 2 == 0 ? lamp(i, 1) : door(i, 0.0f));
  for (int64_t tick = 1; tick <= 60; ++tick) replicas.on_snapshot(Tick::from_value(tick), records);
  EXPECT_EQ(replicas.present(), kObjects);
  EXPECT_EQ(replicas.held_states(), kObjects);
  EXPECT_TRUE(replicas.changing().empty());
  EXPECT_FLOAT_EQ(open_fraction(replicas, kObjects - 1, 30.5), 0.0f);
  std::printf("[ object replicas ] %u resting objects over 60 snapshots: %zu held states\n", kObjects,
              replicas.held_states());
}

TEST(ObjectReplicas, ResetForgetsEverything) {
  ObjectReplicas replicas;
  feed(replicas, 10, {lamp(1, 1)});
  replicas.reset();
  EXPECT_FALSE(replicas.sample(1, 10.0).has_value());
  EXPECT_EQ(replicas.present(), 0u);
  feed(replicas, 5, {lamp(1, 1)});  // a new session's ticks may start lower
  EXPECT_TRUE(replicas.sample(1, 5.0).has_value());
}

}  // namespace
}  // namespace tickwire
