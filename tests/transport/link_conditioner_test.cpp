// The link conditioner relays both ways with the link model applied: on SimNetwork (exact, virtual
// time) and over real UDP on loopback, driven by a simulated clock. Sessions are per client, capped
// and expired; stray senders and overflow are counted. Real-time waits are bounded, never asserted.
#include "tickwire/transport/link_conditioner.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <map>
#include <thread>
#include <vector>

#include "support.h"
#include "tickwire/core/bytes.h"
#include "tickwire/transport/sim_network.h"
#include "tickwire/transport/udp_socket.h"

namespace tickwire {
namespace {

const Address kProxy = Address::ipv4(10, 0, 0, 1, 7000);
const Address kServer = Address::ipv4(10, 0, 0, 2, 9000);
const Address kClientA = Address::ipv4(10, 0, 0, 3, 5000);
const Address kClientB = Address::ipv4(10, 0, 0, 4, 5000);

MonoTime at_ms(int64_t ms) { return MonoTime{} + Duration::milliseconds(ms); }

// seq (4 bytes) + sender tag (1 byte) + a pattern, so corruption and misrouting both show.
std::vector<uint8_t> message(uint32_t seq, uint8_t tag) {
  std::vector<uint8_t> bytes(8 + (seq * 13) % 900);
  store_le<uint32_t>(bytes.data(), seq);
  bytes[4] = tag;
  for (std::size_t i = 5; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(seq + i);
  return bytes;
}

bool intact(const Datagram& d, uint8_t tag) {
  if (d.size < 8) return false;
  const auto expected = message(load_le<uint32_t>(d.data), tag);
  return expected.size() == d.size && std::memcmp(expected.data(), d.data, d.size) == 0;
}

std::vector<Datagram> drain(DatagramSocket& socket) {
  std::vector<Datagram> batch(32);
  std::vector<Datagram> all;
  for (;;) {
    const std::size_t n = socket.receive_batch(batch);
    all.insert(all.end(), batch.begin(), batch.begin() + static_cast<std::ptrdiff_t>(n));
    if (n < batch.size()) return all;
  }
}

LinkModel lossy_latency(double latency_ms, double loss) {
  LinkModel m;
  m.latency_ms = latency_ms;
  m.loss = loss;
  return m;
}

// A server, clients and the conditioner on one SimNetwork with perfect links: all impairment is the
// conditioner's. Each step: deliver, step the conditioner, echo at the server, collect at clients.
struct SimRig {
  explicit SimRig(const ConditionerConfig& config, uint64_t net_seed = 1)
      : net(net_seed),
        listen(net.bind(kProxy)),
        server(net.bind(kServer)),
        conditioner(config, *listen, [this] { return std::unique_ptr<DatagramSocket>(net.bind(Address::ipv4(10, 0, 0, 1, 0))); }) {}

  void step(MonoTime now) {
    net.advance_to(now);
    conditioner.step(now);
    for (const Datagram& d : drain(*server)) {
      server_arrivals.push_back({now, d});
      server->send(d.address, std::span<const uint8_t>(d.data, d.size));
    }
  }

  struct Arrival {
    MonoTime at;
    Datagram datagram;
  };
  SimNetwork net;
  std::unique_ptr<SimSocket> listen;
  std::unique_ptr<SimSocket> server;
  LinkConditioner conditioner;
  std::vector<Arrival> server_arrivals;
};

ConditionerConfig config_with(const LinkModel& model, uint64_t seed) {
  ConditionerConfig config;
  config.forward = kServer;
  config.to_server = model;
  config.to_client = model;
  config.seed = seed;
  return config;
}

TEST(LinkConditioner, RelaysBothWaysWithLatencyAndLossOnSimNetwork) {
  const uint64_t seed = tickwire::test::test_seed(41);
  SimRig rig(config_with(lossy_latency(40, 0.1), seed));
  auto client = rig.net.bind(kClientA);
  std::map<uint32_t, MonoTime> sent;
  std::size_t echoed = 0;
  for (int64_t ms = 0; ms <= 1500; ++ms) {
    rig.step(at_ms(ms));
    for (const Datagram& d : drain(*client)) {
      ASSERT_TRUE(intact(d, 0xa)) << "corrupted echo";
      EXPECT_EQ(d.address, kProxy);
      EXPECT_GE(at_ms(ms) - sent.at(load_le<uint32_t>(d.data)), Duration::milliseconds(80));
      ++echoed;
    }
    if (ms < 1000) {
      client->send(kProxy, message(static_cast<uint32_t>(ms), 0xa));
      sent[static_cast<uint32_t>(ms)] = at_ms(ms);
    }
  }
  for (const auto& arrival : rig.server_arrivals) {
    ASSERT_TRUE(intact(arrival.datagram, 0xa));
    EXPECT_GE(arrival.at - sent.at(load_le<uint32_t>(arrival.datagram.data)), Duration::milliseconds(40));
  }
  const ConditionerStats& s = rig.conditioner.stats();
  EXPECT_EQ(s.from_clients, 1000u);
  EXPECT_EQ(s.to_server, rig.server_arrivals.size());
  EXPECT_EQ(s.from_server, rig.server_arrivals.size());
  EXPECT_EQ(s.to_clients, echoed);
  EXPECT_EQ(s.from_clients + s.from_server, s.to_server + s.to_clients + s.dropped[ConditionerDrop::loss]);
  EXPECT_NEAR(static_cast<double>(s.to_server) / 1000.0, 0.9, 0.04);
  EXPECT_NEAR(static_cast<double>(echoed) / 1000.0, 0.81, 0.05);
  EXPECT_EQ(s.sessions_opened, 1u);
}

TEST(LinkConditioner, OneUpstreamPerClientAndRepliesRouteBack) {
  ConditionerConfig config = config_with(lossy_latency(5, 0.0), 1);
  SimRig rig(config);
  auto a = rig.net.bind(kClientA);
  auto b = rig.net.bind(kClientB);
  for (int64_t ms = 0; ms < 100; ++ms) {
    rig.step(at_ms(ms));
    if (ms < 50) {
      a->send(kProxy, message(static_cast<uint32_t>(ms), 0xa));
      b->send(kProxy, message(static_cast<uint32_t>(ms), 0xb));
    }
  }
  std::map<Address, std::size_t> sources;
  for (const auto& arrival : rig.server_arrivals) ++sources[arrival.datagram.address];
  EXPECT_EQ(sources.size(), 2u);  // two upstream sockets, one per client
  for (const Datagram& d : drain(*a)) EXPECT_TRUE(intact(d, 0xa));
  for (const Datagram& d : drain(*b)) EXPECT_TRUE(intact(d, 0xb));
  EXPECT_EQ(rig.conditioner.stats().to_clients, 100u);
  EXPECT_EQ(rig.conditioner.session_count(), 2u);
}

TEST(LinkConditioner, CapsAndStraysAreCounted) {
  ConditionerConfig config = config_with(lossy_latency(200, 0.0), 1);
  config.max_clients = 1;
  config.max_held_datagrams = 10;
  config.client_idle_timeout = Duration::milliseconds(100);
  SimRig rig(config);
  auto a = rig.net.bind(kClientA);
  auto b = rig.net.bind(kClientB);
  for (uint32_t i = 0; i < 15; ++i) a->send(kProxy, message(i, 0xa));
  b->send(kProxy, message(0, 0xb));
  rig.step(at_ms(0));
  rig.step(at_ms(1));
  const ConditionerStats& s = rig.conditioner.stats();
  EXPECT_EQ(s.dropped[ConditionerDrop::client_cap], 1u);
  EXPECT_EQ(s.dropped[ConditionerDrop::held_cap], 5u);
  EXPECT_EQ(rig.conditioner.held(), 10u);
  // The session goes idle before its held datagrams are due: they are dropped as session_gone.
  for (int64_t ms = 2; ms <= 300; ++ms) rig.step(at_ms(ms));
  EXPECT_EQ(s.sessions_expired, 1u);
  EXPECT_EQ(rig.conditioner.session_count(), 0u);
  EXPECT_EQ(s.dropped[ConditionerDrop::session_gone], 10u);
  EXPECT_TRUE(rig.server_arrivals.empty());
}

TEST(LinkConditioner, StraySendersToAnUpstreamSocketAreDropped) {
  SimRig rig(config_with(LinkModel{}, 1));
  auto a = rig.net.bind(kClientA);
  auto stray = rig.net.bind(Address::ipv4(10, 0, 0, 9, 1));
  a->send(kProxy, message(1, 0xa));
  rig.step(at_ms(0));
  rig.step(at_ms(1));
  ASSERT_EQ(rig.server_arrivals.size(), 1u);
  const Address upstream = rig.server_arrivals[0].datagram.address;
  stray->send(upstream, message(2, 0xf));
  rig.step(at_ms(2));
  rig.step(at_ms(3));
  EXPECT_EQ(rig.conditioner.stats().dropped[ConditionerDrop::unexpected_source], 1u);
  for (const Datagram& d : drain(*a)) EXPECT_TRUE(intact(d, 0xa));  // only the real echo came back
}

// Real UDP on loopback, on a simulated clock: the clock stands still until the kernel has handed
// the conditioner every datagram, then advances 1 ms per step. Real time only bounds the waits.
TEST(LinkConditioner, RelaysRealUdpOnLoopback) {
  const uint64_t seed = tickwire::test::test_seed(42);
  auto open = [] { return std::move(UdpSocket::open(Address::ipv4(127, 0, 0, 1, 0)).socket); };
  auto listen = open();
  auto server = open();
  auto client = open();
  ASSERT_TRUE(listen && server && client);
  ConditionerConfig config = config_with(lossy_latency(30, 0.2), seed);
  config.forward = server->local_address();
  LinkConditioner conditioner(config, *listen, [&] { return std::unique_ptr<DatagramSocket>(open()); });

  constexpr uint32_t kCount = 200;
  for (uint32_t i = 0; i < kCount; ++i) ASSERT_TRUE(client->send(listen->local_address(), message(i, 0xa)));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  auto before_deadline = [&] { return std::chrono::steady_clock::now() < deadline; };
  MonoTime now{};
  while (conditioner.stats().from_clients < kCount && before_deadline()) conditioner.step(now);
  ASSERT_EQ(conditioner.stats().from_clients, kCount);

  std::size_t server_got = 0, client_got = 0;
  auto settled = [&] {
    const ConditionerStats& s = conditioner.stats();
    return conditioner.held() == 0 && s.to_server == server_got && s.from_server == server_got &&
           s.to_clients == client_got;
  };
  do {
    now += Duration::milliseconds(1);
    conditioner.step(now);
    for (const Datagram& d : drain(*server)) {
      ASSERT_TRUE(intact(d, 0xa));
      ++server_got;
      server->send(d.address, std::span<const uint8_t>(d.data, d.size));
    }
    for (const Datagram& d : drain(*client)) {
      ASSERT_TRUE(intact(d, 0xa));
      EXPECT_EQ(d.address, listen->local_address());
      EXPECT_GE(now - MonoTime{}, Duration::milliseconds(60));  // 30 ms each way on the simulated clock
      ++client_got;
    }
    if (!before_deadline()) break;
    if (conditioner.held() == 0) std::this_thread::sleep_for(std::chrono::microseconds(100));
  } while (!settled() || now < at_ms(100));
  ASSERT_TRUE(settled()) << "relay did not settle before the deadline";
  const ConditionerStats& s = conditioner.stats();
  EXPECT_EQ(s.from_clients + s.from_server, s.to_server + s.to_clients + s.dropped[ConditionerDrop::loss]);
  EXPECT_NEAR(static_cast<double>(server_got) / kCount, 0.8, 0.1);
  EXPECT_GT(client_got, 0u);
  EXPECT_LT(client_got, server_got);
}

}  // namespace
}  // namespace tickwire
