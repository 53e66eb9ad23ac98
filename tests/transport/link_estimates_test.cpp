// RTT (RFC 6298 arithmetic, the resend delay and its clamps) and the bandwidth meter.
#include <gtest/gtest.h>

#include "tickwire/transport/bandwidth_meter.h"
#include "tickwire/transport/rtt_estimator.h"

namespace tickwire {
namespace {

constexpr Duration ms(int64_t v) { return Duration::milliseconds(v); }

TEST(RttEstimator, FollowsRfc6298) {
  RttEstimator rtt(ms(250), ms(30), ms(5000));
  EXPECT_FALSE(rtt.has_sample());
  EXPECT_EQ(rtt.rto(), ms(250));
  rtt.sample(ms(100));
  EXPECT_EQ(rtt.srtt(), ms(100));
  EXPECT_EQ(rtt.rttvar(), ms(50));
  EXPECT_EQ(rtt.rto(), ms(300));  // 100 + 4 * 50
  rtt.sample(ms(180));
  // rttvar = 3/4 * 50 + 1/4 * |100 - 180| = 57.5; srtt = 7/8 * 100 + 1/8 * 180 = 110
  EXPECT_EQ(rtt.rttvar(), Duration::microseconds(57500));
  EXPECT_EQ(rtt.srtt(), ms(110));
  EXPECT_EQ(rtt.rto(), ms(340));
  EXPECT_EQ(rtt.latest(), ms(180));
}

TEST(RttEstimator, ConvergesAndClamps) {
  RttEstimator rtt(ms(250), ms(30), ms(1000));
  for (int i = 0; i < 200; ++i) rtt.sample(ms(10));
  EXPECT_EQ(rtt.srtt(), ms(10));
  EXPECT_EQ(rtt.rto(), ms(30));  // 10 + max(1 ms, ~0) clamped up to min_rto
  for (int i = 0; i < 200; ++i) rtt.sample(ms(3000));
  EXPECT_EQ(rtt.rto(), ms(1000));  // clamped down to max_rto
}

TEST(BandwidthMeter, MeasuresASteadyRateAndDecaysWhenIdle) {
  BandwidthMeter meter(ms(250));
  MonoTime now = MonoTime::from_ns(0);
  // 1000 bytes every 10 ms = 800 kbit/s.
  for (int i = 0; i < 300; ++i) {
    meter.add(now, 1000);
    now += ms(10);
  }
  EXPECT_NEAR(meter.kbps(), 800.0, 800.0 * 0.02);
  EXPECT_EQ(meter.total_bytes(), 300'000u);
  // Idle: each closed 250 ms interval blends in a zero rate with weight 1/4.
  now += Duration::seconds(5);
  meter.update(now);
  EXPECT_LT(meter.kbps(), 800.0 * 0.01);
  now += Duration::seconds(60);
  meter.update(now);
  EXPECT_EQ(meter.kbps(), 0.0);
}

}  // namespace
}  // namespace tickwire
