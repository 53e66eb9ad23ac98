// SimNetwork: datagrams arrive when the link model says, from the right source, byte for byte; runs
// reproduce exactly from their seed; every cap drops and counts; sockets unbind and outlive peers.
#include "tickwire/transport/sim_network.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support.h"
#include "tickwire/core/hex.h"
#include "tickwire/core/rng.h"

namespace tickwire {
namespace {

const Address kServer = Address::ipv4(10, 0, 0, 1, 40000);
const Address kClient = Address::ipv4(10, 0, 0, 2, 50000);

std::vector<uint8_t> payload(uint32_t seq, std::size_t size) {
  std::vector<uint8_t> bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<uint8_t>(seq * 131 + i * 7);
  return bytes;
}

std::vector<Datagram> receive_all(DatagramSocket& socket) {
  std::vector<Datagram> out(64);
  std::vector<Datagram> all;
  for (;;) {
    const std::size_t n = socket.receive_batch(out);
    all.insert(all.end(), out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n));
    if (n < out.size()) return all;
  }
}

TEST(SimNetwork, DeliversAtLatencyFromTheSender) {
  SimNetwork net(1);
  LinkModel model;
  model.latency_ms = 30;
  net.set_default_link(model);
  auto server = net.bind(kServer);
  auto client = net.bind(kClient);
  ASSERT_TRUE(server && client);
  const auto bytes = payload(7, 300);
  ASSERT_TRUE(client->send(kServer, bytes));
  net.advance_to(MonoTime{} + Duration::milliseconds(29));
  EXPECT_EQ(server->queued(), 0u);
  net.advance_to(MonoTime{} + Duration::milliseconds(30));
  const auto got = receive_all(*server);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].address, kClient);
  ASSERT_EQ(got[0].size, bytes.size());
  EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), got[0].data));
  EXPECT_EQ(net.stats().sent, 1u);
  EXPECT_EQ(net.stats().delivered, 1u);
  EXPECT_EQ(net.now(), MonoTime{} + Duration::milliseconds(30));
}

TEST(SimNetwork, BindPicksFreePortsAndRefusesTakenOnes) {
  SimNetwork net(1);
  auto a = net.bind(kServer);
  ASSERT_TRUE(a);
  EXPECT_FALSE(net.bind(kServer));
  EXPECT_FALSE(net.bind(Address{}));
  auto e1 = net.bind(Address::ipv4(10, 0, 0, 2, 0));
  auto e2 = net.bind(Address::ipv4(10, 0, 0, 2, 0));
  ASSERT_TRUE(e1 && e2);
  EXPECT_NE(e1->local_address().port(), 0);
  EXPECT_NE(e1->local_address(), e2->local_address());
  a.reset();  // destroying unbinds
  EXPECT_TRUE(net.bind(kServer));
}

// One reproducible scenario: four clients talk to an echo server over a bad network for 2 s of
// virtual time; the trace lists every datagram each endpoint received, with its time and bytes.
std::string run_scenario(uint64_t seed) {
  SimNetwork net(seed);
  LinkModel model = *link_profile("mobile-bad");
  model.rate_kbps = 0;
  net.set_default_link(model);
  auto server = net.bind(kServer);
  std::vector<std::unique_ptr<SimSocket>> clients;
  for (int i = 0; i < 4; ++i) clients.push_back(net.bind(Address::ipv4(10, 0, 1, static_cast<uint8_t>(i + 1), 0)));
  std::string trace;
  auto record = [&trace](MonoTime now, const Address& at, const Datagram& d) {
    trace += std::to_string(now.ns()) + " " + at.to_string() + " <- " + d.address.to_string() + " " +
             to_hex(std::span<const uint8_t>(d.data, d.size)) + "\n";
  };
  Rng sizes(seed ^ 0x5a5a);
  for (int tick = 0; tick < 120; ++tick) {
    const MonoTime now = MonoTime{} + Duration::from_milliseconds(tick * 1000.0 / 60.0);
    net.advance_to(now);
    for (const Datagram& d : receive_all(*server)) {
      record(now, kServer, d);
      server->send(d.address, std::span<const uint8_t>(d.data, d.size));
    }
    for (auto& client : clients) {
      for (const Datagram& d : receive_all(*client)) record(now, client->local_address(), d);
      client->send(kServer, payload(static_cast<uint32_t>(tick), 20 + sizes.below(200)));
    }
  }
  return trace;
}

TEST(SimNetwork, SameSeedSameTraceByteForByte) {
  const uint64_t seed = tickwire::test::test_seed(31);
  const std::string first = run_scenario(seed);
  EXPECT_GT(first.size(), 1000u);
  EXPECT_EQ(first, run_scenario(seed));
  EXPECT_NE(first, run_scenario(seed + 1));
}

TEST(SimNetwork, ReceiveQueueCapDropsAndCounts) {
  SimNetworkLimits limits;
  limits.receive_queue_datagrams = 8;
  SimNetwork net(1, limits);
  auto server = net.bind(kServer);
  auto client = net.bind(kClient);
  for (uint32_t i = 0; i < 20; ++i) client->send(kServer, payload(i, 10));
  net.advance_to(MonoTime{});
  EXPECT_EQ(server->queued(), 8u);
  EXPECT_EQ(server->queue_drops(), 12u);
  EXPECT_EQ(net.stats().dropped[SimDrop::queue], 12u);
  const auto got = receive_all(*server);
  ASSERT_EQ(got.size(), 8u);
  EXPECT_EQ(got[0].data[0], payload(0, 10)[0]);  // the first eight, in order
  EXPECT_EQ(got[7].data[0], payload(7, 10)[0]);
}

