// The room clock: due times by multiplication (no drift over 10^7 slots), bounded catch-up,
// overload declared as a discontinuity, and executed + declared + behind == ideal at every call
// through a simulated hour of random stalls.
#include "tickwire/clock/room_clock.h"

#include <gtest/gtest.h>

#include <cstdint>

#include "support.h"
#include "tickwire/core/rng.h"

namespace tickwire {
namespace {

constexpr MonoTime kOrigin = MonoTime::from_ns(123'456'789);

RoomClock make_clock(double rate_hz) {
  RoomClockConfig config;
  config.tick_rate_hz = rate_hz;
  config.origin = kOrigin;
  return RoomClock(config);
}

TEST(RoomClock, DueTimesAreExactByMultiplicationOverTenMillionSlots) {
  const RoomClock clock = make_clock(60.0);
  for (int64_t k = 0; k <= 10'000'000; ++k) {
    // The exact due time k * 1e9 / 60 ns rounded to nearest (its fraction is 0, 1/3 or 2/3, never a half).
    const int64_t exact_ns = (k * 1'000'000'000 + 30) / 60;
    const MonoTime due = clock.due_time(Tick::from_value(k));
    ASSERT_EQ((due - kOrigin).ns(), exact_ns) << "slot " << k;
    ASSERT_EQ(clock.ideal_ticks(due), k) << "slot " << k;
    if (k > 0) {
      ASSERT_EQ(clock.ideal_ticks(due - Duration::microseconds(1)), k - 1) << "slot " << k;
    }
  }
  // Ten million slots later the schedule is where multiplication says, to the nanosecond.
  EXPECT_EQ((clock.due_time(Tick::from_value(10'000'000)) - kOrigin).ns(), 166'666'666'666'667);
}

TEST(RoomClock, SlotBoundariesHoldForRatesWithoutAnExactPeriod) {
  for (const double rate : {20.0, 30.0, 64.0, 144.0, 59.94}) {
    const RoomClock clock = make_clock(rate);
    for (int64_t k = 0; k <= 1'000'000; k += 7) {
      const MonoTime due = clock.due_time(Tick::from_value(k));
      ASSERT_EQ(clock.ideal_ticks(due), k) << rate << " Hz slot " << k;
      if (k > 0) {
        ASSERT_EQ(clock.ideal_ticks(due - Duration::microseconds(1)), k - 1) << rate << " Hz slot " << k;
      }
    }
  }
}

TEST(RoomClock, NothingIsDueBeforeTheOrigin) {
  RoomClock clock = make_clock(60.0);
  EXPECT_EQ(clock.ideal_ticks(kOrigin - Duration::seconds(5)), 0);
  EXPECT_EQ(clock.ideal_ticks(kOrigin), 0);
  EXPECT_EQ(clock.advance(kOrigin).steps, 0u);
  EXPECT_EQ(clock.next_tick().value(), 1);
  EXPECT_EQ(clock.next_due(), clock.due_time(Tick::from_value(1)));
}

TEST(RoomClock, CatchUpIsBoundedAndTheBacklogRunsOnLaterCalls) {
  RoomClock clock = make_clock(60.0);
  const MonoTime late = clock.due_time(Tick::from_value(10));  // ten ticks due at once
  ClockPlan plan = clock.advance(late);
  EXPECT_EQ(plan.first_tick.value(), 1);
  EXPECT_EQ(plan.steps, kRoomClockDefaultMaxCatchUpTicks);
  EXPECT_FALSE(plan.discontinuity());
  EXPECT_EQ(clock.account(late).behind, 6);
  plan = clock.advance(late);
  EXPECT_EQ(plan.first_tick.value(), 5);
  EXPECT_EQ(plan.steps, 4u);
  plan = clock.advance(late);
  EXPECT_EQ(plan.first_tick.value(), 9);
  EXPECT_EQ(plan.steps, 2u);
  EXPECT_EQ(clock.advance(late).steps, 0u);
  const ClockAccount account = clock.account(late);
  EXPECT_EQ(account.executed, 10);
  EXPECT_EQ(account.declared, 0);
  EXPECT_EQ(account.executed + account.declared, account.ideal);
  EXPECT_EQ(clock.last_executed_tick().value(), 10);
}

TEST(RoomClock, OverloadRunsTheNewestTickAndDeclaresTheRest) {
  RoomClock clock = make_clock(60.0);
  ASSERT_EQ(clock.advance(clock.due_time(Tick::from_value(2))).steps, 2u);
  const MonoTime stalled = clock.due_time(Tick::from_value(2 + 100)) + Duration::milliseconds(3);
  const ClockPlan plan = clock.advance(stalled);
  EXPECT_TRUE(plan.discontinuity());
  EXPECT_EQ(plan.steps, 1u);
  EXPECT_EQ(plan.declared, 99);
  EXPECT_EQ(plan.first_tick.value(), 102);  // the real slot number: the jump is visible downstream
  EXPECT_EQ(clock.discontinuities(), 1u);
  EXPECT_EQ(clock.last_discontinuity().first_dropped.value(), 3);
  EXPECT_EQ(clock.last_discontinuity().dropped, 99);
  EXPECT_EQ(clock.last_discontinuity().at, stalled);
  const ClockAccount account = clock.account(stalled);
  EXPECT_EQ(account.executed, 3);
  EXPECT_EQ(account.declared, 99);
  EXPECT_EQ(account.executed + account.declared, account.ideal);
}

TEST(RoomClock, ABacklogJustUnderTheThresholdIsRecoveredNotDeclared) {
  RoomClock clock = make_clock(60.0);
  const int64_t backlog = kRoomClockDefaultOverloadThresholdTicks - 1;
  const MonoTime late = clock.due_time(Tick::from_value(backlog));
  int64_t run = 0;
  for (int call = 0; call < 100 && run < backlog; ++call) run += clock.advance(late).steps;
  EXPECT_EQ(run, backlog);
  EXPECT_EQ(clock.declared_ticks(), 0);
  EXPECT_EQ(clock.discontinuities(), 0u);
}

TEST(RoomClock, AClockReadGoingBackLosesNothing) {
  RoomClock clock = make_clock(60.0);
  const MonoTime t = clock.due_time(Tick::from_value(3));
  EXPECT_EQ(clock.advance(t).steps, 3u);
  EXPECT_EQ(clock.advance(t - Duration::milliseconds(40)).steps, 0u);
  const ClockAccount account = clock.account(t - Duration::milliseconds(40));
  EXPECT_TRUE(account.balanced());
  EXPECT_EQ(account.ideal, 3);
}

// A loop driven at a jittery cadence with random stalls (short ones recovered by catch-up, long
// ones declared) for one simulated hour. Every call: the plan continues the previous one exactly,
// at most max-catch-up steps run, and the accounting balances.
TEST(RoomClock, IdentityHoldsUnderRandomStallsOverASimulatedHour) {
  const uint64_t seed = test::test_seed(0x5eed'c10c);
  Rng rng(seed);
  RoomClock clock = make_clock(60.0);
  const MonoTime end = kOrigin + Duration::seconds(3600);
  MonoTime now = kOrigin;
  int64_t expected_next = 1;
  int64_t declared_seen = 0;
  uint64_t calls = 0;
  while (now < end) {
    if (rng.chance(0.002)) {
      now += Duration::milliseconds(rng.between(20, 3000));  // a stall: GC, swap, a suspended VM
    } else {
      now += Duration::microseconds(rng.between(2'000, 30'000));
    }
    const ClockPlan plan = clock.advance(now);
    ++calls;
    ASSERT_LE(plan.steps, kRoomClockDefaultMaxCatchUpTicks) << "seed=" << seed;
    if (plan.steps > 0) {
      ASSERT_EQ(plan.first_tick.value(), expected_next + plan.declared) << "seed=" << seed;
      expected_next = plan.last_tick().value() + 1;
    } else {
      ASSERT_EQ(plan.declared, 0) << "seed=" << seed;
    }
    declared_seen += plan.declared;
    const ClockAccount account = clock.account(now);
    ASSERT_TRUE(account.balanced()) << "seed=" << seed;
    ASSERT_LT(account.behind, kRoomClockDefaultOverloadThresholdTicks) << "seed=" << seed;
    ASSERT_LE(clock.due_time(plan.last_tick()), now) << "seed=" << seed;  // nothing runs early
  }
  // Drain at the nominal cadence: once caught up, executed + declared == ideal exactly.
  for (int i = 0; i < 1000 && clock.account(now).behind > 0; ++i) {
    now = clock.next_due();
    const ClockPlan plan = clock.advance(now);
    declared_seen += plan.declared;
  }
  const ClockAccount account = clock.account(now);
  EXPECT_EQ(account.behind, 0) << "seed=" << seed;
  EXPECT_EQ(account.executed + account.declared, account.ideal) << "seed=" << seed;
  EXPECT_EQ(account.declared, declared_seen) << "seed=" << seed;
  EXPECT_GE(account.ideal, 3600 * 60);
  EXPECT_GT(clock.discontinuities(), 0u) << "seed=" << seed << ": no stall was long enough to be declared";
  std::printf("[ room clock ] calls=%llu executed=%lld declared=%lld discontinuities=%llu\n",
              static_cast<unsigned long long>(calls), static_cast<long long>(account.executed),
              static_cast<long long>(account.declared), static_cast<unsigned long long>(clock.discontinuities()));
}

TEST(RoomClock, MisconfigurationIsAProgrammerError) {
  test::ThrowOnAssert guard;
  RoomClockConfig config;
  config.tick_rate_hz = 0.0;
  EXPECT_THROW(RoomClock{config}, test::AssertionFailure);
  config.tick_rate_hz = 5000.0;
  EXPECT_THROW(RoomClock{config}, test::AssertionFailure);
  config.tick_rate_hz = 60.0;
  config.max_catch_up_ticks = 0;
  EXPECT_THROW(RoomClock{config}, test::AssertionFailure);
}

// A clock goes on after a saved tick only while that tick's time from tick 0 fits its nanoseconds
// (2^62 ns): at 60 Hz nine years do, 290 do not; at 1 Hz the bound is 2^62 ns of seconds.
TEST(RoomClock, ItReachesASavedTickOnlyWithinItsNanoseconds) {
  const RoomClock at60 = make_clock(60.0);
  EXPECT_TRUE(at60.reaches(Tick::from_value(int64_t{1} << 34)));
  EXPECT_FALSE(at60.reaches(Tick::from_value(int64_t{1} << 39)));
  EXPECT_FALSE(at60.reaches(Tick::from_value(-1)));
  const RoomClock at1 = make_clock(1.0);
  EXPECT_TRUE(at1.reaches(Tick::from_value(int64_t{1} << 32)));
  EXPECT_FALSE(at1.reaches(Tick::from_value(int64_t{1} << 33)));
  RoomClock resumed = make_clock(60.0);
  resumed.resume_after(Tick::from_value(int64_t{1} << 34));
  EXPECT_EQ(resumed.executed_ticks(), int64_t{1} << 34);
}

}  // namespace
}  // namespace tickwire
