// Typed time: MonoTime, WallTime and Tick do not convert into one another (checked at compile
// time), the anchor is the one conversion, and Tick arithmetic is in whole ticks.
#include "tickwire/clock/tick.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

#include "tickwire/clock/time.h"

namespace tickwire {
namespace {

template <class A, class B>
constexpr bool kNoConversion = !std::is_convertible_v<A, B> && !std::is_constructible_v<B, A>;

static_assert(kNoConversion<MonoTime, WallTime> && kNoConversion<WallTime, MonoTime>);
static_assert(kNoConversion<Tick, MonoTime> && kNoConversion<MonoTime, Tick>);
static_assert(kNoConversion<Tick, WallTime> && kNoConversion<WallTime, Tick>);
static_assert(kNoConversion<int, Tick> && kNoConversion<int64_t, Tick> && kNoConversion<uint32_t, Tick>);
static_assert(kNoConversion<Tick, int64_t> && kNoConversion<Tick, double>);
static_assert(kNoConversion<int64_t, MonoTime> && kNoConversion<int64_t, WallTime>);
static_assert(kNoConversion<Duration, Tick> && kNoConversion<Tick, Duration>);
// Mixed-domain arithmetic does not compile either.
template <class A, class B>
concept Subtractable = requires(A a, B b) { a - b; };
template <class A, class B>
concept Addable = requires(A a, B b) { a + b; };
template <class A, class B>
concept Ordered = requires(A a, B b) { a < b; };
static_assert(!Subtractable<MonoTime, WallTime> && !Subtractable<WallTime, MonoTime>);
static_assert(!Ordered<MonoTime, WallTime> && !Ordered<Tick, MonoTime> && !Ordered<Tick, int>);
static_assert(!Addable<Tick, Tick> && !Addable<Tick, Duration> && !Addable<MonoTime, MonoTime>);
static_assert(Addable<Tick, int64_t> && Subtractable<Tick, int64_t> && Subtractable<Tick, Tick>);
static_assert(Subtractable<MonoTime, MonoTime> && Addable<MonoTime, Duration>);

TEST(Tick, ArithmeticIsInWholeTicks) {
  const Tick a = Tick::from_value(100);
  const Tick b = a + 5;
  EXPECT_EQ(b.value(), 105);
  EXPECT_EQ(b - a, 5);
  EXPECT_EQ((b - 7).value(), 98);
  Tick c = a;
  EXPECT_EQ((c++).value(), 100);
  EXPECT_EQ(c.value(), 101);
  c += 10;
  EXPECT_EQ(c.value(), 111);
  EXPECT_LT(a, b);
  EXPECT_EQ(Tick{}.value(), 0);
}

TEST(Tick, WireFormIsTheLow32Bits) {
  EXPECT_EQ(Tick::from_value(0x1'0000'0005).wire_u32(), 5u);
  EXPECT_EQ(Tick::from_value(7).wire_u32(), 7u);
}

TEST(TimeAnchor, IsTheOneConversion) {
  const TimeAnchor anchor{MonoTime::from_ns(1'000), WallTime::from_ns(1'700'000'000'000'000'000)};
  const MonoTime later = anchor.mono + Duration::milliseconds(250);
  EXPECT_EQ(anchor.to_wall(later).ns(), 1'700'000'000'250'000'000);
  EXPECT_EQ(anchor.to_mono(anchor.to_wall(later)), later);
}

}  // namespace
}  // namespace tickwire
