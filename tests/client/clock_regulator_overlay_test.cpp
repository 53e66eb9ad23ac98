// The overlay line and the log line: `-` until the first real reading (an unknown queue is not an
// empty one), then the latest raw depth, the target and the rate; the counters as the log sees them.
#include "tickwire/client/clock_regulator_overlay.h"

#include <gtest/gtest.h>

namespace tickwire {
namespace {

constexpr Duration kTick = Duration::nanoseconds(16'666'667);
constexpr MonoTime kStart = MonoTime::from_ns(1'000'000'000);

TEST(ClockRegulatorOverlay, ShowsADashUntilTheFirstReading) {
  ClockRegulator regulator(kTick, {}, kStart);
  EXPECT_EQ(clock_overlay_line(regulator), "buf -/2.0 rate x1.000");
  regulator.update(kStart + Duration::seconds(2), 10);  // frames without a snapshot change nothing
  EXPECT_EQ(clock_overlay_line(regulator), "buf -/2.0 rate x1.000");
}

TEST(ClockRegulatorOverlay, ShowsTheLatestRawDepthTheTargetAndTheRate) {
  ClockRegulator regulator(kTick, {}, kStart);
  regulator.on_depth_reading(Tick::from_value(100), 2, kStart);
  EXPECT_EQ(clock_overlay_line(regulator), "buf 2/2.0 rate x1.000");
  // A starved tick: the raw (negative) byte, the widened target, and a faster clock.
  regulator.on_depth_reading(Tick::from_value(101), -1, kStart + kTick);
  const std::string line = clock_overlay_line(regulator);
  EXPECT_EQ(line.rfind("buf -1/3.0 rate x1.0", 0), 0u) << line;  // widened by marginGrowth, a tick
  EXPECT_GT(regulator.rate(), 1.0);
  // A full queue: the slow clamp.
  for (int64_t t = 102; t < 400; ++t) regulator.on_depth_reading(Tick::from_value(t), 12, kStart + kTick * (t - 100));
  EXPECT_EQ(clock_overlay_line(regulator).substr(0, 7), "buf 12/");
  EXPECT_EQ(clock_overlay_line(regulator).substr(clock_overlay_line(regulator).size() - 11), "rate x0.980");
  regulator.update(kStart + Duration::seconds(10), 60);
  EXPECT_EQ(clock_overlay_line(regulator).substr(clock_overlay_line(regulator).size() - 5), " hold");
  regulator.reset(kStart + Duration::seconds(10));
  EXPECT_EQ(clock_overlay_line(regulator), "buf -/2.0 rate x1.000");
}

TEST(ClockRegulatorOverlay, CountersLineForTheLog) {
  ClockRegulatorCounters counters;
  EXPECT_EQ(clock_counters_line(counters), "clock readings 0 stale 0 starved 0 grew 0 holds 0 rate x1.000..x1.000");
  counters.readings = 3600;
  counters.stale_readings = 2;
  counters.starved_ticks = 7;
  counters.margin_growths = 3;
  counters.holds = 1;
  counters.min_rate = 0.98;
  counters.max_rate = 1.02;
  EXPECT_EQ(clock_counters_line(counters),
            "clock readings 3600 stale 2 starved 7 grew 3 holds 1 rate x0.980..x1.020");
}

}  // namespace
}  // namespace tickwire
