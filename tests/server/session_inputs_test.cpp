// The preparing seam: an input is taken once per simulated tick and never per poll, catch-up ticks
// each take their own, a tick cannot be prepared twice, and the owner report is the truth as of
// the tick's take even when more packets are received before the snapshot is built.
#include "tickwire/server/session_inputs.h"

#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "support.h"

namespace tickwire {
namespace {

protocol::InputFrame frame(uint32_t first, uint32_t count) {
  protocol::InputFrame f;
  f.first_sequence = first;
  for (uint32_t i = 0; i < count; ++i) {
    protocol::InputCmd cmd;
    cmd.yaw_deg = static_cast<float>(first + i);
    f.inputs.push_back(cmd);
  }
  return f;
}

TEST(SessionInputs, ManyPacketsInOnePollStillApplyOneInputPerTick) {
  SessionInputs session;
  // Five packets drained in one poll, each repeating the earlier inputs.
  for (uint32_t n = 1; n <= 5; ++n) session.receive(frame(0, n));
  EXPECT_EQ(session.queue().waiting_ticks(), 5u);
  EXPECT_EQ(session.queue().drops()[InputDropReason::duplicate], 10u);
  // One loop iteration running four catch-up ticks.
  for (int64_t t = 1; t <= 4; ++t) {
    const TickInput& input = session.prepare(Tick::from_value(t));
    EXPECT_TRUE(input.fresh());
    EXPECT_EQ(input.sequence, static_cast<uint32_t>(t - 1));
    EXPECT_EQ(session.report().tick, Tick::from_value(t));
    EXPECT_EQ(session.report().ack_sequence, static_cast<uint32_t>(t - 1));
    EXPECT_EQ(session.report().queue_depth, static_cast<int8_t>(5 - t));
  }
}

TEST(SessionInputs, TheReportIsCapturedAtTheTakeNotWhenTheSnapshotIsBuilt) {
  SessionInputs session;
  session.receive(frame(0, 1));
  session.prepare(Tick::from_value(1));
  session.receive(frame(0, 6));  // arrives after the take, before the snapshot of tick 1
  EXPECT_EQ(session.report().ack_sequence, 0u);
  EXPECT_EQ(session.report().queue_depth, 0);
  EXPECT_EQ(session.queue().depth_byte(), 5);
}

TEST(SessionInputs, PreparingATickTwiceOrBackwardsIsAProgrammerError) {
  test::ThrowOnAssert guard;
  SessionInputs session;
  EXPECT_THROW((void)session.current(), test::AssertionFailure);
  session.prepare(Tick::from_value(7));
  EXPECT_THROW(session.prepare(Tick::from_value(7)), test::AssertionFailure);
  EXPECT_THROW(session.prepare(Tick::from_value(6)), test::AssertionFailure);
  // A tick the room clock declared dropped is skipped: it simulates nothing and takes nothing.
  session.receive(frame(0, 2));
  EXPECT_EQ(session.prepare(Tick::from_value(20)).sequence, 0u);
  EXPECT_EQ(session.queue().waiting_ticks(), 1u);
}

TEST(SessionInputs, PrepareTickTakesOneInputForEverySession) {
  std::array<SessionInputs, 3> sessions;
  sessions[0].receive(frame(0, 3));
  sessions[2].receive(frame(10, 1));
  prepare_tick(sessions, Tick::from_value(1));
  EXPECT_TRUE(sessions[0].current().fresh());
  EXPECT_EQ(sessions[1].current().source, TickInputSource::repeated);
  EXPECT_EQ(sessions[1].report().queue_depth, -1);
  EXPECT_EQ(sessions[2].current().sequence, 10u);
  EXPECT_EQ(sessions[0].report().queue_depth, 2);
}

}  // namespace
}  // namespace tickwire
