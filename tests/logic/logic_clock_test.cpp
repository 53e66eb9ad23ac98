// The tick quantisation rule: a delay of d game seconds at tick length dt and world time scale s
// takes max(1, ceil(d / (dt s) - 1/2)) ticks, exactly, and a scale change mid-delay is honoured.
#include "tickwire/logic/logic_clock.h"

#include <gtest/gtest.h>

namespace tickwire {
namespace {

constexpr Duration k20Hz = Duration::milliseconds(50);
constexpr Duration k60Hz = Duration::nanoseconds(16'666'667);

// Counts the ticks a clock takes to reach a delay made now.
int64_t ticks_to_reach(LogicClock clock, Duration delay, int64_t limit = 100000) {
  const Duration due = clock.now() + delay;
  for (int64_t ticks = 1; ticks <= limit; ++ticks) {
    clock.advance();
    if (clock.reached(due)) return ticks;
  }
  return -1;
}

TEST(LogicClock, OneSecondUnderEachTimeScale) {
  EXPECT_EQ(LogicClock::ticks_for(Duration::seconds(1), k20Hz, 0.5), 40);
  EXPECT_EQ(LogicClock::ticks_for(Duration::seconds(1), k20Hz, 1.0), 20);
  EXPECT_EQ(LogicClock::ticks_for(Duration::seconds(1), k20Hz, 2.0), 10);
  EXPECT_EQ(LogicClock::ticks_for(Duration::seconds(1), k60Hz, 0.5), 120);
  EXPECT_EQ(LogicClock::ticks_for(Duration::seconds(1), k60Hz, 1.0), 60);
  EXPECT_EQ(LogicClock::ticks_for(Duration::seconds(1), k60Hz, 2.0), 30);
}

TEST(LogicClock, NearestTickHalvesDownAtLeastOne) {
  EXPECT_EQ(LogicClock::ticks_for(Duration{}, k20Hz, 1.0), 0);                            // runs at once
  EXPECT_EQ(LogicClock::ticks_for(Duration::milliseconds(1), k20Hz, 1.0), 1);            // never the same tick
  EXPECT_EQ(LogicClock::ticks_for(Duration::milliseconds(74), k20Hz, 1.0), 1);           // 1.48 ticks
  EXPECT_EQ(LogicClock::ticks_for(Duration::milliseconds(75), k20Hz, 1.0), 1);           // 1.5: down
  EXPECT_EQ(LogicClock::ticks_for(Duration::milliseconds(76), k20Hz, 1.0), 2);           // 1.52
  EXPECT_EQ(LogicClock::ticks_for(Duration::milliseconds(125), k20Hz, 1.0), 2);          // 2.5: down
  EXPECT_EQ(LogicClock::ticks_for(Duration::seconds(1), k20Hz, 0.0), -1);                // game time stopped
}

TEST(LogicClock, AdvancingAgreesWithTheRule) {
  for (const double scale : {0.25, 0.5, 1.0, 1.5, 2.0, 3.0}) {
    for (const Duration tick : {k20Hz, k60Hz}) {
      for (int64_t ms = 1; ms <= 2500; ms += 7) {
        const Duration delay = Duration::milliseconds(ms);
        LogicClock clock(tick, scale);
        for (int i = 0; i < 3; ++i) clock.advance();  // from some game time, not only from zero
        EXPECT_EQ(ticks_to_reach(clock, delay), LogicClock::ticks_for(delay, tick, scale))
            << "delay " << ms << " ms, scale " << scale << ", tick " << tick.ns() << " ns";
      }
    }
  }
}

TEST(LogicClock, AScaleChangeMidDelayIsHonoured) {
  LogicClock clock(k20Hz, 1.0);
  const Duration due = clock.now() + Duration::seconds(1);
  for (int i = 0; i < 10; ++i) {  // half the delay at scale 1
    clock.advance();
    ASSERT_FALSE(clock.reached(due));
  }
  clock.set_time_scale(0.5);  // the other half takes twice the ticks: 20
  int64_t more = 0;
  while (!clock.reached(due)) {
    clock.advance();
    ++more;
    ASSERT_LT(more, 1000);
  }
  EXPECT_EQ(more, 20);
}

TEST(LogicClock, ScaleZeroStopsGameTime) {
  LogicClock clock(k20Hz, 0.0);
  const Duration due = clock.now() + Duration::milliseconds(50);
  for (int i = 0; i < 100; ++i) clock.advance();
  EXPECT_FALSE(clock.reached(due));
  EXPECT_EQ(clock.now(), Duration{});
  clock.set_time_scale(1.0);
  clock.advance();
  EXPECT_TRUE(clock.reached(due));
}

}  // namespace
}  // namespace tickwire
