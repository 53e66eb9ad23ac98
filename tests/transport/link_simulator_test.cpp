// The link model measured over many datagrams: each parameter produces what it says (loss rate,
// mean latency, duplicates, reordering, throughput under a rate cap, stalls released at once), and
// the same seed gives the same decisions.
#include "tickwire/transport/link_simulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "support.h"

namespace tickwire {
namespace {

constexpr int kPackets = 100000;

struct Arrival {
  MonoTime at;
  int seq;
};

// Sends `count` datagrams of `size_bytes` every `spacing` and returns every copy's arrival.
std::vector<Arrival> run(LinkSimulator& link, Rng& rng, int count, Duration spacing, std::size_t size_bytes = 100) {
  std::vector<Arrival> arrivals;
  MonoTime now{};
  for (int seq = 0; seq < count; ++seq, now += spacing) {
    const LinkDelivery d = link.decide(now, size_bytes, rng);
    for (std::size_t i = 0; i < d.copies; ++i) arrivals.push_back({d.at[i], seq});
  }
  return arrivals;
}

MonoTime sent_at(int seq, Duration spacing) { return MonoTime{} + spacing * seq; }

TEST(LinkSimulator, PerfectLinkDeliversOnceAtLatency) {
  Rng rng(1);
  LinkModel model;
  model.latency_ms = 25;
  LinkSimulator link(model);
  const auto arrivals = run(link, rng, 100, Duration::milliseconds(1));
  ASSERT_EQ(arrivals.size(), 100u);
  for (const Arrival& a : arrivals) EXPECT_EQ(a.at - sent_at(a.seq, Duration::milliseconds(1)), Duration::milliseconds(25));
}

TEST(LinkSimulator, LossRateMatchesConfigured) {
  Rng rng(tickwire::test::test_seed(21));
  for (double loss : {0.01, 0.05, 0.25, 0.5}) {
    LinkModel model;
    model.loss = loss;
    LinkSimulator link(model);
    const auto arrivals = run(link, rng, kPackets, Duration::milliseconds(1));
    const double measured = 1.0 - static_cast<double>(arrivals.size()) / kPackets;
    EXPECT_NEAR(measured, loss, 0.01) << "loss " << loss;
    EXPECT_EQ(link.stats().lost, static_cast<uint64_t>(kPackets) - arrivals.size());
  }
}

TEST(LinkSimulator, MeanLatencyAndJitterBounds) {
  Rng rng(tickwire::test::test_seed(22));
  LinkModel model;
  model.latency_ms = 50;
  model.jitter_ms = 10;
  model.jitter_keeps_order = false;
  LinkSimulator link(model);
  const Duration spacing = Duration::milliseconds(1);
  const auto arrivals = run(link, rng, kPackets, spacing);
  double sum_ms = 0;
  for (const Arrival& a : arrivals) {
    const Duration delay = a.at - sent_at(a.seq, spacing);
    EXPECT_GE(delay, Duration::milliseconds(40));
    EXPECT_LE(delay, Duration::milliseconds(60));
    sum_ms += delay.milliseconds_f();
  }
  EXPECT_NEAR(sum_ms / static_cast<double>(arrivals.size()), 50.0, 0.1);
}

TEST(LinkSimulator, JitterKeepsOrderUnlessAskedNotTo) {
  Rng rng(tickwire::test::test_seed(23));
  LinkModel model;
  model.latency_ms = 50;
  model.jitter_ms = 10;
  LinkSimulator ordered(model);
  const auto in_order = run(ordered, rng, 10000, Duration::milliseconds(1));
  for (std::size_t i = 1; i < in_order.size(); ++i) ASSERT_GE(in_order[i].at, in_order[i - 1].at);
  // Sent at 20 ms spacing (wider than the jitter range) the floor never binds: delays stay in range.
  LinkSimulator sparse(model);
  for (const Arrival& a : run(sparse, rng, 1000, Duration::milliseconds(21))) {
    EXPECT_LE(a.at - sent_at(a.seq, Duration::milliseconds(21)), Duration::milliseconds(60));
  }
  model.jitter_keeps_order = false;
  LinkSimulator independent(model);
  const auto free = run(independent, rng, 10000, Duration::milliseconds(1));
  int inversions = 0;
  for (std::size_t i = 1; i < free.size(); ++i) inversions += free[i].at < free[i - 1].at ? 1 : 0;
  EXPECT_GT(inversions, 1000);
}

TEST(LinkSimulator, DuplicatesAtConfiguredRate) {
  Rng rng(tickwire::test::test_seed(24));
  LinkModel model;
  model.latency_ms = 30;
  model.duplicate = 0.1;
  LinkSimulator link(model);
  const auto arrivals = run(link, rng, kPackets, Duration::milliseconds(1));
  const double extra = static_cast<double>(arrivals.size() - kPackets) / kPackets;
  EXPECT_NEAR(extra, 0.1, 0.01);
  EXPECT_EQ(link.stats().duplicated, arrivals.size() - kPackets);
}

// The fraction of arrivals that come after a datagram sent later than them.
double late_fraction(std::vector<Arrival> arrivals) {
  std::stable_sort(arrivals.begin(), arrivals.end(), [](const Arrival& a, const Arrival& b) { return a.at < b.at; });
  int newest = -1;
  int late = 0;
  for (const Arrival& a : arrivals) {
    if (a.seq < newest) ++late;
    newest = std::max(newest, a.seq);
  }
  return static_cast<double>(late) / static_cast<double>(arrivals.size());
}

TEST(LinkSimulator, ReorderingAtConfiguredRate) {
  Rng rng(tickwire::test::test_seed(25));
  for (double reorder : {0.04, 0.2}) {
    LinkModel model;
    model.latency_ms = 20;
    model.reorder = reorder;
    model.reorder_delay_ms = 100;  // ten send intervals: a reordered datagram lands behind the next ones
    LinkSimulator link(model);
    const auto arrivals = run(link, rng, kPackets, Duration::milliseconds(10));
    EXPECT_NEAR(late_fraction(arrivals), reorder, 0.01) << "reorder " << reorder;
    EXPECT_NEAR(static_cast<double>(link.stats().reordered) / kPackets, reorder, 0.01);
  }
  LinkSimulator none(LinkModel{});
  EXPECT_EQ(late_fraction(run(none, rng, 1000, Duration::milliseconds(10))), 0.0);
}

TEST(LinkSimulator, RateCapLimitsThroughputAndBoundsTheQueue) {
  Rng rng(tickwire::test::test_seed(26));
  LinkModel model;
  model.latency_ms = 10;
  model.rate_kbps = 1000;  // 125,000 bytes/s
  model.rate_queue_cap_bytes = 16 * 1024;
  LinkSimulator link(model);
  const std::size_t size = 1000;
  const Duration spacing = Duration::milliseconds(1);  // offered 1,000,000 bytes/s: 8x the cap
  const auto arrivals = run(link, rng, 10000, spacing, size);
  ASSERT_FALSE(arrivals.empty());
  const double span_s = (arrivals.back().at - MonoTime{}).seconds_f();
  const double bytes_per_s = static_cast<double>(arrivals.size() * size) / span_s;
  EXPECT_NEAR(bytes_per_s, 125000.0, 125000.0 * 0.02);
  EXPECT_GT(link.stats().rate_dropped, 8000u);
  // Serialisation: consecutive deliveries are at least one transmit time (8 ms) apart.
  for (std::size_t i = 1; i < arrivals.size(); ++i) ASSERT_GE(arrivals[i].at - arrivals[i - 1].at, Duration::milliseconds(8));
  // Queueing delay never exceeds what the byte cap allows (16 KiB at 125 kB/s = 131 ms) + transmit + latency.
  for (const Arrival& a : arrivals) ASSERT_LE(a.at - sent_at(a.seq, spacing), Duration::milliseconds(131 + 8 + 10 + 1));
  // Under the cap nothing is dropped.
  LinkSimulator slow_sender(model);
  run(slow_sender, rng, 1000, Duration::milliseconds(10), size);
  EXPECT_EQ(slow_sender.stats().rate_dropped, 0u);
}

TEST(LinkSimulator, StallsHoldAndReleaseAtWindowEnd) {
  Rng rng(tickwire::test::test_seed(27));
  LinkModel model;
  model.latency_ms = 5;
  model.stall_ms = 50;
  model.stall_every_ms = 200;
  LinkSimulator link(model);
  const Duration spacing = Duration::milliseconds(1);
  const auto arrivals = run(link, rng, 10000, spacing);
  ASSERT_EQ(arrivals.size(), 10000u);
  std::size_t released_at_window_end = 0;
  for (const Arrival& a : arrivals) {
    const int64_t offset_ms = (a.at - MonoTime{}).ns() % Duration::milliseconds(200).ns();
    ASSERT_FALSE(offset_ms > 0 && offset_ms < Duration::milliseconds(50).ns()) << "delivered inside a stall";
    const Duration unstalled = a.at - sent_at(a.seq, spacing);
    if (unstalled > Duration::milliseconds(5)) {
      ++released_at_window_end;
      ASSERT_EQ(offset_ms, Duration::milliseconds(50).ns());  // held ones come out exactly at the end
    }
  }
  EXPECT_NEAR(static_cast<double>(released_at_window_end) / 10000.0, 49.0 / 200.0, 0.01);
  EXPECT_EQ(link.stats().stalled, released_at_window_end);
}

TEST(LinkSimulator, BurstHostDeliversInFiveTickBursts) {
  Rng rng(tickwire::test::test_seed(28));
  LinkSimulator link(*link_profile("burst-host"));
  const Duration tick = Duration::from_seconds(1.0 / 60.0);
  auto arrivals = run(link, rng, 6000, tick);
  std::size_t bursts = 0;
  std::size_t in_bursts = 0;
  for (std::size_t i = 0; i < arrivals.size();) {
    std::size_t j = i;
    while (j < arrivals.size() && arrivals[j].at == arrivals[i].at) ++j;
    ASSERT_EQ((arrivals[i].at - MonoTime{}).ns() % Duration::milliseconds(83).ns(), 0);
    ++bursts;
    in_bursts += j - i;
    i = j;
  }
  EXPECT_NEAR(static_cast<double>(in_bursts) / static_cast<double>(bursts), 83.0 / (1000.0 / 60.0), 0.1);
}

TEST(LinkSimulator, SameSeedSameDecisions) {
  const LinkModel model = *link_profile("mobile-bad");
  auto trace = [&](uint64_t seed) {
    Rng rng(seed);
    LinkSimulator link(model);
    std::vector<int64_t> out;
    for (const Arrival& a : run(link, rng, 5000, Duration::milliseconds(3), 300)) {
      out.push_back(a.at.ns());
      out.push_back(a.seq);
    }
    return out;
  };
  EXPECT_EQ(trace(5), trace(5));
  EXPECT_NE(trace(5), trace(6));
}

TEST(LinkModel, ProfilesAreValidAndNamed) {
  ASSERT_EQ(link_profiles().size(), 5u);
  for (const LinkProfile& p : link_profiles()) {
    EXPECT_FALSE(p.model.invalid_reason().has_value()) << p.name;
    EXPECT_TRUE(link_profile(p.name).has_value());
  }
  const LinkModel transatlantic = *link_profile("transatlantic");
  EXPECT_EQ(transatlantic.latency_ms, 50.0);
  EXPECT_EQ(transatlantic.jitter_ms, 10.0);
  EXPECT_EQ(link_profile("burst-host")->loss, 0.0);
  EXPECT_FALSE(link_profile("dialup").has_value());
}

TEST(LinkModel, InvalidNumbersAreNamed) {
  auto reason = [](auto edit) {
    LinkModel m;
    edit(m);
    return m.invalid_reason().has_value();
  };
  EXPECT_FALSE(reason([](LinkModel&) {}));
  EXPECT_TRUE(reason([](LinkModel& m) { m.loss = 1.5; }));
  EXPECT_TRUE(reason([](LinkModel& m) { m.duplicate = -0.1; }));
  EXPECT_TRUE(reason([](LinkModel& m) { m.reorder = std::nan(""); }));
  EXPECT_TRUE(reason([](LinkModel& m) { m.latency_ms = -1; }));
  EXPECT_TRUE(reason([](LinkModel& m) { m.stall_ms = 10; }));
  EXPECT_TRUE(reason([](LinkModel& m) {
    m.stall_ms = 100;
    m.stall_every_ms = 50;
  }));
  EXPECT_TRUE(reason([](LinkModel& m) {
    m.rate_kbps = 10;
    m.rate_queue_cap_bytes = 0;
  }));
}

}  // namespace
}  // namespace tickwire
