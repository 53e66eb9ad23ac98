// A server-time room's inputs (seed 002): its clients run their own logic rates, so a tick takes
// every input that arrived, merged (the mean movement, the newest look, every button pressed), and
// acks the newest; a later copy of a merged input is a duplicate; an empty tick starves as in the
// other modes; a frame stamped too far past the server's time is refused whole, by name.
#include <gtest/gtest.h>

#include <cstdint>

#include "tickwire/protocol/timed_input_frame.h"
#include "tickwire/server/input_queue.h"
#include "tickwire/server/session_inputs.h"
#include "tickwire/wire/quantize.h"

namespace tickwire {
namespace {

using protocol::InputCmd;

InputCmd move(float x, float y, uint32_t buttons, float yaw) {
  InputCmd cmd;
  cmd.move_x = x;
  cmd.move_y = y;
  cmd.buttons = buttons;
  cmd.yaw_deg = yaw;
  cmd.pitch_deg = 5.0f;
  return cmd;
}

InputQueueConfig merging() {
  InputQueueConfig config;
  config.merge_arrived = true;
  return config;
}

TEST(ServerTimeInputs, ATickTakesEveryArrivedInputMergedAndAcksTheNewest) {
  InputQueue queue(merging());
  const InputCmd cmds[] = {move(1.0f, 0.0f, 0x1, 10.0f), move(0.0f, 1.0f, 0x0, 20.0f), move(-0.5f, 0.5f, 0x4, 30.0f)};
  ASSERT_EQ(queue.accept(100, cmds), 3u);
  const TickInput input = queue.take_for_tick();
  EXPECT_TRUE(input.fresh());
  EXPECT_EQ(input.sequence, 102u);
  // The mean, on the wire's grid (a merged command is one a client could have sent).
  constexpr double kHalfStep = protocol::kMoveAxisSpec.resolution / 2;
  EXPECT_NEAR(input.cmd.move_x, 0.5 / 3.0, kHalfStep);
  EXPECT_NEAR(input.cmd.move_y, 0.5, kHalfStep);
  const auto on_grid = [](float axis) {
    return static_cast<float>(wire::dequantize(wire::quantize(axis, protocol::kMoveAxisSpec), protocol::kMoveAxisSpec));
  };
  EXPECT_EQ(input.cmd.move_x, on_grid(input.cmd.move_x));
  EXPECT_EQ(input.cmd.move_y, on_grid(input.cmd.move_y));
  EXPECT_EQ(input.cmd.buttons, 0x5u);  // a press shorter than a tick still reaches the game
  EXPECT_EQ(input.cmd.yaw_deg, 30.0f);  // the newest look
  EXPECT_EQ(queue.ack_sequence(), 102u);
  EXPECT_EQ(queue.waiting_ticks(), 0u);
  EXPECT_EQ(queue.stats().merged_inputs, 3u);
  // A redundant copy of any merged input is a duplicate, not a stale one.
  EXPECT_EQ(queue.accept(100, cmds), 0u);
  EXPECT_EQ(queue.drops()[InputDropReason::duplicate], 3u);
  EXPECT_EQ(queue.drops()[InputDropReason::stale], 0u);
}

TEST(ServerTimeInputs, AnEmptyTickStarvesOnTheLastMergedInput) {
  InputQueue queue(merging());
  const InputCmd cmds[] = {move(1.0f, 0.0f, 0x2, 90.0f)};
  ASSERT_EQ(queue.accept(7, cmds), 1u);
  (void)queue.take_for_tick();
  const TickInput repeated = queue.take_for_tick();
  EXPECT_EQ(repeated.source, TickInputSource::repeated);
  EXPECT_EQ(repeated.cmd.move_x, 1.0f);
  EXPECT_EQ(repeated.sequence, 7u);
  EXPECT_FALSE(repeated.guessed) << "server time has no tick per input to guess";
  EXPECT_EQ(queue.ack_sequence(), 7u);
  EXPECT_EQ(queue.depth_byte(), -1);
}

TEST(ServerTimeInputs, ASlowClientsInputSpansTicksAndAFastOnesAreMergedPerTick) {
  // 30 Hz logic against a 60 Hz room: one input, then a tick that repeats it.
  InputQueue slow(merging());
  const InputCmd one[] = {move(0.0f, 1.0f, 0, 0.0f)};
  ASSERT_EQ(slow.accept(0, one), 1u);
  EXPECT_TRUE(slow.take_for_tick().fresh());
  EXPECT_EQ(slow.take_for_tick().source, TickInputSource::repeated);
  // 144 Hz logic against a 30 Hz room: about five inputs a tick, all taken by one tick.
  InputQueue fast(merging());
  InputCmd five[5];
  for (int i = 0; i < 5; ++i) five[i] = move(0.0f, 1.0f, 0, static_cast<float>(i));
  ASSERT_EQ(fast.accept(0, five), 5u);
  const TickInput merged = fast.take_for_tick();
  EXPECT_EQ(merged.sequence, 4u);
  EXPECT_FLOAT_EQ(merged.cmd.move_y, 1.0f);
  EXPECT_EQ(fast.stats().fresh_ticks, 1u);
}

TEST(ServerTimeInputs, AFrameStampedPastTheLeadIsRefusedWholeByName) {
  InputQueueConfig config = merging();
  SessionInputs inputs(config);
  protocol::TimedInputFrame frame;
  frame.first_sequence = 0;
  frame.step_us = 6944;
  frame.inputs = {move(1.0f, 0.0f, 0, 0.0f), move(1.0f, 0.0f, 0, 0.0f)};
  frame.newest_stamp_us = 5'000'000 + 1'000'001;  // a clock a second and a microsecond fast
  EXPECT_EQ(inputs.receive_timed(frame, 5'000'000, 1'000'000), 0u);
  EXPECT_EQ(inputs.queue().drops()[InputDropReason::stamp_ahead], 2u);
  frame.newest_stamp_us = 5'000'000 + 1'000'000;  // at the lead: taken
  EXPECT_EQ(inputs.receive_timed(frame, 5'000'000, 1'000'000), 2u);
  EXPECT_EQ(inputs.prepare(Tick::from_value(1)).sequence, 1u);
}

TEST(ServerTimeInputs, AFramesStampsAreItsNewestLessWholeLogicSteps) {
  protocol::TimedInputFrame frame;
  frame.newest_stamp_us = 100'000;
  frame.step_us = 16'667;
  frame.inputs.resize(3);
  EXPECT_EQ(protocol::timed_input_stamp_us(frame, 2), 100'000u);
  EXPECT_EQ(protocol::timed_input_stamp_us(frame, 0), 100'000u - 2 * 16'667u);
  frame.newest_stamp_us = 10;  // near the server's start: saturates at 0
  EXPECT_EQ(protocol::timed_input_stamp_us(frame, 0), 0u);
  EXPECT_TRUE(protocol::timed_input_frame_valid(frame));
  frame.step_us = 0;
  EXPECT_FALSE(protocol::timed_input_frame_valid(frame));
  frame.step_us = protocol::MaxLogicStepUs + 1;
  EXPECT_FALSE(protocol::timed_input_frame_valid(frame));
  EXPECT_EQ(protocol::server_time_us_of_tick(90, 30), 3'000'000u);
  EXPECT_EQ(protocol::server_time_us_of_tick(1, 144), 6944u);
}

}  // namespace
}  // namespace tickwire
