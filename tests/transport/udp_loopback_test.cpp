// The same connection code over real UDP sockets on loopback: 64 clients connect to a server on
// 127.0.0.1 and exchange payloads both ways (checked as in the simulated test), and a few clients
// do the same over IPv6 (::1) when the host has it; and 64 clients through the link conditioner at
// 250 +- 250 ms, 5% loss and 10% duplicates. Time is still a parameter: the test advances its own
// clock (the conditioner's too), so nothing here depends on how fast the machine is.
#include <gtest/gtest.h>

#include <cstdio>

#include "netcode_test_support.h"
#include "payload_exchange.h"
#include "support.h"
#include "tickwire/transport/link_conditioner.h"
#include "tickwire/transport/udp_socket.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

struct UdpWorld {
  std::unique_ptr<UdpSocket> server_socket;
  std::unique_ptr<NetcodeServer> server;
  std::vector<std::unique_ptr<UdpSocket>> sockets;
  std::vector<std::unique_ptr<NetcodeClient>> owned;
  std::vector<NetcodeClient*> clients;
  std::vector<uint64_t> ids;
  std::unique_ptr<UdpSocket> relay_socket;  // the conditioner's listen socket, when one sits between
  std::unique_ptr<LinkConditioner> conditioner;
  MonoTime now = MonoTime::from_ns(0);

  void step(Duration dt) {
    now += dt;
    if (conditioner) conditioner->step(now);
    server->update(now, kAnchor.to_wall(now));
    for (auto* c : clients) c->update(now);
  }
  bool all_connected() const {
    for (auto* c : clients) {
      if (!c->connected()) return false;
    }
    return server->connected_clients() == clients.size();
  }
};

// Opens the server and `n` clients on `loopback` (port 0: the kernel picks). false when the host
// lacks that address family.
// With `link`, clients reach the server through a LinkConditioner on loopback, and the tokens name
// the conditioner's address (the address clients see, as behind any proxy).
bool open_world(UdpWorld& w, const Address& loopback, uint32_t n, const netcode::Key& key,
                const LinkModel* link = nullptr) {
  auto server = UdpSocket::open(loopback);
  if (!server) return false;
  w.server_socket = std::move(server.socket);
  Address public_address = w.server_socket->local_address();
  if (link) {
    auto relay = UdpSocket::open(loopback);
    if (!relay) return false;
    w.relay_socket = std::move(relay.socket);
    ConditionerConfig config;
    config.forward = public_address;
    config.to_server = *link;
    config.to_client = *link;
    config.seed = test_seed(31);
    config.max_clients = n;
    w.conditioner = std::make_unique<LinkConditioner>(config, *w.relay_socket, [loopback] {
      return std::unique_ptr<DatagramSocket>(UdpSocket::open(loopback).socket.release());
    });
    public_address = w.relay_socket->local_address();
  }
  w.server = std::make_unique<NetcodeServer>(*w.server_socket, server_config(key, public_address, n));
  w.server->start(w.now);
  for (uint32_t i = 0; i < n; ++i) {
    auto s = UdpSocket::open(loopback);
    if (!s) return false;
    w.sockets.push_back(std::move(s.socket));
    w.owned.push_back(std::make_unique<NetcodeClient>(*w.sockets.back()));
    w.clients.push_back(w.owned.back().get());
    w.ids.push_back(9000 + i);
    w.clients.back()->connect(mint_token(key, w.ids.back(), {public_address}, kAnchor.to_wall(w.now)), w.now);
  }
  return true;
}

void connect_and_exchange(UdpWorld& w, uint32_t n, int rounds) {
  for (int i = 0; i < 300 && !w.all_connected(); ++i) w.step(Duration::milliseconds(10));
  ASSERT_TRUE(w.all_connected());
  Rng rng(test_seed(9));
  auto step = [&](Duration dt) { w.step(dt); };
  const auto result = exchange_payloads(*w.server, w.clients, w.ids, rng, w.now, step, rounds,
                                        Duration::milliseconds(20), Duration::milliseconds(200));
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  std::printf("udp %s: %u clients; up %llu/%llu, down %llu/%llu\n", w.server_socket->local_address().to_string().c_str(),
              n, static_cast<unsigned long long>(result.received_up), static_cast<unsigned long long>(result.sent_up),
              static_cast<unsigned long long>(result.received_down),
              static_cast<unsigned long long>(result.sent_down));
  EXPECT_EQ(result.sent_up, uint64_t{n} * static_cast<uint64_t>(rounds));
  // Loopback with 4 MB buffers loses nothing at this rate; allow a sliver for a busy host.
  EXPECT_GE(result.up_fraction(), 0.99);
  EXPECT_GE(result.down_fraction(), 0.99);
  EXPECT_EQ(w.server->rejects()[netcode::Reject::decrypt_failed], 0u);
  // Clean shutdown: redundant disconnects reach every client.
  w.server->stop(w.now);
  for (auto* c : w.clients) c->update(w.now + Duration::milliseconds(1));
  for (auto* c : w.clients) EXPECT_EQ(c->state(), ClientState::disconnected);
}

TEST(UdpLoopback, SixtyFourClientsOverIpv4) {
  UdpWorld w;
  ASSERT_TRUE(open_world(w, Address::ipv4(127, 0, 0, 1, 0), 64, fixed_key(23)));
  connect_and_exchange(w, 64, 50);
}

TEST(UdpLoopback, SixtyFourClientsThroughTheConditionerOnABadLink) {
  UdpWorld w;
  LinkModel link;
  link.latency_ms = 250;
  link.jitter_ms = 250;
  link.loss = 0.05;
  link.duplicate = 0.10;
  ASSERT_TRUE(open_world(w, Address::ipv4(127, 0, 0, 1, 0), 64, fixed_key(25), &link));
  for (int i = 0; i < 1000 && !w.all_connected(); ++i) w.step(Duration::milliseconds(10));
  ASSERT_TRUE(w.all_connected());
  Rng rng(test_seed(10));
  auto step = [&](Duration dt) { w.step(dt); };
  const auto result = exchange_payloads(*w.server, w.clients, w.ids, rng, w.now, step, 50,
                                        Duration::milliseconds(20), Duration::milliseconds(1500));
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  std::printf("udp via conditioner: 64 clients; up %llu/%llu, down %llu/%llu\n",
              static_cast<unsigned long long>(result.received_up), static_cast<unsigned long long>(result.sent_up),
              static_cast<unsigned long long>(result.received_down), static_cast<unsigned long long>(result.sent_down));
  EXPECT_EQ(result.sent_up, uint64_t{64} * 50);
  // 5% loss each way (and an unlucky packet can meet a full socket buffer): most payloads arrive,
  // exactly once and unaltered (exchange_payloads checks content and duplicates).
  EXPECT_GT(result.up_fraction(), 0.88);
  EXPECT_GT(result.down_fraction(), 0.88);
  EXPECT_GT(w.conditioner->stats().duplicated, 0u);
  EXPECT_GT(w.server->rejects()[netcode::Reject::replayed], 0u);  // the duplicates, refused by the replay window
  EXPECT_EQ(w.server->rejects()[netcode::Reject::decrypt_failed], 0u);
  EXPECT_TRUE(w.all_connected());
}

TEST(UdpLoopback, ClientsOverIpv6) {
  UdpWorld w;
  if (!open_world(w, Address::ipv6({0, 0, 0, 0, 0, 0, 0, 1}, 0), 4, fixed_key(24))) {
    GTEST_SKIP() << "no IPv6 loopback on this host";
  }
  connect_and_exchange(w, 4, 50);
}

}  // namespace
}  // namespace tickwire
