// Bench-only: the reliable channel's config for throughput runs and one connected tickwire
// client/server pair over loopback UDP (netcode 1.02 + ReliableServer/ReliableClient), optionally
// through an in-process LinkConditioner, on the real clock. Shared by reliable_udp_bench and the
// side-by-side ENet bench so both measure the same stack.
#pragma once

#include <cstddef>
#include <memory>

#include "tickwire/clock/system_clock.h"
#include "tickwire/core/assert.h"
#include "tickwire/transport/connect_token.h"
#include "tickwire/transport/link_conditioner.h"
#include "tickwire/transport/reliable_client.h"
#include "tickwire/transport/reliable_server.h"
#include "tickwire/transport/udp_socket.h"

namespace tickwire::bench {

// One reliable channel with room for a loopback round trip's worth of messages in flight.
inline EndpointConfig reliable_bench_config() {
  EndpointConfig config;
  config.channels[0] = ChannelConfig::reliable();
  config.channels[0].send_window_messages = 512;
  config.channels[0].receive_window_messages = 1024;
  config.channels[0].send_window_bytes = 64 * 1024;
  config.channels[0].send_span_bytes = 80 * 1024;
  config.channels[0].receive_queue_bytes = 160 * 1024;
  config.channels[0].send_queue_bytes = 256 * 1024;
  return config;
}

inline Address loopback() { return Address::ipv4(127, 0, 0, 1, 0); }

// A LinkConditioner on loopback in front of `forward`, with its own listen socket.
struct LoopbackConditioner {
  std::unique_ptr<UdpSocket> listen_socket;
  std::unique_ptr<LinkConditioner> conditioner;

  LoopbackConditioner(const Address& forward, double loss, uint64_t seed) {
    listen_socket = std::move(UdpSocket::open(loopback()).socket);
    TW_ASSERT(listen_socket != nullptr, "conditioner listen socket");
    ConditionerConfig config;
    config.forward = forward;
    config.to_server.loss = loss;
    config.to_client.loss = loss;
    config.seed = seed;
    conditioner = std::make_unique<LinkConditioner>(config, *listen_socket, []() -> std::unique_ptr<DatagramSocket> {
      return std::move(UdpSocket::open(loopback()).socket);
    });
  }
  Address address() const { return listen_socket->local_address(); }
  void step(MonoTime now) { conditioner->step(now); }
};

// One connected client/server pair over loopback, optionally through an in-process conditioner.
struct TickwireUdpStack {
  std::unique_ptr<UdpSocket> server_socket, client_socket;
  std::unique_ptr<LoopbackConditioner> relay;
  std::unique_ptr<NetcodeServer> netcode_server;
  std::unique_ptr<NetcodeClient> netcode_client;
  std::unique_ptr<ReliableServer> server;
  std::unique_ptr<ReliableClient> client;

  TickwireUdpStack(bool through_conditioner, double loss, const EndpointConfig& config = reliable_bench_config(),
                   uint64_t seed = 5) {
    server_socket = std::move(UdpSocket::open(loopback()).socket);
    client_socket = std::move(UdpSocket::open(loopback()).socket);
    TW_ASSERT(server_socket && client_socket, "loopback sockets");
    Address public_address = server_socket->local_address();
    if (through_conditioner) {
      relay = std::make_unique<LoopbackConditioner>(server_socket->local_address(), loss, seed);
      public_address = relay->address();
    }
    netcode::Key key{};
    for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<uint8_t>(i * 13 + 7);
    NetcodeServerConfig server_config;
    server_config.private_key = key;
    server_config.public_address = public_address;
    server_config.max_clients = 1;
    netcode_server = std::make_unique<NetcodeServer>(*server_socket, server_config);
    netcode_server->start(mono_now());
    netcode_client = std::make_unique<NetcodeClient>(*client_socket);
    server = std::make_unique<ReliableServer>(*netcode_server, config);
    client = std::make_unique<ReliableClient>(*netcode_client, config);
    netcode::ConnectTokenParams params;
    params.client_id = 1;
    params.server_addresses.add(public_address);
    params.timeout_seconds = 10;
    auto token = netcode::generate_connect_token(params, key, wall_now());
    TW_ASSERT(token.ok(), "bench token");
    netcode_client->connect(token.value(), mono_now());
    for (uint64_t i = 0; i < 10'000'000 && !(client->connected() && server->endpoint(0) != nullptr); ++i) pump();
    TW_ASSERT(client->connected(), "bench client connected");
  }

  void pump() {
    const MonoTime now = mono_now();
    if (relay) relay->step(now);
    client->update(now);
    server->update(now, wall_now());
  }
};

}  // namespace tickwire::bench
