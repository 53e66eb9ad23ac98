// The fixed-tick accumulator: scaled real seconds in, whole ticks out, the remainder kept, a long
// frame capped at kClientMaxTicksPerFrame with the excess dropped and counted.
#include "tickwire/client/tick_accumulator.h"

#include <gtest/gtest.h>

#include "support.h"
#include "tickwire/core/rng.h"

namespace tickwire {
namespace {

// 16 ms (62.5 Hz): halves and doubles of it are exact in binary floating point.
constexpr Duration kTick = Duration::milliseconds(16);

TEST(TickAccumulator, OneTickPerTickOfScaledTime) {
  TickAccumulator accumulator(kTick);
  uint64_t ticks = 0;
  for (int i = 0; i < 600; ++i) ticks += accumulator.advance(kTick, 1.0);
  EXPECT_EQ(ticks, 600u);
  EXPECT_EQ(accumulator.ticks_run(), 600u);
  EXPECT_EQ(accumulator.dropped_ticks(), 0u);
}

TEST(TickAccumulator, TheRateScalesTheTicksRunOverIrregularFrames) {
  Rng rng(test::test_seed(91));
  for (const double rate : {0.98, 1.0, 1.02}) {
    TickAccumulator accumulator(kTick);
    Duration total;
    uint64_t ticks = 0;
    while (total < Duration::seconds(10)) {
      const Duration frame = Duration::microseconds(rng.between(2000, 30000));  // 33..500 fps
      total += frame;
      ticks += accumulator.advance(frame, rate);
    }
    const double expected = total.seconds_f() * rate / kTick.seconds_f();
    EXPECT_NEAR(static_cast<double>(ticks) + accumulator.alpha(), expected, 1e-6) << "rate " << rate;
    EXPECT_GE(accumulator.alpha(), 0.0);
    EXPECT_LT(accumulator.alpha(), 1.0);
  }
}

TEST(TickAccumulator, ALongFrameIsCappedAndTheExcessDroppedAndCounted) {
  TickAccumulator accumulator(kTick);
  EXPECT_EQ(accumulator.advance(Duration::seconds(1), 1.0), kClientMaxTicksPerFrame);
  EXPECT_EQ(accumulator.dropped_ticks(), 62u - kClientMaxTicksPerFrame);  // 62.5 ticks of time
  EXPECT_EQ(accumulator.advance(kTick / 2, 1.0), 1u);  // the kept half tick, then normal frames
  TickAccumulator two(kTick, 2);
  EXPECT_EQ(two.advance(kTick * 5, 1.0), 2u);
  EXPECT_EQ(two.dropped_ticks(), 3u);
}

TEST(TickAccumulator, KeepsTheRemainderAndResets) {
  TickAccumulator accumulator(kTick);
  EXPECT_EQ(accumulator.advance(kTick / 2, 1.0), 0u);
  EXPECT_NEAR(accumulator.alpha(), 0.5, 1e-6);
  EXPECT_EQ(accumulator.advance(kTick / 2, 1.0), 1u);
  EXPECT_EQ(accumulator.advance(Duration{}, 1.0), 0u);
  accumulator.advance(kTick * 3 / 2, 1.0);
  accumulator.reset();
  EXPECT_EQ(accumulator.alpha(), 0.0);
  EXPECT_EQ(accumulator.ticks_run(), 0u);
  EXPECT_EQ(accumulator.advance(kTick / 2, 1.0), 0u);
}

TEST(TickAccumulator, NegativeTimeOrRateIsAProgrammerError) {
  test::ThrowOnAssert guard;
  TickAccumulator accumulator(kTick);
  EXPECT_THROW(accumulator.advance(Duration::milliseconds(-1), 1.0), test::AssertionFailure);
  EXPECT_THROW(accumulator.advance(kTick, 0.0), test::AssertionFailure);
}

}  // namespace
}  // namespace tickwire
