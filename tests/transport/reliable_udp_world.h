// Test-only: the exactly-once check over real UDP on loopback. A NetcodeServer on a UdpSocket with a
// ReliableServer, N NetcodeClients with ReliableClients, connecting through a relay (the in-process
// LinkConditioner or the `tickwire conditioner` process); both sides send random-sized reliable
// messages, blocks and unreliable messages. The clock is real (UDP is), loops are bounded by
// iteration count and elapsed time, and only content is asserted, never timing.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "message_pattern.h"
#include "netcode_test_support.h"
#include "reliable_soak.h"
#include "tickwire/clock/system_clock.h"
#include "tickwire/transport/reliable_client.h"
#include "tickwire/transport/reliable_server.h"
#include "tickwire/transport/udp_socket.h"

namespace tickwire::test {

inline constexpr uint8_t kBlockChannel = 3;

// Channels 0-2 as the SimNetwork soak (reliable with blocks, unreliable, reliable) plus channel 3
// for explicit large blocks.
inline EndpointConfig reliable_udp_config() {
  EndpointConfig config = soak_config();
  config.channels[kBlockChannel] = ChannelConfig::reliable_with_blocks(64 * 1024);
  return config;
}

// A few large blocks on kBlockChannel, checked in order and byte for byte.
class BlockStream {
 public:
  BlockStream(uint64_t seed, uint32_t blocks) : rng_(seed), target_(blocks) {}
  void offer(ReliableEndpoint& from) {
    if (sent_ == target_) return;
    if (pending_.empty()) pending_ = make_message(sent_, 20'000 + rng_.below(40'000));
    const SendResult r = from.send(kBlockChannel, pending_);
    if (r.ok()) {
      pending_.clear();
      ++sent_;
    } else {
      EXPECT_EQ(r.error, SendError::send_queue_full);
    }
  }
  void drain(ReliableEndpoint& to) {
    while (auto m = to.receive(kBlockChannel)) {
      ASSERT_EQ(message_index(*m), received_) << "block out of order, lost or repeated";
      ASSERT_TRUE(message_intact(*m)) << "block " << received_ << " corrupted";
      ++received_;
    }
  }
  bool complete() const { return sent_ == target_ && received_ == target_; }
  uint32_t received() const { return received_; }

 private:
  Rng rng_;
  uint32_t target_;
  std::vector<uint8_t> pending_;
  uint32_t sent_ = 0;
  uint32_t received_ = 0;
};

// One direction of one connection: random-sized messages on channels 0-2, blocks on channel 3.
struct DirectionTraffic {
  DirectionTraffic(Rng& seeds, uint32_t block_count) : messages(seeds.next_u64()), blocks(seeds.next_u64(), block_count) {}
  SoakStream messages;
  BlockStream blocks;
  void offer(ReliableEndpoint& from, const EndpointConfig& config) {
    messages.offer(from, config.channels[0]);
    blocks.offer(from);
  }
  void drain(ReliableEndpoint& to) {
    messages.drain(to);
    if (!::testing::Test::HasFatalFailure()) blocks.drain(to);
  }
  bool complete() const { return messages.complete() && blocks.complete(); }
};

struct ReliableUdpWorld {
  netcode::Key key = fixed_key(41);
  EndpointConfig config = reliable_udp_config();
  std::unique_ptr<UdpSocket> server_socket;
  std::unique_ptr<NetcodeServer> netcode_server;
  std::unique_ptr<ReliableServer> server;
  std::vector<std::unique_ptr<UdpSocket>> client_sockets;
  std::vector<std::unique_ptr<NetcodeClient>> netcode_clients;
  std::vector<std::unique_ptr<ReliableClient>> clients;
  std::vector<DirectionTraffic> up;    // client i -> server
  std::vector<DirectionTraffic> down;  // server -> client i
  std::function<void(MonoTime)> relay = [](MonoTime) {};  // the in-process conditioner's step, if any

  // The server's own socket (127.0.0.1, a free port); the address a relay forwards to.
  Address open_server_socket() {
    auto opened = UdpSocket::open(Address::ipv4(127, 0, 0, 1, 0));
    TW_ASSERT(opened, "server socket on loopback");
    server_socket = std::move(opened.socket);
    return server_socket->local_address();
  }
  // Starts the server (tokens list `public_address`, the relay's listen address) and `n` clients.
  void start(const Address& public_address, uint32_t n, uint64_t seed, uint32_t blocks_per_direction) {
    netcode_server = std::make_unique<NetcodeServer>(*server_socket, server_config(key, public_address, n));
    netcode_server->start(mono_now());
    server = std::make_unique<ReliableServer>(*netcode_server, config);
    Rng seeds(seed);
    for (uint32_t i = 0; i < n; ++i) {
      auto opened = UdpSocket::open(Address::ipv4(127, 0, 0, 1, 0));
      TW_ASSERT(opened, "client socket on loopback");
      client_sockets.push_back(std::move(opened.socket));
      netcode_clients.push_back(std::make_unique<NetcodeClient>(*client_sockets.back()));
      clients.push_back(std::make_unique<ReliableClient>(*netcode_clients.back(), config));
      netcode_clients.back()->connect(mint_token(key, 7000 + i, {public_address}, wall_now(), 10), mono_now());
      up.emplace_back(seeds, blocks_per_direction);
      down.emplace_back(seeds, blocks_per_direction);
    }
  }
  void step() {
    const MonoTime now = mono_now();
    relay(now);
    server->update(now, wall_now());
    for (auto& c : clients) c->update(now);
  }
  bool all_connected() const {
    for (const auto& c : clients) {
      if (!c->connected()) return false;
    }
    return netcode_server->connected_clients() == clients.size();
  }
  // The server's endpoint for client i; null when that connection is gone.
  ReliableEndpoint* server_endpoint(std::size_t i) { return server->endpoint(netcode_clients[i]->client_index()); }
};

