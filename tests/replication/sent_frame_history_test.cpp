// The sent-frame history: references are the newest acknowledged frames within the baseline
// window; a new frame never overwrites a reference in use or the newest frame; acks for frames not
// held (too old, never sent, discarded) change nothing; a slot no longer usable as a reference is
// the first reused.
#include "tickwire/replication/frames/sent_frame_history.h"

#include <gtest/gtest.h>

#include <set>

namespace tickwire {
namespace {

Tick T(int64_t v) { return Tick::from_value(v); }

TEST(SentFrameHistory, ReferencesAreTheNewestAckedFramesWithinTheWindow) {
  SentFrameHistory history(8);
  for (int64_t t = 1; t <= 6; ++t) (void)history.begin(T(t), history.references(T(t), 32), history.newest());
  EXPECT_EQ(history.references(T(7), 32).baseline, nullptr) << "nothing acked yet";
  EXPECT_TRUE(history.acknowledge(T(2)));
  EXPECT_TRUE(history.acknowledge(T(4)));
  EXPECT_TRUE(history.acknowledge(T(3)));
  EXPECT_FALSE(history.acknowledge(T(9))) << "never sent";
  const SentFrameHistory::References refs = history.references(T(7), 32);
  ASSERT_NE(refs.baseline, nullptr);
  ASSERT_NE(refs.older, nullptr);
  EXPECT_EQ(refs.baseline->tick, T(4));
  EXPECT_EQ(refs.older->tick, T(2)) << "the acked frame nearest one baseline age (3) behind the baseline";
  EXPECT_EQ(history.references(T(5), 32).older->tick, T(3)) << "age 1: one tick behind the baseline";
  EXPECT_EQ(history.references(T(7), 4).baseline->tick, T(4));
  EXPECT_EQ(history.references(T(7), 4).older->tick, T(3)) << "tick 2 is 5 ticks old";
  EXPECT_EQ(history.references(T(7), 3).baseline->tick, T(4));
  EXPECT_EQ(history.references(T(7), 3).older, nullptr) << "tick 3 is 4 ticks old";
  EXPECT_EQ(history.references(T(40), 32).baseline, nullptr) << "too old to be a baseline";
  EXPECT_EQ(history.newest()->tick, T(6));
}

TEST(SentFrameHistory, TheClientsHeldReportAcknowledgesWhatItNames) {
  SentFrameHistory history(8);
  for (int64_t t = 1; t <= 6; ++t) (void)history.begin(T(t), {}, history.newest());
  protocol::SnapshotsHeld held;
  held.newest_tick = 5;
  held.held_mask = 0b101;  // ticks 4 and 2 besides 5
  EXPECT_EQ(history.on_held(held), 3u);
  EXPECT_EQ(history.on_held(held), 0u) << "a repeated report changes nothing";
  const SentFrameHistory::References refs = history.references(T(7), 32);
  ASSERT_NE(refs.baseline, nullptr);
  EXPECT_EQ(refs.baseline->tick, T(5));
  held.newest_tick = 40;  // a hostile report naming frames never sent
  held.held_mask = UINT32_MAX;
  EXPECT_EQ(history.on_held(held), 0u);
  EXPECT_EQ(history.held_frame(6), nullptr) << "tick 6 was sent but never reported held";
}

TEST(SentFrameHistory, ANewFrameNeverOverwritesAReferenceOrTheNewest) {
  SentFrameHistory history(SentFrameHistory::kMinFrames);
  (void)history.begin(T(1), {}, nullptr);
  EXPECT_TRUE(history.acknowledge(T(1)));
  for (int64_t t = 2; t <= 50; ++t) {
    const SentFrameHistory::References refs = history.references(T(t), 32);
    const SentFrame* newest = history.newest();
    const Tick base_tick = refs.baseline ? refs.baseline->tick : T(-1);
    SentFrame& slot = history.begin(T(t), refs, newest);
    EXPECT_NE(&slot, refs.baseline);
    EXPECT_NE(&slot, refs.older);
    EXPECT_NE(&slot, newest);
    if (refs.baseline) {
      EXPECT_EQ(refs.baseline->tick, base_tick) << "a reference was overwritten";
    }
    if (t % 10 == 0) {
      EXPECT_TRUE(history.acknowledge(T(t)));
    }
  }
  EXPECT_FALSE(history.acknowledge(T(1))) << "long overwritten";
}

TEST(SentFrameHistory, ADiscardedFrameCannotBeAcknowledged) {
  SentFrameHistory history(4);
  (void)history.begin(T(1), {}, nullptr);
  (void)history.begin(T(2), {}, history.newest());
  history.discard_last();
  EXPECT_FALSE(history.acknowledge(T(2)));
  EXPECT_EQ(history.newest()->tick, T(1));
  EXPECT_TRUE(history.acknowledge(T(1)));
}

}  // namespace
}  // namespace tickwire
