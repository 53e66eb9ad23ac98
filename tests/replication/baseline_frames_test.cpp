// SentFrameHistory (server) and HeldFrames (client): a frame becomes a delta reference only once the
// client reports holding it, references stay inside the window, and the report round-trips.
#include <gtest/gtest.h>

#include "tickwire/replication/frames/held_frames.h"
#include "tickwire/replication/frames/sent_frame_history.h"

namespace tickwire {
namespace {

ReplicaFrame frame_of(uint32_t tick) {
  ReplicaFrame frame;
  frame.tick = tick;
  ReplicaState state;
  state.id = tick;
  frame.states.push_back(state);
  return frame;
}

// What the room does each tick: take the references, then record the new frame.
SentFrame& record(SentFrameHistory& sent, uint32_t tick) {
  const Tick t = Tick::from_value(tick);
  return sent.begin(t, sent.references(t, protocol::MaxBaselineTicks), sent.newest());
}

DeltaRefs refs_at(const SentFrameHistory& sent, uint32_t tick) {
  return sent.delta_refs(Tick::from_value(tick), protocol::MaxBaselineTicks);
}

TEST(SentFrameHistory, NoReferenceUntilTheClientReportsHolding) {
  SentFrameHistory sent;
  for (uint32_t t = 1; t <= 10; ++t) record(sent, t).assign(frame_of(t));
  EXPECT_EQ(refs_at(sent, 11).baseline, nullptr);
  EXPECT_EQ(sent.held_frame(7), nullptr);
  (void)sent.on_held(protocol::SnapshotsHeld{7, 0b101, 0});  // holds 7, 6 and 4
  const DeltaRefs refs = refs_at(sent, 11);
  ASSERT_NE(refs.baseline, nullptr);
  EXPECT_EQ(refs.baseline.tick(), 7u);
  ASSERT_NE(refs.older, nullptr);
  EXPECT_EQ(refs.older.tick(), 4u) << "the held frame nearest one baseline age (4 ticks) before 7";
  EXPECT_EQ(refs_at(sent, 8).older.tick(), 6u) << "age 1: the frame one tick before the baseline";
  EXPECT_EQ(refs.history, &sent) << "every held frame may be fitted over";
  EXPECT_NE(sent.held_frame(6), nullptr);
  EXPECT_EQ(sent.held_frame(5), nullptr) << "sent but never reported";
}

TEST(SentFrameHistory, ReferencesNeverLeaveTheWindow) {
  SentFrameHistory sent;
  for (uint32_t t = 1; t <= 5; ++t) (void)record(sent, t);
  (void)sent.on_held(protocol::SnapshotsHeld{5, 0xffffffffu, 0});
  EXPECT_EQ(refs_at(sent, 6).baseline.tick(), 5u);
  const uint32_t far = 5 + static_cast<uint32_t>(protocol::MaxBaselineTicks) + 1;
  EXPECT_EQ(refs_at(sent, far).baseline, nullptr) << "a baseline too old falls back to none";
}

TEST(SentFrameHistory, ADiscardedFrameIsNeverAReference) {
  SentFrameHistory sent;
  (void)record(sent, 1);
  (void)record(sent, 2);
  sent.discard_last();
  (void)sent.on_held(protocol::SnapshotsHeld{2, 0b1, 0});  // a report naming a frame never sent
  ASSERT_NE(refs_at(sent, 3).baseline, nullptr);
  EXPECT_EQ(refs_at(sent, 3).baseline.tick(), 1u);
  EXPECT_EQ(refs_at(sent, 3).older, nullptr);
}

TEST(SentFrameHistory, OldFramesAreReplaced) {
  SentFrameHistory sent;
  const uint32_t n = SentFrameHistory::kMaxFrames + 8;
  for (uint32_t t = 1; t <= n; ++t) (void)record(sent, t);
  (void)sent.on_held(protocol::SnapshotsHeld{8, 0xffffffffu, 0});  // all long replaced
  EXPECT_EQ(refs_at(sent, n + 1).baseline, nullptr);
}

TEST(HeldFrames, KeepsFindsAndReports) {
  HeldFrames held;
  EXPECT_TRUE(held.empty());
  held.keep(frame_of(10));
  ReplicaFrame twelve = frame_of(12);
  twelve.world = protocol::WorldSettings{0.25f, 0.5f};
  held.keep(twelve);
  held.keep(frame_of(13));
  ASSERT_NE(held.find(12), nullptr);
  EXPECT_EQ(held.find(12)->states[0].id, 12u);
  EXPECT_EQ(*held.find(12), twelve) << "kept whole, world settings included (a baseline's settings are coded against)";
  EXPECT_EQ(held.find(11), nullptr);
  const protocol::SnapshotsHeld report = held.report(4);
  EXPECT_EQ(report.newest_tick, 13u);
  EXPECT_EQ(report.held_mask, 0b101u);  // 12 and 10
  EXPECT_EQ(report.rest_revision, 4u);
}

TEST(HeldFrames, TheReportFeedsTheServersReferences) {
  SentFrameHistory sent;
  HeldFrames held;
  for (uint32_t t = 1; t <= 40; ++t) {
    const ReplicaFrame frame = frame_of(t);
    record(sent, t).assign(frame);
    if (t % 3 != 0) held.keep(frame);  // every third snapshot lost
  }
  (void)sent.on_held(held.report(0));
  const DeltaRefs refs = refs_at(sent, 41);
  ASSERT_NE(refs.baseline, nullptr);
  EXPECT_EQ(refs.baseline.tick(), 40u);
  EXPECT_EQ(refs.older.tick(), 38u);  // one tick before 40 (39) was lost; 38 is as near
  EXPECT_TRUE(same_frame(*held.find(refs.baseline.tick()), refs.baseline));
  EXPECT_EQ(held.find(39), nullptr);
}

TEST(HeldFrames, FramesOlderThanTheWindowAreNotKept) {
  HeldFrames held;
  held.keep(frame_of(100));
  held.keep(frame_of(100 - static_cast<uint32_t>(HeldFrames::kCapacity)));
  EXPECT_EQ(held.find(100 - static_cast<uint32_t>(HeldFrames::kCapacity)), nullptr);
  EXPECT_NE(held.find(100), nullptr);
  held.reset();
  EXPECT_EQ(held.find(100), nullptr);
}

}  // namespace
}  // namespace tickwire
