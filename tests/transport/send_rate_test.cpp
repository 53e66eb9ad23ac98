// The send-rate estimate and the pacer, driven against a modelled bottleneck (a fixed serialisation
// rate, a queue, a fixed round trip): the estimate finds the bottleneck from above and below, keeps
// the bottleneck queue short once it has, and a sender that goes quiet (app-limited) does not talk
// the estimate down. The token bucket's cap and debt.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>

#include "tickwire/transport/link_rate_estimator.h"
#include "tickwire/transport/send_pacer.h"

namespace tickwire {
namespace {

constexpr std::size_t kPacket = 1200;

// One sender paced by SendPacer at the estimator's rate, through a bottleneck of `rate` bytes/s.
class Bottleneck {
 public:
  Bottleneck(double rate, Duration rtt, LinkRateConfig config = {})
      : rate_(rate), rtt_(rtt), estimator_(config), pacer_(Duration::milliseconds(34), 4 * kPacket) {}

  // Steps 1 ms: acks due arrive, then the sender sends what the pacer and the in-flight cap allow
  // (at most `max_packets`: fewer makes the sender app-limited).
  void step(std::size_t max_packets = 1000) {
    now_ += Duration::milliseconds(1);
    while (!acks_.empty() && acks_.front().at <= now_) {
      const Flight f = acks_.front();
      acks_.pop_front();
      in_flight_ -= kPacket;
      estimator_.on_rtt_sample(now_, now_ - f.sent_at);
      estimator_.on_acked(now_, f.sent_at, kPacket, f.stamp, in_flight_);
    }
    pacer_.refill(now_, estimator_.pacing_bytes_per_second());
    std::size_t sent = 0;
    while (pacer_.allows() && in_flight_ < estimator_.inflight_cap_bytes() && sent < max_packets) {
      const DeliveryStamp stamp = estimator_.on_sent(now_, in_flight_);
      in_flight_ += kPacket;
      pacer_.spend(kPacket);
      // Serialised behind what the bottleneck already holds, then half the round trip each way.
      const MonoTime done = std::max(now_, link_free_at_) + Duration::from_seconds(kPacket / rate_);
      link_free_at_ = done;
      acks_.push_back(Flight{now_, done + rtt_, stamp});
      ++sent;
    }
    if (pacer_.allows() && in_flight_ < estimator_.inflight_cap_bytes()) estimator_.on_app_limited(in_flight_);
  }
  Duration queue_delay() const { return link_free_at_ > now_ ? link_free_at_ - now_ : Duration(); }
  const LinkRateEstimator& estimator() const { return estimator_; }

 private:
  struct Flight {
    MonoTime sent_at;
    MonoTime at;
    DeliveryStamp stamp;
  };
  double rate_;
  Duration rtt_;
  LinkRateEstimator estimator_;
  SendPacer pacer_;
  std::deque<Flight> acks_;
  std::size_t in_flight_ = 0;
  MonoTime now_ = MonoTime::from_ns(1'000'000'000);
  MonoTime link_free_at_ = now_;
};

class SendRate : public ::testing::TestWithParam<double> {};

TEST_P(SendRate, TheEstimateFindsTheBottleneckAndKeepsItsQueueShort) {
  const double rate = GetParam();
  Bottleneck link(rate, Duration::milliseconds(40));
  Duration worst_queue;
  for (int ms = 0; ms < 8000; ++ms) {
    link.step();
    if (ms > 4000) worst_queue = std::max(worst_queue, link.queue_delay());
  }
  const LinkRateEstimator& e = link.estimator();
  EXPECT_EQ(e.phase(), LinkRateEstimator::Phase::probe);
  EXPECT_GT(e.bottleneck_bytes_per_second(), 0.9 * rate);
  EXPECT_LT(e.bottleneck_bytes_per_second(), 1.15 * rate);
  EXPECT_GT(e.planning_bytes_per_second(), 0.9 * rate);
  // Probing queues at most a round trip's worth (the in-flight cap is two BDPs), and drains it.
  EXPECT_LT(worst_queue, Duration::milliseconds(60)) << worst_queue.milliseconds_f() << " ms";
  EXPECT_GE(e.min_rtt(), Duration::milliseconds(40));
  // The round trip plus a packet's serialisation at the bottleneck (6 ms at 200 KB/s) and the
  // model's 1 ms step.
  EXPECT_LT(e.min_rtt(), Duration::milliseconds(41) + Duration::from_seconds(2.0 * kPacket / rate));
}

// Below the initial rate (the estimate must come down) and far above it (it must climb).
INSTANTIATE_TEST_SUITE_P(Rates, SendRate, ::testing::Values(200'000.0, 5'000'000.0));

TEST(SendRateEstimate, AQuietSenderDoesNotTalkItsEstimateDown) {
  Bottleneck link(2'000'000.0, Duration::milliseconds(30));
  for (int ms = 0; ms < 5000; ++ms) link.step();
  const double found = link.estimator().bottleneck_bytes_per_second();
  ASSERT_GT(found, 1'800'000.0);
  for (int ms = 0; ms < 10000; ++ms) link.step(ms % 16 == 0 ? 1 : 0);  // one packet per 16 ms: 75 KB/s
  EXPECT_GT(link.estimator().bottleneck_bytes_per_second(), 0.9 * found);
  EXPECT_GT(link.estimator().planning_bytes_per_second(), 0.9 * found);
}

TEST(SendRateEstimate, BeforeAnySampleThePacerRunsAtTheInitialRateWithinItsBounds) {
  LinkRateConfig config;
  config.initial_bytes_per_second = 100'000;
  config.min_bytes_per_second = 150'000;
  config.max_bytes_per_second = 400'000;
  LinkRateEstimator e(config);
  EXPECT_EQ(e.pacing_bytes_per_second(), 150'000.0);
  EXPECT_EQ(e.bottleneck_bytes_per_second(), 0.0);
  EXPECT_EQ(e.phase(), LinkRateEstimator::Phase::startup);
}

TEST(SendPacer, SavesAtMostABurstAndOwesAtMostOne) {
  SendPacer pacer(Duration::milliseconds(10), 1000);
  MonoTime now = MonoTime::from_ns(0);
  EXPECT_EQ(pacer.tokens(), 1000.0);  // the minimum burst before the rate is known
  pacer.refill(now, 1'000'000.0);     // 10 ms of 1 MB/s = a 10,000-byte cap; a fresh bucket starts full
  EXPECT_EQ(pacer.tokens(), 10'000.0);
  pacer.spend(4'000);
  now += Duration::seconds(1);
  pacer.refill(now, 1'000'000.0);
  EXPECT_EQ(pacer.tokens(), 10'000.0);
  pacer.spend(50'000);
  EXPECT_EQ(pacer.tokens(), -10'000.0);
  EXPECT_FALSE(pacer.allows());
  now += Duration::milliseconds(15);
  pacer.refill(now, 1'000'000.0);
  EXPECT_TRUE(pacer.allows());
  EXPECT_NEAR(pacer.tokens(), 5'000.0, 1e-6);
}

}  // namespace
}  // namespace tickwire
