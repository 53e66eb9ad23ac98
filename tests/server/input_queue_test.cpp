// The input queue, case by case: redundant copies dropped by reason, the 12-input cap, one input
// per tick oldest first, the exact starvation rule (3 repeats, then zero movement with look kept),
// a starved tick's guess at the next sequence once the client has led (and none in its join) and
// the late input's carried presses, the honest ack (the last sequence whose tick ran), the signed
// depth byte and the sequence end.
#include "tickwire/server/input_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "support.h"
#include "tickwire/core/byte_record.h"

namespace tickwire {
namespace {

using protocol::InputCmd;
using protocol::InputFrame;

constexpr uint32_t kPostureButton = 1u << 6;  // a game's crouch: held through a starved run

InputCmd cmd_for(uint32_t sequence) {
  InputCmd cmd;
  cmd.buttons = ((sequence % 7) + 1) | ((sequence % 2) == 0 ? kPostureButton : 0u);
  cmd.move_x = 0.5f;
  cmd.move_y = -0.25f;
  cmd.yaw_deg = static_cast<float>(sequence % 360);
  cmd.pitch_deg = 10.0f;
  return cmd;
}

InputFrame frame(uint32_t first, uint32_t count) {
  InputFrame f;
  f.first_sequence = first;
  for (uint32_t i = 0; i < count; ++i) f.inputs.push_back(cmd_for(first + i));
  return f;
}

// The client leads: `first` and the one after it arrive together, and `first`'s tick leaves the
// other waiting (which the caller's next tick takes).
void lead(InputQueue& queue, uint32_t first) {
  ASSERT_EQ(queue.accept(frame(first, 2)), 2u);
  ASSERT_FALSE(queue.led());
  ASSERT_EQ(queue.take_for_tick().sequence, first);
  ASSERT_TRUE(queue.led());
}

bool same(const InputCmd& a, const InputCmd& b) {
  return a.buttons == b.buttons && a.move_x == b.move_x && a.move_y == b.move_y && a.yaw_deg == b.yaw_deg &&
         a.pitch_deg == b.pitch_deg;
}

TEST(InputQueue, AppliesOneInputPerTickOldestFirstAndAcksOnlyWhatRan) {
  InputQueue queue;
  EXPECT_FALSE(queue.ack_sequence().has_value());
  EXPECT_EQ(queue.accept(frame(0, 3)), 3u);
  EXPECT_EQ(queue.accept(frame(0, 5)), 2u);  // 0..2 are redundant copies
  EXPECT_EQ(queue.drops()[InputDropReason::duplicate], 3u);
  EXPECT_FALSE(queue.ack_sequence().has_value()) << "received is not applied";
  EXPECT_EQ(queue.depth_byte(), 5);
  for (uint32_t seq = 0; seq < 5; ++seq) {
    const TickInput input = queue.take_for_tick();
    ASSERT_TRUE(input.fresh());
    EXPECT_EQ(input.sequence, seq);
    EXPECT_TRUE(same(input.cmd, cmd_for(seq)));
    EXPECT_EQ(queue.ack_sequence(), seq);
    EXPECT_EQ(queue.depth_byte(), static_cast<int8_t>(4 - seq));
  }
  EXPECT_EQ(queue.accept(frame(2, 3)), 0u);  // already applied
  EXPECT_EQ(queue.drops()[InputDropReason::duplicate], 6u);
  EXPECT_EQ(queue.stats().fresh_ticks, 5u);
}

TEST(InputQueue, NeverHoldsMoreThanTwelveAndKeepsTheOverflowedSequenceClaimable) {
  InputQueue queue;
  EXPECT_EQ(queue.accept(frame(0, 16)), protocol::InputQueueTicks);
  EXPECT_EQ(queue.waiting_ticks(), 12u);
  EXPECT_EQ(queue.drops()[InputDropReason::overflow], 4u);
  EXPECT_EQ(queue.depth_byte(), 12);
  EXPECT_EQ(queue.take_for_tick().sequence, 0u);
  // The next redundant packet repeats 1..16: only 12 (the first dropped) now fits.
  EXPECT_EQ(queue.accept(frame(1, 16)), 1u);
  EXPECT_EQ(queue.waiting_ticks(), 12u);
  for (uint32_t seq = 1; seq <= 12; ++seq) EXPECT_EQ(queue.take_for_tick().sequence, seq);
}

TEST(InputQueue, StarvationRepeatsThreeTicksThenZeroesMovementKeepingLookAndPosture) {
  InputQueueConfig config;
  config.posture_buttons = kPostureButton;
  InputQueue queue(config);
  lead(queue, 39);
  const InputCmd last = cmd_for(40);
  ASSERT_TRUE(queue.take_for_tick().fresh());
  for (uint32_t run = 1; run <= 200; ++run) {
    const TickInput input = queue.take_for_tick();
    EXPECT_EQ(input.starved_run_ticks, run);
    // Within the repeat limit a starved tick is the next sequence's, run on the guess and acked as
    // run; past it the link is taken for dead and no sequence is guessed.
    const uint32_t guessed_to = 40u + std::min(run, 3u);
    EXPECT_EQ(input.guessed, run <= 3);
    EXPECT_EQ(input.sequence, guessed_to);
    EXPECT_EQ(queue.ack_sequence(), guessed_to);
    EXPECT_EQ(input.cmd.yaw_deg, last.yaw_deg);
    EXPECT_EQ(input.cmd.pitch_deg, last.pitch_deg);
    EXPECT_EQ(input.cmd.buttons & kPostureButton, last.buttons & kPostureButton) << "the posture holds";
    if (run <= 3) {
      EXPECT_EQ(input.source, TickInputSource::repeated);
      EXPECT_TRUE(same(input.cmd, last));
    } else {
      EXPECT_EQ(input.source, TickInputSource::zeroed);
      EXPECT_EQ(input.cmd.move_x, 0.0f);
      EXPECT_EQ(input.cmd.move_y, 0.0f);
      EXPECT_EQ(input.cmd.buttons, last.buttons & kPostureButton) << "every other button zeroed";
    }
    EXPECT_EQ(queue.depth_byte(), static_cast<int8_t>(-static_cast<int32_t>(std::min<uint32_t>(run, 128))));
  }
  EXPECT_EQ(queue.stats().repeated_ticks, 3u);
  EXPECT_EQ(queue.stats().zeroed_ticks, 197u);
  // A fresh input ends the run and the depth turns positive again.
  ASSERT_EQ(queue.accept(frame(41, 5)), 2u) << "41..43 ran on the guess";
  EXPECT_EQ(queue.drops()[InputDropReason::late], 3u);
  EXPECT_EQ(queue.depth_byte(), 2);
  const TickInput back = queue.take_for_tick();
  EXPECT_TRUE(back.fresh());
  EXPECT_FALSE(back.guessed);
  EXPECT_EQ(back.sequence, 44u);
  EXPECT_EQ(back.starved_run_ticks, 0u);
  EXPECT_EQ(queue.depth_byte(), 1);
}

// A stall's inputs arrive after their ticks ran on the guess: none of them runs late (the backlog
// would become lead the client pays for in latency), none is lost either: a press the guess did not
// make comes on the next fresh tick, once.
TEST(InputQueue, ALateInputsTickIsGoneButWhatItPressedComesOnTheNextFreshTick) {
  constexpr uint32_t kFire = 1u << 2, kJump = 1u << 3, kRun = 1u << 4;
  InputQueue queue;
  InputCmd running;
  running.move_y = 1.0f;
  running.buttons = kRun;
  const std::vector<InputCmd> two(2, running);
  ASSERT_EQ(queue.accept(9, two), 2u);
  ASSERT_EQ(queue.take_for_tick().sequence, 9u);  // leaves 10 waiting: the client leads
  ASSERT_TRUE(queue.take_for_tick().fresh());
  for (uint32_t seq = 11; seq <= 13; ++seq) EXPECT_EQ(queue.take_for_tick().sequence, seq);  // three guesses
  const TickInput dead = queue.take_for_tick();  // past the repeat limit: zeroed, nothing guessed
  EXPECT_FALSE(dead.guessed);
  EXPECT_EQ(dead.sequence, 13u);
  // The stall's inputs 11..15 arrive at once: 11..13 are late, 14 and 15 are queued.
  std::vector<InputCmd> stalled(5, running);
  stalled[1].buttons |= kJump;  // 12: a press its guess (run, repeated) did not make
  stalled[2].buttons |= kFire;  // 13: another
  EXPECT_EQ(queue.accept(11, stalled), 2u);
  EXPECT_EQ(queue.drops()[InputDropReason::late], 3u);
  EXPECT_EQ(queue.accept(11, stalled), 0u) << "a late input's next copies are duplicates";
  EXPECT_EQ(queue.drops()[InputDropReason::late], 3u);
  EXPECT_EQ(queue.drops()[InputDropReason::duplicate], 5u);
  const TickInput next = queue.take_for_tick();
  ASSERT_TRUE(next.fresh());
  EXPECT_EQ(next.sequence, 14u);
  EXPECT_EQ(next.cmd.buttons, kRun | kJump | kFire) << "the late presses, once";
  EXPECT_EQ(next.cmd.move_y, 1.0f);
  const TickInput after = queue.take_for_tick();
  EXPECT_EQ(after.sequence, 15u);
  EXPECT_EQ(after.cmd.buttons, kRun) << "carried once, not held";
}

// A save state carries the guesses and the presses owed (seed 002): a queue loaded from one tells a
// late input from a duplicate and carries its presses exactly as the saved one does.
TEST(InputQueue, ASavedWindowKeepsItsGuessesAndOwedPresses) {
  constexpr uint32_t kJump = 1u << 3;
  InputQueue saved;
  lead(saved, 0);
  ASSERT_EQ(saved.take_for_tick().sequence, 1u);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(saved.take_for_tick().guessed);  // 2..4 on the guess
  InputCmd jumped = cmd_for(2);
  jumped.buttons |= kJump;
  ASSERT_EQ(saved.accept(2, std::span(&jumped, 1)), 0u);  // late: its jump owed to the next fresh tick
  std::vector<uint8_t> bytes;
  ByteRecordWriter write(bytes);
  saved.save_window(write);
  InputQueue loaded;
  ByteRecordReader read(bytes);
  ASSERT_TRUE(loaded.load_window(read));
  EXPECT_EQ(loaded.ack_sequence(), 4u);
  EXPECT_TRUE(loaded.led());
  for (InputQueue* queue : {&saved, &loaded}) {
    EXPECT_EQ(queue->accept(frame(2, 6)), 3u) << "2 a duplicate, 3 and 4 late, 5..7 queued";
    EXPECT_EQ(queue->drops()[InputDropReason::late], queue == &saved ? 3u : 2u);
    const TickInput next = queue->take_for_tick();
    EXPECT_EQ(next.sequence, 5u);
    EXPECT_NE(next.late_buttons & kJump, 0u) << "the owed press, saved or not";
  }
}

TEST(InputQueue, AWindowThatGuessedWhatNeverRanIsRefused) {
  InputQueue saved;
  ASSERT_EQ(saved.accept(frame(0, 1)), 1u);
  (void)saved.take_for_tick();
  (void)saved.take_for_tick();
  std::vector<uint8_t> bytes;
  ByteRecordWriter write(bytes);
  saved.save_window(write);
  // The layout: next applicable u64, applied bits u64, the last command (u32 + 4 f32), acked flag,
  // ack u32, starved run u32, then the guessed bits u64: one past the applied ones.
  const std::size_t guessed_at = 8 + 8 + 20 + 1 + 4 + 4;
  ASSERT_GT(bytes.size(), guessed_at + 8);
  bytes[guessed_at] |= 0x4;  // sequence ack - 2: never ran
  InputQueue loaded;
  ByteRecordReader read(bytes);
  EXPECT_FALSE(loaded.load_window(read));
  EXPECT_FALSE(loaded.ack_sequence().has_value()) << "nothing changed";
}

TEST(InputQueue, AnInputBeyondTheWindowOfGuessesIsStaleNotLate) {
  InputQueue queue(InputQueueConfig{.starvation_repeat_ticks = 100});
  lead(queue, 0);
  (void)queue.take_for_tick();
  for (uint32_t i = 0; i < InputQueue::kAppliedWindowInputs + 5; ++i) EXPECT_TRUE(queue.take_for_tick().guessed);
  EXPECT_EQ(queue.accept(frame(2, 5)), 0u);
  EXPECT_EQ(queue.drops()[InputDropReason::stale], 5u);
  EXPECT_EQ(queue.drops()[InputDropReason::late], 0u);
  EXPECT_EQ(queue.accept(frame(7, 1)), 0u);
  EXPECT_EQ(queue.drops()[InputDropReason::late], 1u) << "within the window it is late";
}

// A join's starved tick is not a stall's: until a fresh tick has left an input waiting, the client
// has not led, nothing is guessed, and the input that comes late runs (one tick later), which
// builds the lead at once instead of at the regulator's 2%.
TEST(InputQueue, BeforeTheClientLedAStarvedTickGuessesNothingAndTheLateInputRuns) {
  InputQueue queue;
  ASSERT_EQ(queue.accept(frame(0, 1)), 1u);
  ASSERT_TRUE(queue.take_for_tick().fresh());
  EXPECT_FALSE(queue.led()) << "nothing was left waiting";
  const TickInput starved = queue.take_for_tick();
  EXPECT_EQ(starved.source, TickInputSource::repeated);
  EXPECT_FALSE(starved.guessed);
  EXPECT_EQ(queue.ack_sequence(), 0u) << "no sequence ran on it";
  ASSERT_EQ(queue.accept(frame(1, 2)), 2u) << "1 is not late: its tick never ran";
  EXPECT_EQ(queue.take_for_tick().sequence, 1u);
  EXPECT_TRUE(queue.led()) << "2 waits behind it: the client leads by a tick";
  EXPECT_EQ(queue.take_for_tick().sequence, 2u);
  const TickInput stall = queue.take_for_tick();
  EXPECT_TRUE(stall.guessed) << "from now on a starved tick is a stall's";
  EXPECT_EQ(stall.sequence, 3u);
  EXPECT_EQ(queue.drops()[InputDropReason::late], 0u);
}

TEST(InputQueue, StarvingBeforeAnyInputAppliesANeutralCommandWithoutAnAck) {
  InputQueue queue;
  for (uint32_t run = 1; run <= 5; ++run) {
    const TickInput input = queue.take_for_tick();
    EXPECT_FALSE(input.has_sequence);
    EXPECT_TRUE(same(input.cmd, InputCmd{}));
    EXPECT_FALSE(queue.ack_sequence().has_value());
    EXPECT_EQ(queue.depth_byte(), -static_cast<int8_t>(run));
  }
  // Ticks before the first input arrived are the join's wait, counted apart from starvation (the
  // depth byte still says the run, so the client's regulator reads it as before).
  EXPECT_EQ(queue.stats().awaiting_ticks, 5u);
  EXPECT_EQ(queue.stats().repeated_ticks + queue.stats().zeroed_ticks, 0u);
  ASSERT_EQ(queue.accept(frame(0, 1)), 1u);
  EXPECT_TRUE(queue.take_for_tick().fresh());
  (void)queue.take_for_tick();
  EXPECT_EQ(queue.stats().repeated_ticks, 1u) << "once an input has come, an empty queue is starvation";
  EXPECT_EQ(queue.stats().awaiting_ticks, 5u);
}

TEST(InputQueue, AGapIsPassedOverAndTheLateInputIsStaleNotDuplicate) {
  InputQueue queue;
  ASSERT_EQ(queue.accept(frame(0, 2)), 2u);
  ASSERT_EQ(queue.accept(frame(5, 2)), 2u);  // 2..4 never delivered (yet)
  EXPECT_EQ(queue.take_for_tick().sequence, 0u);
  EXPECT_EQ(queue.take_for_tick().sequence, 1u);
  EXPECT_EQ(queue.take_for_tick().sequence, 5u);
  EXPECT_EQ(queue.accept(frame(3, 4)), 0u);  // 3,4 late: stale; 5 applied, 6 queued: duplicates
  EXPECT_EQ(queue.drops()[InputDropReason::stale], 2u);
  EXPECT_EQ(queue.drops()[InputDropReason::duplicate], 2u);
  EXPECT_EQ(queue.take_for_tick().sequence, 6u);
}

TEST(InputQueue, AReorderedInputThatFillsAGapBeforeItsSuccessorRunsIsAppliedInOrder) {
  InputQueue queue;
  ASSERT_EQ(queue.accept(frame(0, 1)), 1u);
  ASSERT_EQ(queue.accept(frame(3, 2)), 2u);
  EXPECT_EQ(queue.take_for_tick().sequence, 0u);
  ASSERT_EQ(queue.accept(frame(1, 3)), 2u);  // 1, 2 fill the gap; 3 is a duplicate of a waiting input
  EXPECT_EQ(queue.drops()[InputDropReason::duplicate], 1u);
  for (uint32_t seq = 1; seq <= 4; ++seq) EXPECT_EQ(queue.take_for_tick().sequence, seq);
}

TEST(InputQueue, InputsBelowTheSessionsFirstSequenceAreStale) {
  InputQueue queue(InputQueueConfig{.first_sequence = 100});
  EXPECT_EQ(queue.accept(frame(95, 7)), 2u);
  EXPECT_EQ(queue.drops()[InputDropReason::stale], 5u);
  EXPECT_EQ(queue.take_for_tick().sequence, 100u);
}

TEST(InputQueue, SequencesNeverWrapTheyEndAtTheTopOfTheU32Space) {
  constexpr uint32_t kTop = std::numeric_limits<uint32_t>::max();
  InputQueue queue(InputQueueConfig{.first_sequence = kTop - 2});
  EXPECT_EQ(queue.accept(frame(kTop - 2, 6)), 3u);  // kTop-2..kTop queued; 3 would-wrap copies refused
  EXPECT_EQ(queue.drops()[InputDropReason::sequence_end], 3u);
  for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(queue.take_for_tick().sequence, kTop - 2 + i);
  EXPECT_EQ(queue.ack_sequence(), kTop);
  EXPECT_EQ(queue.accept(frame(0, 1)), 0u) << "sequence 0 after the top is old, not a wrap";
  EXPECT_EQ(queue.drops()[InputDropReason::stale], 1u);
  const TickInput starved = queue.take_for_tick();
  EXPECT_FALSE(starved.fresh());
  EXPECT_FALSE(starved.guessed) << "no sequence is left to guess";
  EXPECT_EQ(queue.ack_sequence(), kTop);
}

TEST(InputQueue, ASmallerConfiguredDepthCapsTheQueue) {
  InputQueue queue(InputQueueConfig{.capacity_ticks = 4});
  EXPECT_EQ(queue.accept(frame(0, 10)), 4u);
  EXPECT_EQ(queue.drops()[InputDropReason::overflow], 6u);
  EXPECT_EQ(queue.depth_byte(), 4);
}

TEST(InputQueue, ACapacityAboveTheProtocolDepthIsAProgrammerError) {
  test::ThrowOnAssert guard;
  EXPECT_THROW(InputQueue(InputQueueConfig{.capacity_ticks = protocol::InputQueueTicks + 1}), test::AssertionFailure);
  EXPECT_THROW(InputQueue(InputQueueConfig{.capacity_ticks = 0}), test::AssertionFailure);
}

TEST(InputQueue, EveryOfferedCopyIsEitherQueuedOrCountedOnce) {
  InputQueue queue;
  std::size_t offered = 0, queued = 0;
  for (uint32_t first = 0; first < 50; first += 3) {
    const InputFrame f = frame(first, 9);
    offered += f.inputs.size();
    queued += queue.accept(f);
    (void)queue.take_for_tick();
  }
  EXPECT_EQ(queue.stats().received, offered);
  EXPECT_EQ(queue.stats().queued, queued);
  EXPECT_EQ(queued + queue.drops().total(), offered);
}

TEST(InputDropReason, EveryReasonHasAName) {
  for (std::size_t i = 0; i < InputDropCounters::size(); ++i) {
    const auto reason = static_cast<InputDropReason>(i);
    if (reason == InputDropReason::count_) continue;
    EXPECT_NE(reason_name(reason), "unknown");
  }
  EXPECT_EQ(tick_input_source_name(TickInputSource::zeroed), "zeroed");
}

}  // namespace
}  // namespace tickwire

namespace tickwire {
namespace {

TEST(InputQueue, AFramesClaimRidesWithItsNewestInputOnly) {
  InputQueue queue;
  protocol::InputFrame frame;
  frame.first_sequence = 0;
  frame.inputs.resize(3);
  protocol::Claim claim;
  claim.position = {1, 2, 3};
  claim.placement_epoch = 4;
  frame.claim = claim;
  EXPECT_EQ(queue.accept(frame), 3u);
  EXPECT_FALSE(queue.take_for_tick().claim);
  EXPECT_FALSE(queue.take_for_tick().claim);
  const TickInput newest = queue.take_for_tick();
  ASSERT_TRUE(newest.claim);
  EXPECT_EQ(newest.claim->position, claim.position);
  EXPECT_EQ(newest.claim->placement_epoch, 4);
  EXPECT_FALSE(queue.take_for_tick().claim) << "a starved tick carries no claim";
}

}  // namespace
}  // namespace tickwire
