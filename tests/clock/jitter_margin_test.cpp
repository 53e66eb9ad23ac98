// The shared jitter-margin law: +growth per bad event up to max, one unit handed back per decay
// period of calm, nothing earned when switched off.
#include "tickwire/clock/jitter_margin.h"

#include <gtest/gtest.h>

namespace tickwire {
namespace {

constexpr MonoTime kStart = MonoTime::from_ns(1'000'000'000);

TEST(JitterMargin, GrowsPerBadEventUpToMax) {
  JitterMargin margin(JitterMarginConfig{.growth = 1.5, .max = 4.0, .decay = Duration::seconds(2), .enabled = true},
                      kStart);
  EXPECT_EQ(margin.value(), 0.0);
  margin.on_bad_event(kStart);
  EXPECT_DOUBLE_EQ(margin.value(), 1.5);
  margin.on_bad_event(kStart);
  EXPECT_DOUBLE_EQ(margin.value(), 3.0);
  margin.on_bad_event(kStart);
  EXPECT_DOUBLE_EQ(margin.value(), 4.0);
  EXPECT_EQ(margin.whole_units(), 4);
  EXPECT_EQ(margin.bad_events(), 3u);
}

TEST(JitterMargin, CalmDecaysOneUnitPerDecayPeriod) {
  const JitterMarginConfig config{.growth = 1.0, .max = 8.0, .decay = Duration::seconds(2), .enabled = true};
  JitterMargin margin(config, kStart);
  for (int i = 0; i < 3; ++i) margin.on_bad_event(kStart);
  margin.update(kStart + Duration::seconds(2));
  EXPECT_DOUBLE_EQ(margin.value(), 2.0);
  EXPECT_EQ(margin.whole_units(), 2);
  margin.update(kStart + Duration::seconds(3));
  EXPECT_DOUBLE_EQ(margin.value(), 1.5);
  EXPECT_EQ(margin.whole_units(), 2);  // a whole unit is handed back only after a full period
  margin.update(kStart + Duration::seconds(4));
  EXPECT_EQ(margin.whole_units(), 1);
  margin.update(kStart + Duration::seconds(60));
  EXPECT_EQ(margin.value(), 0.0);
  EXPECT_EQ(margin.whole_units(), 0);
}

TEST(JitterMargin, DecayIsAppliedBeforeAnEventWidensIt) {
  JitterMargin margin(JitterMarginConfig{}, kStart);
  margin.on_bad_event(kStart);
  margin.on_bad_event(kStart);
  margin.on_bad_event(kStart + Duration::seconds(1));  // 2 - 0.5 + 1
  EXPECT_DOUBLE_EQ(margin.value(), 2.5);
  margin.update(kStart);  // a time before the last update changes nothing
  EXPECT_DOUBLE_EQ(margin.value(), 2.5);
}

TEST(JitterMargin, SwitchedOffEarnsNothing) {
  JitterMargin margin(JitterMarginConfig{.growth = 1.0, .max = 8.0, .decay = Duration::seconds(2), .enabled = false},
                      kStart);
  for (int i = 0; i < 10; ++i) margin.on_bad_event(kStart + Duration::milliseconds(i));
  EXPECT_EQ(margin.value(), 0.0);
  EXPECT_EQ(margin.whole_units(), 0);
  EXPECT_EQ(margin.bad_events(), 10u);
}

}  // namespace
}  // namespace tickwire
