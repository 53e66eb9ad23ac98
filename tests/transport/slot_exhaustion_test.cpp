// Slot exhaustion: a flood of connection requests at 100x max clients per second, half with
// invalid tokens and half with valid tokens whose senders never answer the challenge. It must hold
// zero slots, keep pending state within its fixed cap, drain within the handshake timeout once it
// stops, and a real client starting mid-flood must still connect within 1 s of simulated time.
#include <gtest/gtest.h>

#include <cstdio>

#include "netcode_test_support.h"
#include "support.h"
#include "tickwire/core/rng.h"
#include "tickwire/transport/netcode_packet.h"

namespace tickwire {
namespace {

using namespace tickwire::test;
using netcode::Reject;

// Half the requests carry noise instead of a sealed token; half carry a fresh valid token whose
// sender (one of many attacker addresses) never answers the challenge.
void send_flood_step(SimWorld& world, Rng& rng, const netcode::Key& key,
                     std::vector<std::unique_ptr<SimSocket>>& attackers, uint32_t count, uint64_t& next_client_id) {
  for (uint32_t k = 0; k < count; ++k) {
    SimSocket& from = *attackers[rng.below(attackers.size())];
    auto bytes = request_bytes(mint_token(key, next_client_id++, {server_address()}, world.wall()));
    if (k % 2 == 0) {
      for (std::size_t i = 1 + 13 + 8 + 8 + 24; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(rng.next_u32());
    }
    ASSERT_TRUE(from.send(server_address(), bytes));
  }
}

void print_rejects(const netcode::RejectCounters& rejects) {
  for (std::size_t i = 1; i < netcode::RejectCounters::size(); ++i) {
    const auto reason = static_cast<Reject>(i);
    if (rejects[reason] > 0) {
      std::printf("  %-32s %llu\n", std::string(reason_name(reason)).c_str(),
                  static_cast<unsigned long long>(rejects[reason]));
    }
  }
}

constexpr uint32_t kMaxClients = 64;
constexpr uint32_t kRequestsPerSecond = 100 * kMaxClients;
constexpr Duration kStep = Duration::milliseconds(10);
constexpr uint32_t kPerStep = kRequestsPerSecond / 100;

// The flood, the server and the one real client on one virtual clock.
struct FloodRun {
  explicit FloodRun(uint64_t s) : seed(s), world(s), rng(s) {
    LinkModel link;
    link.latency_ms = 30;
    link.jitter_ms = 10;
    world.net.set_default_link(link);
    server.start(world.now);
    for (uint32_t i = 0; i < 4096; ++i) {  // many sources, so pending state is pushed to its cap
      attackers.push_back(
          world.net.bind(Address::ipv4(10, 9, static_cast<uint8_t>(i >> 8), static_cast<uint8_t>(i), 7000)));
    }
  }

  void step() {
    if (world.now < flood_end) {
      send_flood_step(world, rng, key, attackers, kPerStep, next_client_id);
      flood_requests += kPerStep;
    }
    if (!real_started && world.now >= real_start) {
      real.connect(mint_token(key, 1, {server_address()}, world.wall()), world.now);
      real_started = true;
    }
    NetcodeClient* clients[] = {&real};
    step_all(world, &server, std::span<NetcodeClient* const>(clients, real_started ? 1 : 0), kStep);
    for (auto& a : attackers) {  // attackers read (and ignore) whatever comes back
      while (a->receive_batch(sink) > 0) {
      }
    }
    max_pending = std::max(max_pending, server.pending_handshakes());
    if (real.connected() && real_connected_at == MonoTime{}) real_connected_at = world.now;
  }

  uint64_t seed;
  SimWorld world;
  Rng rng;
  netcode::Key key = fixed_key(13);
  std::unique_ptr<SimSocket> server_socket = world.net.bind(server_address());
  NetcodeServer server{*server_socket, server_config(key, server_address(), kMaxClients)};
  std::vector<std::unique_ptr<SimSocket>> attackers;
  std::unique_ptr<SimSocket> real_socket = world.net.bind(client_address(1));
  NetcodeClient real{*real_socket};
  MonoTime flood_end = world.now + Duration::seconds(4);
  MonoTime real_start = world.now + Duration::seconds(1);
  MonoTime real_connected_at;
  bool real_started = false;
  uint64_t flood_requests = 0;
  uint64_t next_client_id = 1'000'000;
  std::size_t max_pending = 0;
  std::vector<Datagram> sink = std::vector<Datagram>(64);
};

TEST(SlotExhaustion, FloodHoldsNoSlotsStaysCappedDrainsAndARealClientConnects) {
  FloodRun run(test_seed(6));
  // The last flood request lands at most 40 ms (latency + jitter) after the flood ends; its
  // mapping lives the handshake timeout (5 s) from then.
  const MonoTime drained_by = run.flood_end + Duration::milliseconds(40) + Duration::seconds(5) + kStep;
  while (run.world.now < run.flood_end + Duration::seconds(6)) {
    run.step();
    ASSERT_FALSE(::testing::Test::HasFatalFailure());
    ASSERT_LE(run.server.pending_handshakes(), run.server.pending_capacity());
    ASSERT_LE(run.server.connected_clients(), 1u) << "only the real client may hold a slot";
    if (run.world.now >= drained_by) {
      ASSERT_EQ(run.server.pending_handshakes(), 0u) << "pending state must drain within the handshake timeout";
    }
  }
  ASSERT_TRUE(run.real.connected());
  EXPECT_LE(run.real_connected_at - run.real_start, Duration::seconds(1));
  EXPECT_EQ(run.server.connected_clients(), 1u);
  EXPECT_EQ(run.server.client_id(run.real.client_index()), 1u);

  std::printf("seed=%llu flood: %llu requests over 4 s (%u/s), max pending %zu of cap %zu, %llu evicted by recency\n",
              static_cast<unsigned long long>(run.seed), static_cast<unsigned long long>(run.flood_requests),
              kRequestsPerSecond, run.max_pending, run.server.pending_capacity(),
              static_cast<unsigned long long>(run.server.pending_evictions()));
  std::printf("real client connected %.3f s after it started\n", (run.real_connected_at - run.real_start).seconds_f());
  print_rejects(run.server.rejects());
  EXPECT_EQ(run.server.rejects()[Reject::request_token_decrypt_failed], run.flood_requests / 2);
  EXPECT_EQ(run.server.rejects()[Reject::request_token_malformed], 0u);
}

}  // namespace
}  // namespace tickwire