TEST(SimNetwork, InFlightCapDropsAndCounts) {
  SimNetworkLimits limits;
  limits.in_flight_datagrams = 5;
  SimNetwork net(1, limits);
  LinkModel slow;
  slow.latency_ms = 100;
  net.set_default_link(slow);
  auto server = net.bind(kServer);
  auto client = net.bind(kClient);
  for (uint32_t i = 0; i < 9; ++i) client->send(kServer, payload(i, 10));
  EXPECT_EQ(net.in_flight(), 5u);
  EXPECT_EQ(net.stats().dropped[SimDrop::in_flight_cap], 4u);
  EXPECT_EQ(net.next_delivery_time(), MonoTime{} + Duration::milliseconds(100));
}

TEST(SimNetwork, RefusedAndUndeliverableAreCounted) {
  SimNetwork net(1);
  auto client = net.bind(kClient);
  std::vector<uint8_t> huge(kMaxDatagramBytes + 1);
  EXPECT_FALSE(client->send(kServer, huge));
  EXPECT_FALSE(client->send(Address{}, payload(1, 4)));
  EXPECT_TRUE(client->send(kServer, payload(1, 4)));  // nobody there: accepted, lost on arrival
  net.advance_to(MonoTime{} + Duration::milliseconds(1));
  EXPECT_EQ(net.stats().dropped[SimDrop::oversize], 1u);
  EXPECT_EQ(net.stats().dropped[SimDrop::bad_address], 1u);
  EXPECT_EQ(net.stats().dropped[SimDrop::no_endpoint], 1u);
  EXPECT_EQ(net.stats().sent, 1u);
}

TEST(SimNetwork, DestroyedSocketUnbindsAndInFlightDatagramsAreLost) {
  SimNetwork net(1);
  LinkModel model;
  model.latency_ms = 10;
  net.set_default_link(model);
  auto server = net.bind(kServer);
  auto client = net.bind(kClient);
  client->send(kServer, payload(1, 4));
  server.reset();
  net.advance_to(MonoTime{} + Duration::milliseconds(10));
  EXPECT_EQ(net.stats().dropped[SimDrop::no_endpoint], 1u);
}

TEST(SimNetwork, SocketOutlivesPeersAndTheNetwork) {
  auto net = std::make_unique<SimNetwork>(1);
  auto a = net->bind(kServer);
  auto b = net->bind(kClient);
  b->send(kServer, payload(1, 4));
  b.reset();
  net->advance_to(MonoTime{});
  EXPECT_TRUE(a->send(kClient, payload(2, 4)));
  net.reset();
  EXPECT_EQ(receive_all(*a).size(), 1u);  // what was delivered before stays readable
  EXPECT_TRUE(a->send(kClient, payload(3, 4)));
  EXPECT_EQ(a->local_address(), kServer);
}

TEST(SimNetwork, PerPairLinksAndPortWildcards) {
  SimNetwork net(1);
  LinkModel dead;
  dead.loss = 1.0;
  LinkModel slow;
  slow.latency_ms = 50;
  auto server = net.bind(kServer);
  auto client = net.bind(kClient);
  auto other = net.bind(Address::ipv4(10, 0, 0, 2, 50001));
  net.set_link(kClient, kServer, dead);                              // exact pair
  net.set_link(Address::ipv4(10, 0, 0, 2, 0), kServer, slow);        // every port of 10.0.0.2 -> server
  client->send(kServer, payload(1, 4));
  other->send(kServer, payload(2, 4));
  server->send(kClient, payload(3, 4));  // the reverse direction keeps the default (perfect) link
  net.advance_to(MonoTime{});
  EXPECT_EQ(receive_all(*client).size(), 1u);
  EXPECT_EQ(server->queued(), 0u);
  net.advance_to(MonoTime{} + Duration::milliseconds(50));
  const auto got = receive_all(*server);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].address, other->local_address());
  EXPECT_EQ(net.stats().dropped[SimDrop::loss], 1u);
}

TEST(SimNetwork, RateCapDropsAreCounted) {
  SimNetwork net(1);
  LinkModel narrow;
  narrow.rate_kbps = 100;
  narrow.rate_queue_cap_bytes = 2000;
  net.set_default_link(narrow);
  auto server = net.bind(kServer);
  auto client = net.bind(kClient);
  for (uint32_t i = 0; i < 10; ++i) client->send(kServer, payload(i, 500));
  EXPECT_EQ(net.stats().dropped[SimDrop::rate_cap], 6u);  // four 500-byte datagrams fit the 2000-byte queue
  net.advance_to(MonoTime{} + Duration::seconds(1));
  EXPECT_EQ(receive_all(*server).size(), 4u);
}

TEST(SimNetwork, WiretapSeesDeliveriesInOrder) {
  SimNetwork net(1);
  LinkModel model;
  model.latency_ms = 5;
  model.reorder = 0.5;
  model.reorder_delay_ms = 3;
  net.set_default_link(model);
  auto server = net.bind(kServer);
  auto client = net.bind(kClient);
  std::vector<MonoTime> times;
  net.set_wiretap([&times](const SimDelivery& d) { times.push_back(d.at); });
  for (int i = 0; i < 50; ++i) {
    net.advance_to(MonoTime{} + Duration::milliseconds(i));
    client->send(kServer, payload(static_cast<uint32_t>(i), 8));
  }
  net.advance_to(MonoTime{} + Duration::milliseconds(100));
  ASSERT_EQ(times.size(), 50u);
  EXPECT_TRUE(std::is_sorted(times.begin(), times.end()));
  EXPECT_EQ(receive_all(*server).size(), 50u);
}

}  // namespace
}  // namespace tickwire