inline void pause_briefly() { std::this_thread::sleep_for(std::chrono::milliseconds(2)); }

// Connects every client, runs `traffic_rounds` rounds of traffic both ways, then drains (bounded by
// `drain_limit` of real time) and checks that everything arrived exactly once, in order, intact.
inline void run_reliable_udp_exchange(ReliableUdpWorld& w, int traffic_rounds, Duration drain_limit) {
  const MonoTime connect_deadline = mono_now() + Duration::seconds(10);
  for (int i = 0; i < 5000 && !w.all_connected() && mono_now() < connect_deadline; ++i) {
    w.step();
    pause_briefly();
  }
  ASSERT_TRUE(w.all_connected());
  const std::size_t memory = w.server_endpoint(0)->memory_bytes();
  auto exchange = [&](bool offer) {
    for (std::size_t i = 0; i < w.clients.size(); ++i) {
      ReliableEndpoint* client_side = w.clients[i]->endpoint();
      ASSERT_NE(client_side, nullptr) << "client " << i << " lost its connection";
      ReliableEndpoint* server_side_ptr = w.server_endpoint(i);
      ASSERT_NE(server_side_ptr, nullptr) << "the server dropped client " << i;
      ReliableEndpoint& server_side = *server_side_ptr;
      w.up[i].drain(server_side);
      w.down[i].drain(*client_side);
      if (::testing::Test::HasFatalFailure()) return;
      if (offer) {
        w.up[i].offer(*client_side, w.config);
        w.down[i].offer(server_side, w.config);
      }
      expect_within_caps(*client_side, w.config, memory);
      expect_within_caps(server_side, w.config, memory);
    }
  };
  for (int round = 0; round < traffic_rounds; ++round) {
    w.step();
    exchange(true);
    if (::testing::Test::HasFatalFailure()) return;
    pause_briefly();
  }
  for (auto* t : {&w.up, &w.down}) {
    for (DirectionTraffic& d : *t) d.messages.stop();
  }
  auto all_complete = [&] {
    for (std::size_t i = 0; i < w.clients.size(); ++i) {
      if (!w.up[i].complete() || !w.down[i].complete()) return false;
    }
    return true;
  };
  const MonoTime drain_deadline = mono_now() + drain_limit;
  for (int i = 0; i < 20'000 && !all_complete() && mono_now() < drain_deadline; ++i) {
    w.step();
    exchange(true);  // stopped streams only retry what is pending
    if (::testing::Test::HasFatalFailure()) return;
    pause_briefly();
  }
  for (std::size_t i = 0; i < w.clients.size(); ++i) {
    for (auto* d : {&w.up[i], &w.down[i]}) {
      const char* dir = d == &w.up[i] ? "up" : "down";
      EXPECT_TRUE(d->complete()) << "client " << i << " " << dir << ": sent " << d->messages.sent(0) << "+"
                                 << d->messages.sent(1) << " received " << d->messages.received(0) << "+"
                                 << d->messages.received(1) << " blocks " << d->blocks.received();
      EXPECT_GT(d->messages.sent(0) + d->messages.sent(1), 0u);
      EXPECT_GT(d->blocks.received(), 0u);
      std::printf("[ udp ] client %zu %s: %u+%u reliable messages (%llu random blocks), %u blocks on ch3, %llu unreliable\n",
                  i, dir, d->messages.sent(0), d->messages.sent(1), static_cast<unsigned long long>(d->messages.blocks()),
                  d->blocks.received(), static_cast<unsigned long long>(d->messages.unreliable_received()));
    }
    EXPECT_EQ(w.clients[i]->connections(), 1u) << "client " << i << " reconnected";
    EXPECT_EQ(w.clients[i]->counters()[ReliableLinkDrop::endpoint_failed], 0u);
  }
  EXPECT_EQ(w.server->counters()[ReliableLinkDrop::endpoint_failed], 0u);
  EXPECT_EQ(w.server->counters()[ReliableLinkDrop::malformed_payload], 0u);
  ASSERT_NE(w.server_endpoint(0), nullptr);
  const ConnectionStats s = w.server_endpoint(0)->stats();
  std::printf("[ udp ] server side of client 0: rtt %.1f ms, loss %.1f%%, resends %llu\n", s.rtt_ms, s.loss_percent,
              static_cast<unsigned long long>(s.resends));
}

}  // namespace tickwire::test
