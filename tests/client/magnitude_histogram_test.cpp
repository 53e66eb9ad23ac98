// The correction histogram: a p99 that bounds the real one within a bin (about 26%), the exact
// maximum, and no sample lost however odd (below the floor, above the top, not a number).
#include "tickwire/client/magnitude_histogram.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace tickwire {
namespace {

TEST(MagnitudeHistogram, EmptyReadsZero) {
  MagnitudeHistogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.quantile_m(0.99), 0.0);
}

TEST(MagnitudeHistogram, QuantilesBoundTheSamplesWithinABin) {
  MagnitudeHistogram h;
  for (int cm = 1; cm <= 100; ++cm) h.add(cm / 100.0);  // 1 cm .. 1 m
  EXPECT_EQ(h.count(), 100u);
  EXPECT_DOUBLE_EQ(h.max_m(), 1.0);
  const double p99 = h.quantile_m(0.99);
  EXPECT_GE(p99, 0.99);
  EXPECT_LE(p99, 1.0);  // never above the largest sample
  const double p50 = h.quantile_m(0.5);
  EXPECT_GE(p50, 0.50);
  EXPECT_LE(p50, 0.50 * std::pow(10.0, 0.1) + 1e-9);
  EXPECT_LE(h.quantile_m(0.0), 0.01 * std::pow(10.0, 0.1) + 1e-9);
}

TEST(MagnitudeHistogram, OddSamplesAreCountedNotLost) {
  MagnitudeHistogram h;
  h.add(0.0);
  h.add(1e-9);
  h.add(1e9);
  h.add(std::numeric_limits<double>::quiet_NaN());
  h.add(-1.0);
  EXPECT_EQ(h.count(), 5u);
  EXPECT_DOUBLE_EQ(h.max_m(), 1e9);
  EXPECT_DOUBLE_EQ(h.quantile_m(1.0), 1e9);
  EXPECT_LT(h.quantile_m(0.2), 1e-4 + 1e-12);
  h.reset();
  EXPECT_EQ(h.count(), 0u);
}

}  // namespace
}  // namespace tickwire
