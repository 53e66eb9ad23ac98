// The render clock's law in isolation: the +-max_rate clamp, the low-water headroom it steers,
// holding past the newest tick, waiting at the extrapolation cap (never moving backward), and
// snapping only behind the ring, one stall's backlog counting as one snap.
#include "tickwire/client/render_clock.h"

#include <gtest/gtest.h>

namespace tickwire {
namespace {

RenderClockBounds bounds_at(double newest, double delay = 3.0) {
  RenderClockBounds b;
  b.newest_tick = newest;
  b.delay_ticks = delay;
  b.halt_tick = newest + 6.0;
  b.back_edge_tick = newest - 15.0;
  b.snap_tick = newest - 12.0;
  b.snap_merge_ticks = 4.0;
  return b;
}

TEST(RenderClock, TheRateCorrectionIsProportionalAndClamped) {
  const RenderClock clock;
  EXPECT_DOUBLE_EQ(clock.rate_for(0.0), 1.0);
  EXPECT_DOUBLE_EQ(clock.rate_for(1.0), 1.02);
  EXPECT_DOUBLE_EQ(clock.rate_for(-2.0), 0.96);
  EXPECT_DOUBLE_EQ(clock.rate_for(100.0), 1.05);
  EXPECT_DOUBLE_EQ(clock.rate_for(-100.0), 0.95);
  const RenderClock stiff(RenderClockConfig{.max_rate = 0.02, .gain_per_tick = 1.0});
  EXPECT_DOUBLE_EQ(stiff.rate_for(0.5), 1.02);
}

TEST(RenderClock, SteersTheLowWaterHeadroomToTheDelayLessHalfATick) {
  RenderClock clock;
  clock.place(10.0, 12.5);  // headroom 2.5 = delay 3 - 1/2: on target
  EXPECT_DOUBLE_EQ(clock.low_water_ticks(), 2.5);
  RenderClockStep step = clock.advance(1.0, bounds_at(12.5));
  EXPECT_DOUBLE_EQ(step.rate, 1.0);
  EXPECT_DOUBLE_EQ(clock.render_tick(), 11.0);
  EXPECT_DOUBLE_EQ(step.advanced_ticks, 1.0);
  // Newer ticks arrive: headroom grows, the mark climbs back only at max_rate x dt.
  step = clock.advance(1.0, bounds_at(20.0));
  EXPECT_DOUBLE_EQ(clock.low_water_ticks(), 1.5 + 0.05);
  EXPECT_LT(step.rate, 1.0) << "the mark was below its goal when the step began";
  // A dip is followed at once.
  clock.advance(1.0, bounds_at(14.0));
  EXPECT_NEAR(clock.low_water_ticks(), 14.0 - clock.render_tick(), 1e-12);
}

TEST(RenderClock, HoldsPastTheNewestTickAndWaitsAtTheCap) {
  RenderClock clock;
  clock.place(9.0, 10.0);
  RenderClockStep step = clock.advance(2.0, bounds_at(10.0));
  EXPECT_TRUE(step.held);
  EXPECT_FALSE(step.halted);
  step = clock.advance(10.0, bounds_at(10.0));
  EXPECT_TRUE(step.halted);
  EXPECT_TRUE(step.held);
  EXPECT_DOUBLE_EQ(clock.render_tick(), 16.0) << "newest + cap";
  // The cap lowered live: the clock waits where it is rather than stepping back.
  RenderClockBounds lowered = bounds_at(10.0);
  lowered.halt_tick = 12.0;
  step = clock.advance(1.0, lowered);
  EXPECT_TRUE(step.halted);
  EXPECT_DOUBLE_EQ(clock.render_tick(), 16.0);
  EXPECT_DOUBLE_EQ(step.advanced_ticks, 0.0);
  // A zero cap: waiting on the newest tick itself is a held frame.
  RenderClock zero;
  zero.place(9.5, 10.0);
  RenderClockBounds no_cap = bounds_at(10.0);
  no_cap.halt_tick = 10.0;
  step = zero.advance(1.0, no_cap);
  EXPECT_TRUE(step.halted && step.held);
  EXPECT_DOUBLE_EQ(zero.render_tick(), 10.0);
}

TEST(RenderClock, SnapsOnlyBehindTheRingAndOnceForOneBacklog) {
  RenderClock clock;
  clock.place(100.0, 103.0);
  RenderClockStep step = clock.advance(1.0, bounds_at(115.0));  // back edge 100 < 101: inside
  EXPECT_FALSE(step.snapped);
  step = clock.advance(1.0, bounds_at(200.0));  // the ring moved far past the clock
  EXPECT_TRUE(step.snapped);
  EXPECT_FALSE(step.snap_continued);
  EXPECT_DOUBLE_EQ(clock.render_tick(), 188.0);
  EXPECT_DOUBLE_EQ(clock.low_water_ticks(), 12.0);
  EXPECT_FALSE(step.held);
  // More of the same backlog on the next frames: re-landed, the same snap.
  step = clock.advance(1.0, bounds_at(220.0));
  EXPECT_TRUE(step.snapped && step.snap_continued);
  step = clock.advance(1.0, bounds_at(221.0));
  EXPECT_FALSE(step.snapped);
  clock.advance(3.0, bounds_at(224.0));
  // Past the merge window a fall-out is a new snap.
  step = clock.advance(1.0, bounds_at(300.0));
  EXPECT_TRUE(step.snapped);
  EXPECT_FALSE(step.snap_continued);
}

// A stall the clock waited out is not a staircase step: the first frame after it takes the headroom
// its backlog brings at once, so the clock speeds toward its goal. (Climbing back at max_rate from
// the stall's negative headroom, it would slow down while far behind, and fall out of the ring.)
TEST(RenderClock, AfterAStallItWaitedOutTheHeadroomIsTakenAtOnce) {
  RenderClock clock;
  clock.place(10.0, 12.5);
  double newest = 12.5;
  for (int i = 0; i < 12; ++i) (void)clock.advance(1.0, bounds_at(newest));  // nothing arrives: held, then waiting at the cap
  EXPECT_LT(clock.low_water_ticks(), 0.0) << "the stall's depth";
  newest += 20.0;  // the backlog lands at once
  RenderClockStep step = clock.advance(1.0, bounds_at(newest));
  EXPECT_FALSE(step.held);
  EXPECT_DOUBLE_EQ(clock.low_water_ticks(), newest - clock.render_tick());
  step = clock.advance(1.0, bounds_at(newest + 1.0));
  EXPECT_DOUBLE_EQ(step.rate, 1.05) << "far behind its goal: it speeds up, it does not slow";
}

TEST(RenderClock, ResetUnplaces) {
  RenderClock clock;
  clock.place(5.0, 8.0);
  clock.reset();
  EXPECT_FALSE(clock.placed());
  EXPECT_FALSE(render_clock_config_valid(RenderClockConfig{.max_rate = 1.5, .gain_per_tick = 0.02}));
  EXPECT_FALSE(render_clock_config_valid(RenderClockConfig{.max_rate = 0.05, .gain_per_tick = -1.0}));
}

}  // namespace
}  // namespace tickwire
