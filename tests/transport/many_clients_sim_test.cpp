// 64 clients connect to one server over a bad simulated network (250 +- 250 ms one way, 5% loss,
// 10% duplicates, both directions) and exchange payloads both ways: every client connects, no
// payload is corrupted, misattributed or delivered twice, and loss stays near the link's.
#include <gtest/gtest.h>

#include <cstdio>

#include "netcode_test_support.h"
#include "payload_exchange.h"
#include "support.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

TEST(ManyClientsSim, SixtyFourClientsOnABadNetwork) {
  const uint64_t seed = test_seed(8);
  SimWorld world(seed);
  Rng rng(seed ^ 0x5eed);
  LinkModel bad;
  bad.latency_ms = 250;
  bad.jitter_ms = 250;
  bad.loss = 0.05;
  bad.duplicate = 0.10;
  world.net.set_default_link(bad);

  constexpr uint32_t kClients = 64;
  const netcode::Key key = fixed_key(19);
  auto server_socket = world.net.bind(server_address());
  NetcodeServer server(*server_socket, server_config(key, server_address(), kClients));
  server.start(world.now);
  std::vector<std::unique_ptr<SimSocket>> sockets;
  std::vector<std::unique_ptr<NetcodeClient>> owned;
  std::vector<NetcodeClient*> clients;
  std::vector<uint64_t> ids;
  for (uint32_t i = 0; i < kClients; ++i) {
    sockets.push_back(world.net.bind(client_address(i)));
    owned.push_back(std::make_unique<NetcodeClient>(*sockets.back()));
    clients.push_back(owned.back().get());
    ids.push_back(5000 + i);
    clients.back()->connect(mint_token(key, ids.back(), {server_address()}, world.wall(), 10, 60), world.now);
  }
  auto all_connected = [&] {
    for (auto* c : clients) {
      if (!c->connected()) return false;
    }
    return server.connected_clients() == kClients;
  };
  ASSERT_TRUE(run_until(world, &server, clients, Duration::seconds(10), all_connected));
  const double connect_s = world.now.seconds_f();

  auto step = [&](Duration dt) { step_all(world, &server, clients, dt); };
  const auto result = exchange_payloads(server, clients, ids, rng, world.now, step, /*rounds=*/100,
                                        Duration::milliseconds(50), Duration::seconds(2));
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  std::printf("seed=%llu: all %u connected by %.2f s; up %llu/%llu (%.3f), down %llu/%llu (%.3f); "
              "replays dropped: server %llu, clients %llu\n",
              static_cast<unsigned long long>(seed), kClients, connect_s,
              static_cast<unsigned long long>(result.received_up), static_cast<unsigned long long>(result.sent_up),
              result.up_fraction(), static_cast<unsigned long long>(result.received_down),
              static_cast<unsigned long long>(result.sent_down), result.down_fraction(),
              static_cast<unsigned long long>(server.rejects()[netcode::Reject::replayed]),
              static_cast<unsigned long long>([&] {
                uint64_t n = 0;
                for (auto* c : clients) n += c->rejects()[netcode::Reject::replayed];
                return n;
              }()));
  EXPECT_EQ(result.sent_up, uint64_t{kClients} * 100);
  // 5% loss each way: expect about 95% delivered; well under 88% would mean we lose on our own.
  EXPECT_GT(result.up_fraction(), 0.88);
  EXPECT_GT(result.down_fraction(), 0.88);
  // Duplicated datagrams were dropped by replay protection, not delivered (checked per payload).
  EXPECT_GT(server.rejects()[netcode::Reject::replayed], 0u);
  EXPECT_EQ(server.rejects()[netcode::Reject::decrypt_failed], 0u);
  EXPECT_TRUE(all_connected());
}

}  // namespace
}  // namespace tickwire
