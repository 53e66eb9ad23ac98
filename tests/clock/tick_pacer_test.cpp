// The paced loop on simulated hosts: with the overshooting sleeper (sleep(1)->7.8 ms,
// sleep(14)->83 ms) the learned factor keeps a 60 Hz room at 60 Hz within 1% over a minute, each
// tick on time and one per iteration, with bounded spin; a sleeper that does not learn keeps the
// count only through catch-up, in late multi-tick bursts; an overloaded loop gets a rate-limited
// warning naming the measured Hz and the factor.
#include "tickwire/clock/tick_pacer.h"

#include <gtest/gtest.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "overshooting_host.h"
#include "tickwire/clock/room_clock.h"
#include "tickwire/clock/sim_host_timer.h"

namespace tickwire {
namespace {

constexpr Duration kQuantum = Duration::microseconds(20);
constexpr Duration kWorkPerTick = Duration::microseconds(300);
constexpr Duration kRunLength = Duration::seconds(60);
constexpr Duration kWarmUp = Duration::seconds(1);

struct LoopResult {
  int64_t executed = 0;
  int64_t declared = 0;
  uint64_t iterations = 0;
  ClockAccount account;
  // After the warm-up: the latest a tick started after its due time, and the deepest plan.
  Duration worst_lateness;
  uint32_t deepest_plan = 0;
};

// The server's loop shape: wait for the next due tick, run what the clock plans, report it.
LoopResult run_paced_loop(SimHostTimer& host, TickPacer& pacer, Duration work_per_tick = kWorkPerTick) {
  RoomClockConfig clock_config;
  clock_config.tick_rate_hz = pacer.config().tick_rate_hz;
  clock_config.origin = host.now();
  RoomClock clock(clock_config);
  const MonoTime end = clock_config.origin + kRunLength;
  LoopResult result;
  while (host.now() < end) {
    pacer.wait_until(clock.next_due());
    const ClockPlan plan = clock.advance(host.now());
    if (plan.steps > 0 && host.now() - clock_config.origin >= kWarmUp) {
      result.deepest_plan = std::max(result.deepest_plan, plan.steps);
      result.worst_lateness = std::max(result.worst_lateness, host.now() - clock.due_time(plan.first_tick));
    }
    host.advance(work_per_tick * plan.steps);
    pacer.record_ticks(host.now(), plan.steps);
    ++result.iterations;
  }
  result.account = clock.account(host.now());
  result.executed = clock.executed_ticks();
  result.declared = clock.declared_ticks();
  return result;
}

std::shared_ptr<spdlog::logger> capture_logger(std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt>& sink) {
  sink = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(64);
  return std::make_shared<spdlog::logger>("pacer-test", sink);
}

TEST(TickPacer, HoldsNominalRateOnAnOvershootingHost) {
  SimHostTimer host(test::kHostStart, test::overshooting_sleep_model(), kQuantum);
  std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> sink;
  TickPacerConfig config;
  TickPacer pacer(host, config, capture_logger(sink));
  const LoopResult result = run_paced_loop(host, pacer);

  const double achieved_hz = static_cast<double>(result.executed) / kRunLength.seconds_f();
  std::printf("[ pacer ] achieved %.3f Hz, factor %.3f, iterations %llu, spun %.1f ms, slept %.1f ms\n", achieved_hz,
              pacer.sleep_factor(), static_cast<unsigned long long>(result.iterations),
              pacer.wait().total_spun().milliseconds_f(), pacer.wait().total_slept().milliseconds_f());
  EXPECT_NEAR(achieved_hz, 60.0, 0.6);
  EXPECT_EQ(result.declared, 0);
  EXPECT_TRUE(result.account.balanced());
  EXPECT_NEAR(pacer.measured_hz(), 60.0, 0.6);
  EXPECT_GT(pacer.sleep_factor(), 5.0);  // it learned the host
  // Once learned, every tick starts on time and no iteration delivers a burst.
  EXPECT_LE(result.worst_lateness, kQuantum);
  EXPECT_EQ(result.deepest_plan, 1u);
  // Spin stays bounded: per wait under the cap, and in total a small share of the run.
  EXPECT_LE(pacer.wait().longest_spin(), config.wait.max_spin + kQuantum);
  EXPECT_LE(pacer.wait().total_spun().seconds_f(), 0.2 * kRunLength.seconds_f());
  EXPECT_EQ(pacer.rate_warnings(), 0u);
  EXPECT_TRUE(sink->last_formatted().empty());
}

TEST(TickPacer, WithoutLearningTheSameHostRunsLateInBursts) {
  SimHostTimer host(test::kHostStart, test::overshooting_sleep_model(), kQuantum);
  std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> sink;
  TickPacerConfig config;
  config.wait.factor.learn = false;
  TickPacer pacer(host, config, capture_logger(sink));
  const LoopResult result = run_paced_loop(host, pacer);
  const double achieved_hz = static_cast<double>(result.executed) / kRunLength.seconds_f();
  std::printf("[ pacer ] naive sleeper: achieved %.3f Hz, worst lateness %.1f ms, deepest plan %u\n", achieved_hz,
              result.worst_lateness.milliseconds_f(), result.deepest_plan);
  // The room clock's catch-up keeps the count, but every sleep lands ~70 ms late: ticks arrive as
  // bursts of the catch-up depth, the freeze-then-jump the learned factor exists to prevent.
  EXPECT_TRUE(result.account.balanced());
  EXPECT_GT(result.worst_lateness, Duration::milliseconds(50));
  EXPECT_EQ(result.deepest_plan, kRoomClockDefaultMaxCatchUpTicks);
}

TEST(TickPacer, LowRateWarningIsRateLimitedAndNamesHzAndFactor) {
  SimHostTimer host(test::kHostStart, test::overshooting_sleep_model(), kQuantum);
  std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> sink;
  TickPacerConfig config;
  config.rate_warn_interval = Duration::seconds(10);
  TickPacer pacer(host, config, capture_logger(sink));
  // Each tick costs 20 ms of work: a 60 Hz room cannot keep up, the clock declares what it drops.
  const LoopResult result = run_paced_loop(host, pacer, Duration::milliseconds(20));

  EXPECT_LT(pacer.measured_hz(), config.rate_warn_fraction * 60.0);
  EXPECT_GT(result.declared, 0);
  EXPECT_TRUE(result.account.balanced());
  // Every 2 s window is below the threshold, but at most one warning per 10 s is logged.
  EXPECT_GE(pacer.windows_below_threshold(), 25u);
  EXPECT_GE(pacer.rate_warnings(), 5u);
  EXPECT_LE(pacer.rate_warnings(), 7u);
  const std::vector<std::string> lines = sink->last_formatted();
  ASSERT_EQ(lines.size(), pacer.rate_warnings());
  ASSERT_FALSE(lines.empty());
  char expected_hz[32];
  std::snprintf(expected_hz, sizeof expected_hz, "%.1f Hz", pacer.measured_hz());
  char expected_factor[48];
  std::snprintf(expected_factor, sizeof expected_factor, "overshoot factor %.2f", pacer.sleep_factor());
  EXPECT_NE(lines.back().find(expected_hz), std::string::npos) << lines.back();
  EXPECT_NE(lines.back().find(expected_factor), std::string::npos) << lines.back();
  EXPECT_NE(lines.back().find("nominal 60.0 Hz"), std::string::npos) << lines.back();
  std::printf("[ pacer ] %s\n", lines.back().c_str());
}

}  // namespace
}  // namespace tickwire
