// The input queue, case by case: redundant copies dropped by reason, the 12-input cap, one input
// per tick oldest first, the exact starvation rule (3 repeats, then zero movement with look kept),
// the honest ack that only a fresh tick advances, the signed depth byte and the sequence end.
#include "tickwire/server/input_queue.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "support.h"

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
  ASSERT_EQ(queue.accept(frame(40, 1)), 1u);
  const InputCmd last = cmd_for(40);
  ASSERT_TRUE(queue.take_for_tick().fresh());
  for (uint32_t run = 1; run <= 200; ++run) {
    const TickInput input = queue.take_for_tick();
    EXPECT_EQ(input.starved_run_ticks, run);
    EXPECT_EQ(input.sequence, 40u);
    EXPECT_EQ(queue.ack_sequence(), 40u) << "a starved tick never advances the ack";
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
  ASSERT_EQ(queue.accept(frame(41, 2)), 2u);
  EXPECT_EQ(queue.depth_byte(), 2);
  const TickInput back = queue.take_for_tick();
  EXPECT_TRUE(back.fresh());
  EXPECT_EQ(back.starved_run_ticks, 0u);
  EXPECT_EQ(queue.depth_byte(), 1);
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
  EXPECT_FALSE(queue.take_for_tick().fresh());
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
