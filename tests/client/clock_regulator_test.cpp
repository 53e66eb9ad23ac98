// The regulator's rules one at a time: the +-clockMaxRate clamp, the depth filter, stale readings,
// the margin's growth/cap/decay (and acquisition), the hold on a full second of un-acked input, the
// backlog's independence from the rate, live retuning and reset.
#include "tickwire/client/clock_regulator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>

#include "support.h"
#include "tickwire/core/rng.h"

namespace tickwire {
namespace {

constexpr Duration kTick = Duration::nanoseconds(16'666'667);  // 60 Hz
constexpr MonoTime kStart = MonoTime::from_ns(5'000'000'000);

MonoTime at_tick(int64_t tick) { return kStart + kTick * tick; }

// Feeds `depth` for ticks first..first+count-1, one reading per tick; returns the next tick.
int64_t feed(ClockRegulator& regulator, int64_t first, int64_t count, int8_t depth) {
  for (int64_t t = first; t < first + count; ++t) regulator.on_depth_reading(Tick::from_value(t), depth, at_tick(t));
  return first + count;
}

// A regulator whose lead is acquired (a first reading at the base depth), margin zero.
// A margin law of half a tick per starved tick and 4 s per tick handed back: the numbers the margin
// cases below are worked in (the defaults are a tick and 10 s).
ClockRegulatorSettings half_tick_law() {
  ClockRegulatorSettings settings;
  settings.margin_growth_ticks = 0.5;
  settings.margin_decay = Duration::seconds(4);
  return settings;
}

ClockRegulator acquired_regulator(const ClockRegulatorSettings& settings = {}) {
  ClockRegulator regulator(kTick, settings, kStart);
  feed(regulator, 0, 1, 2);
  EXPECT_TRUE(regulator.acquired());
  return regulator;
}

TEST(ClockRegulator, RunsAtTheNominalRateUntilTheFirstReading) {
  ClockRegulator regulator(kTick, {}, kStart);
  regulator.update(kStart + Duration::seconds(3), 0);
  EXPECT_EQ(regulator.rate(), 1.0);
  EXPECT_FALSE(regulator.last_depth().has_value());
  EXPECT_FALSE(regulator.smoothed_depth_ticks().has_value());
  EXPECT_DOUBLE_EQ(regulator.target_depth_ticks(), 2.0);
}

TEST(ClockRegulator, RateIsClampedAtPlusMinusClockMaxRate) {
  ClockRegulator regulator(kTick, {}, kStart);
  int64_t tick = feed(regulator, 0, 600, 12);  // a full queue for 10 s: slow down, as far as allowed
  EXPECT_DOUBLE_EQ(regulator.rate(), 0.98);
  tick = feed(regulator, tick, 600, -1);  // starved for 10 s: speed up, as far as allowed
  EXPECT_DOUBLE_EQ(regulator.rate(), 1.02);
  EXPECT_DOUBLE_EQ(regulator.counters().min_rate, 0.98);
  EXPECT_DOUBLE_EQ(regulator.counters().max_rate, 1.02);
  // Every rate ever produced lies inside the clamp, whatever the readings.
  Rng rng(test::test_seed(71));
  ClockRegulator wild(kTick, {}, kStart);
  for (int64_t t = 0; t < 5000; ++t) {
    wild.on_depth_reading(Tick::from_value(t), static_cast<int8_t>(rng.between(-128, 127)), at_tick(t));
    wild.update(at_tick(t), static_cast<uint32_t>(rng.below(200)));
    ASSERT_GE(wild.rate(), 0.98);
    ASSERT_LE(wild.rate(), 1.02);
  }
}

TEST(ClockRegulator, ADepthBelowTargetSpeedsUpAndAboveSlowsDown) {
  ClockRegulator low(kTick, {}, kStart);
  feed(low, 0, 1, 1);
  EXPECT_GT(low.rate(), 1.0);
  ClockRegulator high(kTick, {}, kStart);
  feed(high, 0, 1, 3);
  EXPECT_LT(high.rate(), 1.0);
  ClockRegulator on_target(kTick, {}, kStart);
  feed(on_target, 0, 120, 2);
  EXPECT_DOUBLE_EQ(on_target.rate(), 1.0);
}

TEST(ClockRegulator, DepthFilterStartsAtTheFirstReadingAndFollowsWithItsTimeConstant) {
  ClockRegulatorSettings settings;
  settings.depth_smoothing = Duration::milliseconds(300);
  ClockRegulator regulator(kTick, settings, kStart);
  feed(regulator, 0, 1, 4);
  EXPECT_DOUBLE_EQ(*regulator.smoothed_depth_ticks(), 4.0);  // not a ramp from zero
  feed(regulator, 1, 18, 2);                                  // 18 ticks = 300 ms: one time constant
  const double expected = 2.0 + 2.0 * std::exp(-18.0 * kTick.seconds_f() / 0.3);
  EXPECT_NEAR(*regulator.smoothed_depth_ticks(), expected, 1e-9);
  // A reading after lost snapshots weighs for the ticks it covers: one jump of 18 ticks moves the
  // filter exactly as 18 consecutive readings of the same value would.
  ClockRegulator gap(kTick, settings, kStart);
  feed(gap, 0, 1, 4);
  gap.on_depth_reading(Tick::from_value(18), 2, at_tick(18));
  EXPECT_NEAR(*gap.smoothed_depth_ticks(), expected, 1e-9);
  // depthSmoothing 0: the raw reading.
  settings.depth_smoothing = Duration{};
  ClockRegulator raw(kTick, settings, kStart);
  feed(raw, 0, 1, 4);
  feed(raw, 1, 1, 1);
  EXPECT_DOUBLE_EQ(*raw.smoothed_depth_ticks(), 1.0);
}

TEST(ClockRegulator, ReadingsNotNewerThanTheLastAreCountedAndIgnored) {
  ClockRegulator regulator(kTick, {}, kStart);
  feed(regulator, 10, 1, 3);
  const double smoothed = *regulator.smoothed_depth_ticks();
  regulator.on_depth_reading(Tick::from_value(10), -5, at_tick(11));  // duplicate
  regulator.on_depth_reading(Tick::from_value(7), -5, at_tick(11));   // reordered, older
  EXPECT_EQ(regulator.counters().stale_readings, 2u);
  EXPECT_EQ(regulator.counters().readings, 1u);
  EXPECT_EQ(regulator.counters().starved_ticks, 0u);
  EXPECT_EQ(*regulator.last_depth(), 3);
  EXPECT_DOUBLE_EQ(*regulator.smoothed_depth_ticks(), smoothed);
}

TEST(ClockRegulator, StarvedTicksBeforeAcquisitionDoNotWidenTheMargin) {
  ClockRegulator regulator(kTick, {}, kStart);
  int64_t tick = 0;
  for (int8_t run = 1; run <= 5; ++run) tick = feed(regulator, tick, 1, static_cast<int8_t>(-run));
  tick = feed(regulator, tick, 30, 1);  // the lead is still being built
  EXPECT_FALSE(regulator.acquired());
  EXPECT_EQ(regulator.counters().starved_ticks, 5u);
  EXPECT_EQ(regulator.counters().margin_growths, 0u);
  EXPECT_EQ(regulator.margin_ticks(), 0.0);
  tick = feed(regulator, tick, 1, 2);  // one lucky reading at the base depth is not the lead
  EXPECT_FALSE(regulator.acquired());
  tick = feed(regulator, tick, 1, -1);
  EXPECT_EQ(regulator.counters().margin_growths, 0u);
  while (!regulator.acquired() && tick < 1000) tick = feed(regulator, tick, 1, 3);
  EXPECT_GE(*regulator.smoothed_depth_ticks(), 2.0);  // the filtered depth reached the base
  feed(regulator, tick, 1, -1);
  EXPECT_EQ(regulator.counters().margin_growths, 1u);
  EXPECT_GT(regulator.margin_ticks(), 0.0);
}

TEST(ClockRegulator, EachStarvedTickReportedWidensTheMarginOnce) {
  ClockRegulator regulator = acquired_regulator(half_tick_law());  // growth 0.5, max 4
  // A run reported on consecutive ticks as -1, -2, -3 is three starved ticks, not six.
  regulator.on_depth_reading(Tick::from_value(1), -1, at_tick(1));
  regulator.on_depth_reading(Tick::from_value(2), -2, at_tick(2));
  regulator.on_depth_reading(Tick::from_value(3), -3, at_tick(3));
  EXPECT_EQ(regulator.counters().starved_ticks, 3u);
  EXPECT_NEAR(regulator.margin_ticks(), 1.5, 0.05);  // less the calm decay between readings
  // Two snapshots lost: a run of 6 reported at tick 6 adds the three ticks after tick 3.
  regulator.on_depth_reading(Tick::from_value(6), -6, at_tick(6));
  EXPECT_EQ(regulator.counters().starved_ticks, 6u);
  EXPECT_EQ(regulator.counters().margin_growths, 6u);
  EXPECT_NEAR(regulator.margin_ticks(), 3.0, 0.05);
  EXPECT_NEAR(regulator.target_depth_ticks(), 5.0, 0.05);
}

TEST(ClockRegulator, MarginIsCappedByMarginMaxAndBleedsOffOverCalmSeconds) {
  ClockRegulatorSettings settings;
  settings.margin_growth_ticks = 0.5;
  settings.margin_max_ticks = 3.0;
  settings.margin_decay = Duration::seconds(4);
  ClockRegulator regulator = acquired_regulator(settings);
  regulator.on_depth_reading(Tick::from_value(40), -40, at_tick(40));  // a long starved run
  EXPECT_EQ(regulator.counters().starved_ticks, 40u);                   // ticks 1..40
  EXPECT_DOUBLE_EQ(regulator.margin_ticks(), 3.0);
  const MonoTime calm_from = at_tick(40);
  regulator.update(calm_from + Duration::seconds(4), 0);
  EXPECT_NEAR(regulator.margin_ticks(), 2.0, 1e-9);  // one tick handed back per marginDecay
  regulator.update(calm_from + Duration::seconds(10), 0);
  EXPECT_NEAR(regulator.margin_ticks(), 0.5, 1e-9);
  regulator.update(calm_from + Duration::seconds(60), 0);
  EXPECT_EQ(regulator.margin_ticks(), 0.0);
  EXPECT_DOUBLE_EQ(regulator.target_depth_ticks(), 2.0);
}

TEST(ClockRegulator, AutoMarginOffKeepsTheTargetAtTheBaseDepth) {
  ClockRegulatorSettings settings;
  settings.auto_margin = false;
  ClockRegulator regulator = acquired_regulator(settings);
  feed(regulator, 1, 1, -1);
  feed(regulator, 2, 1, -2);
  EXPECT_EQ(regulator.counters().starved_ticks, 2u);
  EXPECT_EQ(regulator.margin_ticks(), 0.0);
  EXPECT_DOUBLE_EQ(regulator.target_depth_ticks(), 2.0);
}

TEST(ClockRegulator, HoldsOnlyAfterAFullSecondOfUnackedInputAndReleasesWhenAcksResume) {
  ClockRegulator regulator(kTick, {}, kStart);
  feed(regulator, 0, 1, 2);
  regulator.update(at_tick(1), 59);  // 983 ms of un-acked input: a bad ping, not a dead link
  EXPECT_FALSE(regulator.holding());
  regulator.update(at_tick(2), 60);  // a full second
  EXPECT_TRUE(regulator.holding());
  regulator.update(at_tick(30), 60);  // stays held while nothing is acked
  EXPECT_TRUE(regulator.holding());
  EXPECT_EQ(regulator.counters().holds, 1u);
  regulator.update(at_tick(31), 52);  // a straggler ack sent before the link died: still held
  EXPECT_TRUE(regulator.holding());
  regulator.update(at_tick(40), 29);  // acks resumed: under half a second un-acked
  EXPECT_FALSE(regulator.holding());
  regulator.update(at_tick(41), 45);  // producing again, under the hold: no new hold
  EXPECT_FALSE(regulator.holding());
  EXPECT_EQ(regulator.counters().holds, 1u);
  // holdBacklog is live: half a second holds at 30 inputs.
  ClockRegulatorSettings settings;
  settings.hold_backlog = Duration::milliseconds(500);
  regulator.set_settings(settings, at_tick(32));
  regulator.update(at_tick(33), 30);
  EXPECT_TRUE(regulator.holding());
  EXPECT_EQ(regulator.counters().holds, 2u);
  regulator.update(at_tick(34), 14);
  EXPECT_FALSE(regulator.holding());
}

TEST(ClockRegulator, TheUnackedBacklogNeverMovesTheRate) {
  ClockRegulator idle(kTick, {}, kStart);
  ClockRegulator backlogged(kTick, {}, kStart);
  Rng rng(test::test_seed(73));
  for (int64_t t = 0; t < 3000; ++t) {
    const auto depth = static_cast<int8_t>(rng.between(-3, 6));
    idle.on_depth_reading(Tick::from_value(t), depth, at_tick(t));
    backlogged.on_depth_reading(Tick::from_value(t), depth, at_tick(t));
    idle.update(at_tick(t), 0);
    // 100 ms RTT floors the backlog near 6 ticks; anything below the hold never counts.
    backlogged.update(at_tick(t), static_cast<uint32_t>(rng.between(6, 59)));
    ASSERT_EQ(idle.rate(), backlogged.rate()) << "tick " << t;
  }
  EXPECT_FALSE(backlogged.holding());
  // Even a hold leaves the rate alone.
  backlogged.update(at_tick(3000), 200);
  EXPECT_TRUE(backlogged.holding());
  idle.update(at_tick(3000), 0);
  EXPECT_EQ(idle.rate(), backlogged.rate());
}

TEST(ClockRegulator, TheIntegralTermPushesOnWhileAnErrorPersists) {
  ClockRegulatorSettings settings;
  settings.rate_gain_per_tick = 0.005;
  settings.rate_integral_time = Duration::seconds(4);
  ClockRegulator with_integral(kTick, settings, kStart);
  settings.rate_integral_time = Duration{};
  ClockRegulator proportional(kTick, settings, kStart);
  feed(with_integral, 0, 120, 1);  // one tick short for 2 s
  feed(proportional, 0, 120, 1);
  EXPECT_NEAR(proportional.rate(), 1.005, 1e-12);
  EXPECT_GT(with_integral.rate(), 1.005 + 0.002);
  EXPECT_LE(with_integral.rate(), 1.02);
}

TEST(ClockRegulator, ALongGapBetweenReadingsDoesNotSlamTheIntegral) {
  ClockRegulatorSettings settings;
  settings.rate_gain_per_tick = 0.005;
  settings.rate_integral_time = Duration::seconds(2);
  ClockRegulator regulator(kTick, settings, kStart);
  feed(regulator, 0, 1, 1);
  feed(regulator, 600, 1, 1);  // 10 s of lost snapshots, one tick short on both sides
  // Proportional 0.5%; the gap is credited at most 6 ticks (100 ms) of integral, not 10 s.
  EXPECT_GT(regulator.rate(), 1.005);
  EXPECT_LT(regulator.rate(), 1.0055);
}

TEST(ClockRegulator, NoWindUpWhilePinnedAtTheClamp) {
  ClockRegulator regulator(kTick, {}, kStart);
  int64_t tick = feed(regulator, 0, 1200, -1);  // 20 s pinned at +2%
  EXPECT_DOUBLE_EQ(regulator.rate(), 1.02);
  // Once the queue is over the target the rate leaves the fast clamp within the filter's lag.
  tick = feed(regulator, tick, 60, 6);
  EXPECT_LT(regulator.rate(), 1.0);
}

TEST(ClockRegulator, SettingsReplacedBetweenFramesTakeEffectAtOnce) {
  ClockRegulator regulator(kTick, {}, kStart);
  int64_t tick = feed(regulator, 0, 120, -5);  // far below the target: pinned at the clamp
  EXPECT_DOUBLE_EQ(regulator.rate(), 1.02);
  ClockRegulatorSettings settings = regulator.settings();
  settings.clock_max_rate = 0.05;
  regulator.set_settings(settings, at_tick(tick));
  EXPECT_DOUBLE_EQ(regulator.rate(), 1.05);
  settings.base_depth_ticks = 3.0;
  regulator.set_settings(settings, at_tick(tick));
  EXPECT_DOUBLE_EQ(regulator.target_depth_ticks(), 3.0);
  settings.rate_gain_per_tick = 0.0;
  settings.rate_integral_time = Duration{};
  regulator.set_settings(settings, at_tick(tick));
  EXPECT_DOUBLE_EQ(regulator.rate(), 1.0);  // no gain, no integral: the nominal rate
}

TEST(ClockRegulator, RetuningTheMarginLawCarriesTheEarnedMargin) {
  ClockRegulator regulator = acquired_regulator(half_tick_law());  // growth 0.5, max 4, decay 4 s
  feed(regulator, 1, 1, -1);
  feed(regulator, 2, 1, -2);
  feed(regulator, 3, 1, -3);
  feed(regulator, 4, 1, -4);
  feed(regulator, 5, 1, -5);  // 2.5 ticks earned, less a little calm decay between them
  const MonoTime now = at_tick(5);
  const double earned = regulator.margin_ticks();
  ASSERT_NEAR(earned, 2.5, 0.05);
  ClockRegulatorSettings settings = regulator.settings();
  settings.margin_growth_ticks = 1.0;
  settings.margin_decay = Duration::seconds(1);
  regulator.set_settings(settings, now);
  EXPECT_NEAR(regulator.margin_ticks(), earned, 1e-6);  // carried, not re-earned from zero
  regulator.update(now + Duration::seconds(1), 0);
  EXPECT_NEAR(regulator.margin_ticks(), earned - 1.0, 1e-6);  // the new decay
  regulator.on_depth_reading(Tick::from_value(66), -1, now + Duration::seconds(1));
  EXPECT_NEAR(regulator.margin_ticks(), earned, 1e-6);  // the new growth
  settings.margin_max_ticks = 1.0;
  regulator.set_settings(settings, now + Duration::seconds(1));
  EXPECT_NEAR(regulator.margin_ticks(), 1.0, 1e-6);  // clamped to the new max
  settings.auto_margin = false;
  regulator.set_settings(settings, now + Duration::seconds(1));
  EXPECT_EQ(regulator.margin_ticks(), 0.0);
}

TEST(ClockRegulator, SettingsAreClampedIntoTheirLimits) {
  ClockRegulatorSettings wild;
  wild.clock_max_rate = 0.5;
  wild.base_depth_ticks = std::numeric_limits<double>::quiet_NaN();
  wild.margin_max_ticks = 100.0;
  wild.margin_growth_ticks = -1.0;
  wild.hold_backlog = Duration::milliseconds(1);
  wild.depth_smoothing = Duration::seconds(-1);
  const ClockRegulatorSettings out = sanitized(wild);
  EXPECT_DOUBLE_EQ(out.clock_max_rate, kClockMaxRateLimit);
  EXPECT_DOUBLE_EQ(out.base_depth_ticks, ClockRegulatorSettings{}.base_depth_ticks);
  EXPECT_DOUBLE_EQ(out.base_depth_ticks + out.margin_max_ticks, kClockTargetDepthLimitTicks);
  EXPECT_DOUBLE_EQ(out.margin_growth_ticks, kClockMinMarginGrowthTicks);
  EXPECT_EQ(out.hold_backlog, kClockMinHoldBacklog);
  EXPECT_EQ(out.depth_smoothing, Duration{});
  ClockRegulator regulator(kTick, wild, kStart);
  EXPECT_DOUBLE_EQ(regulator.settings().clock_max_rate, kClockMaxRateLimit);
}

TEST(ClockRegulator, ResetClearsEverySessionState) {
  ClockRegulator regulator = acquired_regulator();
  ClockRegulatorSettings settings = regulator.settings();
  settings.clock_max_rate = 0.03;
  regulator.set_settings(settings, at_tick(1));
  int64_t tick = feed(regulator, 1, 10, -1);  // starved: margin earned, fast rate
  tick = feed(regulator, tick, 1, -7);
  regulator.update(at_tick(tick), 90);  // held
  ASSERT_TRUE(regulator.holding());
  ASSERT_GT(regulator.margin_ticks(), 0.0);
  ASSERT_GT(regulator.rate(), 1.0);

  regulator.reset(at_tick(tick));
  EXPECT_FALSE(regulator.last_depth().has_value());
  EXPECT_FALSE(regulator.smoothed_depth_ticks().has_value());
  EXPECT_EQ(regulator.rate(), 1.0);
  EXPECT_EQ(regulator.margin_ticks(), 0.0);
  EXPECT_FALSE(regulator.acquired());
  EXPECT_FALSE(regulator.holding());
  const ClockRegulatorCounters& counters = regulator.counters();
  EXPECT_EQ(counters.readings, 0u);
  EXPECT_EQ(counters.stale_readings, 0u);
  EXPECT_EQ(counters.starved_ticks, 0u);
  EXPECT_EQ(counters.margin_growths, 0u);
  EXPECT_EQ(counters.holds, 0u);
  EXPECT_EQ(counters.min_rate, 1.0);
  EXPECT_EQ(counters.max_rate, 1.0);
  EXPECT_DOUBLE_EQ(regulator.settings().clock_max_rate, 0.03);  // the user's settings stay
  // The next session's ticks start anywhere: tick 0 is a reading, not a stale one.
  regulator.on_depth_reading(Tick::from_value(0), 2, at_tick(tick + 1));
  EXPECT_EQ(regulator.counters().readings, 1u);
  EXPECT_EQ(*regulator.last_depth(), 2);
  EXPECT_DOUBLE_EQ(regulator.rate(), 1.0);  // the new link is not regulated by the old integral
}

}  // namespace
}  // namespace tickwire
