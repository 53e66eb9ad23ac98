// DeadlineWait and the sleep-overshoot factor: sleep most, spin the tail, learn the overshoot
// (instant rise, slow decay), and keep every spin under its cap even on a pathological timer.
#include "tickwire/clock/deadline_wait.h"

#include <gtest/gtest.h>

#include "overshooting_host.h"
#include "tickwire/clock/sim_host_timer.h"
#include "tickwire/clock/sleep_factor.h"

namespace tickwire {
namespace {

constexpr Duration kQuantum = Duration::microseconds(20);

TEST(SleepModel, FitsTheMeasuredHost) {
  const SleepModel model = test::overshooting_sleep_model();
  EXPECT_NEAR(model.actual_for(Duration::milliseconds(1)).milliseconds_f(), 7.8, 1e-3);
  EXPECT_NEAR(model.actual_for(Duration::milliseconds(14)).milliseconds_f(), 83.0, 1e-3);
  EXPECT_EQ(model.actual_for(Duration{}).ns(), 0);
}

TEST(SleepFactor, RisesAtOnceAndDecaysSlowly) {
  SleepFactor factor;
  EXPECT_EQ(factor.value(), 1.0);
  factor.observe(Duration::milliseconds(10), Duration::milliseconds(50));
  EXPECT_DOUBLE_EQ(factor.value(), 5.0);
  factor.observe(Duration::milliseconds(10), Duration::milliseconds(10));
  EXPECT_DOUBLE_EQ(factor.value(), 5.0 + (1.0 - 5.0) / 64.0);
  factor.observe(Duration::milliseconds(2), Duration::milliseconds(16));  // 8x: believed at once
  EXPECT_DOUBLE_EQ(factor.value(), 8.0);
  EXPECT_EQ(factor.request_for(Duration::milliseconds(16)), Duration::milliseconds(2));
  for (int i = 0; i < 2000; ++i) factor.observe(Duration::milliseconds(10), Duration::milliseconds(10));
  EXPECT_NEAR(factor.value(), 1.0, 1e-6);
}

TEST(SleepFactor, IgnoresSubMillisecondRequestsAndClampsItsRange) {
  SleepFactor factor;
  factor.observe(Duration::microseconds(100), Duration::milliseconds(5));  // granularity, not a factor
  EXPECT_EQ(factor.value(), 1.0);
  EXPECT_EQ(factor.samples(), 0u);
  factor.observe(Duration::milliseconds(1), Duration::seconds(10));
  EXPECT_EQ(factor.value(), kSleepFactorMax);
  SleepFactor early;
  early.observe(Duration::milliseconds(10), Duration::milliseconds(3));  // a host waking early
  EXPECT_EQ(early.value(), 1.0);
}

TEST(SleepFactor, CanBeSwitchedOff) {
  SleepFactor factor(SleepFactorConfig{.decay_per_sample = 1.0 / 64.0, .learn = false});
  factor.observe(Duration::milliseconds(10), Duration::milliseconds(80));
  EXPECT_EQ(factor.value(), 1.0);
}

TEST(DeadlineWait, OnAnExactHostSleepsMostAndSpinsTheTail) {
  SimHostTimer host(test::kHostStart, SleepModel::exact(), kQuantum);
  DeadlineWait wait(host);
  const MonoTime deadline = host.now() + Duration::milliseconds(16);
  const WaitReport report = wait.wait_until(deadline);
  EXPECT_GE(host.now(), deadline);
  EXPECT_LT(host.now() - deadline, kQuantum);
  EXPECT_EQ(report.sleeps, 1u);
  EXPECT_EQ(report.slept, Duration::milliseconds(14));
  EXPECT_EQ(report.spun, Duration::milliseconds(2));
  EXPECT_FALSE(report.spin_capped);
}

TEST(DeadlineWait, APassedDeadlineReturnsAtOnce) {
  SimHostTimer host(test::kHostStart, test::overshooting_sleep_model(), kQuantum);
  DeadlineWait wait(host);
  const MonoTime before = host.now();
  const WaitReport report = wait.wait_until(before - Duration::milliseconds(3));
  EXPECT_EQ(host.now(), before);
  EXPECT_EQ(report.sleeps, 0u);
  EXPECT_EQ(report.spun.ns(), 0);
  EXPECT_EQ(report.late, Duration::milliseconds(3));
}

TEST(DeadlineWait, LearnsTheOvershootAndThenWakesOnTime) {
  SimHostTimer host(test::kHostStart, test::overshooting_sleep_model(), kQuantum);
  DeadlineWait wait(host);
  const Duration period = Duration::nanoseconds(16'666'667);
  // The first wait trusts the host and oversleeps by ~70 ms; the factor rises at once.
  WaitReport first = wait.wait_until(host.now() + period);
  EXPECT_GT(first.late, Duration::milliseconds(50));
  EXPECT_GT(wait.sleep_factor(), 5.0);
  // Within a few waits the requests are budget / factor and every wake is on time.
  for (int i = 0; i < 10; ++i) wait.wait_until(host.now() + period);
  for (int i = 0; i < 100; ++i) {
    const WaitReport report = wait.wait_until(host.now() + period);
    ASSERT_LT(report.late, kQuantum) << "wait " << i;
    ASSERT_LE(report.spun, wait.config().max_spin + kQuantum) << "wait " << i;
    ASSERT_EQ(report.sleeps, 1u) << "wait " << i;
  }
  // The affine host's fixed point: f = scale * budget / (budget - fixed), about 6.7 here.
  EXPECT_NEAR(wait.sleep_factor(), 6.7, 0.2);
}

TEST(DeadlineWait, SpinIsCappedOnAPathologicalTimer) {
  // Every sleep costs at least 30 ms: nothing can be slept inside a 16 ms budget.
  SleepModel model;
  model.fixed = Duration::milliseconds(30);
  SimHostTimer host(test::kHostStart, model, kQuantum);
  DeadlineWaitConfig config;
  config.max_spin = Duration::milliseconds(3);
  DeadlineWait wait(host, config);
  for (int i = 0; i < 50; ++i) {
    const WaitReport report = wait.wait_until(host.now() + Duration::milliseconds(16));
    ASSERT_LE(report.spun, config.max_spin + kQuantum) << "wait " << i;
  }
  EXPECT_GT(wait.spin_capped_waits(), 0u);
  EXPECT_LE(wait.longest_spin(), config.max_spin + kQuantum);
  EXPECT_LE(host.total_paused(), (config.max_spin + kQuantum) * 50);
}

}  // namespace
}  // namespace tickwire
