// Long netcode soak on SimNetwork: 96 clients churn against a 64-slot server for minutes of
// simulated time on a lossy, duplicating, reordering link: reconnects with fresh tokens, client
// and server initiated disconnects, denials while full, and server restarts. Invariants hold at
// every step: events match the slot count, pending state stays capped, and no payload is ever
// corrupted, misattributed or delivered twice.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>

#include "../netcode_test_support.h"
#include "../payload_exchange.h"
#include "support.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

struct SoakClient {
  std::unique_ptr<SimSocket> socket;
  std::unique_ptr<NetcodeClient> netcode;
  uint64_t id = 0;
  uint32_t next_counter = 0;
  MonoTime retry_at;
  std::set<uint32_t> seen;  // counters echoed back to this client (never twice)
  uint64_t connections = 0;
};

void soak_one_seed(uint64_t seed, Duration length) {
  SimWorld world(seed);
  Rng rng(seed * 7919);
  LinkModel link;
  link.latency_ms = 80;
  link.jitter_ms = 60;
  link.loss = 0.03;
  link.duplicate = 0.05;
  link.reorder = 0.02;
  world.net.set_default_link(link);

  constexpr uint32_t kSlots = 64;
  constexpr uint32_t kClients = 96;
  const netcode::Key key = fixed_key(static_cast<uint8_t>(seed));
  auto server_socket = world.net.bind(server_address());
  NetcodeServer server(*server_socket, server_config(key, server_address(), kSlots));
  server.start(world.now);

  std::vector<SoakClient> clients(kClients);
  for (uint32_t i = 0; i < kClients; ++i) {
    clients[i].socket = world.net.bind(client_address(i));
    clients[i].netcode = std::make_unique<NetcodeClient>(*clients[i].socket);
    clients[i].id = 100 + i;
    clients[i].retry_at = world.now + Duration::milliseconds(static_cast<int64_t>(rng.below(2000)));
  }
  std::set<std::pair<uint64_t, uint32_t>> seen_up;
  int64_t event_balance = 0;
  uint64_t restarts = 0, server_kicks = 0, client_quits = 0, received_up = 0, received_down = 0;
  MonoTime next_restart = world.now + Duration::seconds(40);
  const auto step = Duration::milliseconds(10);

  while (world.now < MonoTime::from_ns(0) + length) {
    world.advance(step);
    server.update(world.now, world.wall());
    ServerEvent event;
    while (server.poll_event(event)) event_balance += event.type == ServerEvent::Type::client_connected ? 1 : -1;
    ASSERT_EQ(event_balance, static_cast<int64_t>(server.connected_clients()));
    ASSERT_LE(server.pending_handshakes(), server.pending_capacity());

    netcode::ReceivedPayload got;
    while (server.receive_payload(got)) {
      uint64_t id = 0;
      uint32_t counter = 0;
      ASSERT_TRUE(payload_valid(got.data(), id, counter));
      ASSERT_EQ(server.client_id(got.client_index), id);
      ASSERT_TRUE(seen_up.insert({id, counter}).second) << "duplicate upstream payload";
      ++received_up;
      server.send_payload(got.client_index, got.data(), world.now);
    }
    for (SoakClient& c : clients) {
      NetcodeClient& n = *c.netcode;
      n.update(world.now);
      while (n.receive_payload(got)) {
        uint64_t id = 0;
        uint32_t counter = 0;
        ASSERT_TRUE(payload_valid(got.data(), id, counter));
        ASSERT_EQ(id, c.id);
        ASSERT_TRUE(c.seen.insert(counter).second) << "duplicate downstream payload";
        ++received_down;
      }
      if (n.connected()) {
        if (rng.chance(0.2)) {
          const std::size_t size = 14 + rng.below(netcode::kMaxPayloadBytes - 13);
          n.send_payload(numbered_payload(c.id, c.next_counter++, size), world.now);
        }
        if (rng.chance(0.0005)) {  // about once every 20 s of connection
          n.disconnect(world.now);
          ++client_quits;
          c.retry_at = world.now + Duration::milliseconds(500 + static_cast<int64_t>(rng.below(1500)));
        }
      } else if (static_cast<int8_t>(n.state()) <= 0 && world.now >= c.retry_at) {
        n.connect(mint_token(key, c.id, {server_address()}, world.wall(), 3, 20), world.now);
        ++c.connections;
        c.retry_at = world.now + Duration::milliseconds(500 + static_cast<int64_t>(rng.below(1500)));
      }
    }
    if (server.connected_clients() > 0 && rng.chance(0.01)) {
      const auto index = static_cast<uint32_t>(rng.below(kSlots));
      if (server.client_connected(index)) {
        server.disconnect_client(index, world.now);
        ++server_kicks;
      }
    }
    if (world.now >= next_restart) {
      server.stop(world.now);
      server.start(world.now);
      ++restarts;
      next_restart = world.now + Duration::seconds(40);
    }
  }
  uint64_t connections = 0;
  for (const SoakClient& c : clients) connections += c.connections;
  std::printf("seed=%llu %.0f s: %llu connects, %llu client quits, %llu server kicks, %llu restarts, "
              "%llu payloads up, %llu down, %llu replays dropped, %llu denied, %llu undecryptable\n",
              static_cast<unsigned long long>(seed), length.seconds_f(), static_cast<unsigned long long>(connections),
              static_cast<unsigned long long>(client_quits), static_cast<unsigned long long>(server_kicks),
              static_cast<unsigned long long>(restarts), static_cast<unsigned long long>(received_up),
              static_cast<unsigned long long>(received_down),
              static_cast<unsigned long long>(server.rejects()[netcode::Reject::replayed]),
              static_cast<unsigned long long>(server.rejects()[netcode::Reject::request_denied_server_full] +
                                              server.rejects()[netcode::Reject::response_denied_server_full]),
              static_cast<unsigned long long>(server.rejects()[netcode::Reject::decrypt_failed]));
  EXPECT_GT(received_up, 10000u);
  EXPECT_GT(received_down, 10000u);
  // A client that retries from the same address with a fresh token soon after a failed attempt
  // can have a delayed duplicate of its old request land after the new one; the server's mapping
  // then holds the old token's keys and the new responses fail to decrypt until the attempt times
  // out (the standard's behaviour). Rare, and nothing wrong is ever delivered.
  EXPECT_LT(server.rejects()[netcode::Reject::decrypt_failed], received_up / 1000);
}

TEST(NetcodeSoak, ChurnRestartsAndABadLinkForMinutes) {
  const uint64_t base = test_seed(100);
  for (uint64_t k = 0; k < 3; ++k) {
    soak_one_seed(base + k, Duration::seconds(180));
    if (::testing::Test::HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace tickwire
