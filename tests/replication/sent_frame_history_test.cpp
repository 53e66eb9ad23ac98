// The sent-frame history: references are the newest acknowledged frames within the baseline
// window; a new frame never overwrites a reference in use or the newest frame; acks for frames not
// held (too old, never sent, discarded) change nothing; a slot no longer usable as a reference is
// the first reused; frames past the baseline window let go of the shared world frames they point
// into (the newest keeping its states as copies), and so does a discarded frame.
#include "tickwire/replication/frames/sent_frame_history.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <vector>

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

// A world frame of one state for `tick`, and a frame of `history` pointing into it.
std::shared_ptr<WorldStates> world_at(int64_t tick) {
  auto frame = std::make_shared<WorldStates>();
  frame->tick = static_cast<uint32_t>(tick);
  frame->states.resize(1);
  frame->states[0].id = 7;
  frame->states[0].position = {static_cast<int32_t>(tick), 2, 3};
  return frame;
}
void send_from(SentFrameHistory& history, int64_t tick, const std::shared_ptr<WorldStates>& world) {
  SentFrame& frame = history.begin(T(tick), history.references(T(tick), 32), history.newest());
  frame.sources.push_back(world);
  frame.states.push_back(&world->states[0]);
  frame.entities.push_back(FrameEntity{0, 1});
}

TEST(SentFrameHistory, FramesPastTheWindowLetGoOfTheirWorldFrames) {
  SentFrameHistory history;
  std::vector<std::shared_ptr<WorldStates>> worlds;
  for (int64_t t = 1; t <= 5; ++t) {
    worlds.push_back(world_at(t));
    send_from(history, t, worlds.back());
    EXPECT_TRUE(history.acknowledge(T(t)));
  }
  const SentFrameHistory::Expired none = history.expire(T(1 + SentFrameHistory::kExpireAfterTicks));
  EXPECT_EQ(none.released + none.newest_copied, 0u) << "a client served every tick has its oldest frame replaced first";

  // At 38 ticks 1-4 are 34-37 ticks old: no delta may use them, and no new frame replaced them.
  const SentFrameHistory::Expired first = history.expire(T(38));
  EXPECT_EQ(first.released, 4u);
  EXPECT_EQ(first.newest_copied, 0u);
  for (int64_t t = 1; t <= 4; ++t) {
    EXPECT_EQ(worlds[static_cast<std::size_t>(t - 1)].use_count(), 1) << "tick " << t << "'s world frame is let go";
    EXPECT_EQ(history.find(T(t)), nullptr);
    EXPECT_FALSE(history.acknowledge(T(t))) << "a late ack of a released frame changes nothing";
  }
  ASSERT_NE(history.references(T(37), 32).baseline, nullptr);
  EXPECT_EQ(history.references(T(37), 32).baseline->tick, T(5)) << "32 ticks old: a baseline still";
  EXPECT_EQ(worlds[4].use_count(), 2);

  // At 39 the newest frame is past it too: kept (held states are read from it), as copies.
  const SentFrameHistory::Expired second = history.expire(T(39));
  EXPECT_EQ(second.released, 0u);
  EXPECT_EQ(second.newest_copied, 1u);
  EXPECT_EQ(worlds[4].use_count(), 1);
  const SentFrame* newest = history.newest();
  ASSERT_NE(newest, nullptr);
  EXPECT_EQ(newest->tick, T(5));
  EXPECT_TRUE(newest->sources.empty());
  ASSERT_EQ(newest->states.size(), 1u);
  EXPECT_NE(newest->states[0], &worlds[4]->states[0]);
  EXPECT_EQ(newest->states[0], &newest->copies[0]);
  EXPECT_EQ(*newest->states[0], worlds[4]->states[0]);
  EXPECT_EQ(history.references(T(39), 32).baseline, nullptr) << "too old to be a baseline";
  const SentFrameHistory::Expired again = history.expire(T(60));
  EXPECT_EQ(again.released + again.newest_copied, 0u) << "idempotent: nothing left to let go";

  // A discarded frame (its snapshot refused) lets go at once.
  const std::shared_ptr<WorldStates> refused = world_at(61);
  send_from(history, 61, refused);
  EXPECT_EQ(refused.use_count(), 2);
  history.discard_last();
  EXPECT_EQ(refused.use_count(), 1);
  EXPECT_EQ(history.newest()->tick, T(5));
}

}  // namespace
}  // namespace tickwire
