// Reliable-ordered throughput and delivery latency over real loopback UDP through the whole stack:
// ReliableClient -> NetcodeClient (AEAD) -> UdpSocket -> [in-process LinkConditioner] -> UdpSocket ->
// NetcodeServer -> ReliableServer, on the real clock. Figures only, no assertions.
//
// Args: loss_pct (0 or 5; 5 always goes through the conditioner), relay (0 direct, 1 through the
// conditioner with no loss), bytes per message, paced (0: offer as fast as the send queue takes them,
// the throughput figure; 1: offer 5,000 messages/s, the latency figure without send-queue backlog).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "tickwire/clock/system_clock.h"
#include "tickwire/core/assert.h"
#include "tickwire/core/bytes.h"
#include "tickwire/transport/connect_token.h"
#include "tickwire/transport/link_conditioner.h"
#include "tickwire/transport/reliable_client.h"
#include "tickwire/transport/reliable_server.h"
#include "tickwire/transport/udp_socket.h"

namespace {

using namespace tickwire;

constexpr uint32_t kSaturatedMessages = 20'000;
constexpr uint32_t kPacedMessages = 5'000;
constexpr double kPacedMessagesPerSecond = 5'000.0;
constexpr uint64_t kMaxPumpsPerRun = 200'000'000;  // a bound, far above any healthy run

EndpointConfig bench_config() {
  EndpointConfig config;
  config.channels[0] = ChannelConfig::reliable();
  config.channels[0].send_window_messages = 512;
  config.channels[0].receive_window_messages = 1024;
  config.channels[0].send_window_bytes = 64 * 1024;
  config.channels[0].receive_queue_bytes = 160 * 1024;
  config.channels[0].send_queue_bytes = 256 * 1024;
  return config;
}

Address loopback() { return Address::ipv4(127, 0, 0, 1, 0); }

// One connected client/server pair over loopback, optionally through an in-process conditioner.
struct Stack {
  std::unique_ptr<UdpSocket> server_socket, client_socket, listen_socket;
  std::unique_ptr<LinkConditioner> conditioner;
  std::unique_ptr<NetcodeServer> netcode_server;
  std::unique_ptr<NetcodeClient> netcode_client;
  std::unique_ptr<ReliableServer> server;
  std::unique_ptr<ReliableClient> client;

  Stack(bool relay, double loss) {
    server_socket = std::move(UdpSocket::open(loopback()).socket);
    client_socket = std::move(UdpSocket::open(loopback()).socket);
    TW_ASSERT(server_socket && client_socket, "loopback sockets");
    Address public_address = server_socket->local_address();
    if (relay) {
      listen_socket = std::move(UdpSocket::open(loopback()).socket);
      TW_ASSERT(listen_socket != nullptr, "conditioner listen socket");
      ConditionerConfig config;
      config.forward = server_socket->local_address();
      config.to_server.loss = loss;
      config.to_client.loss = loss;
      config.seed = 5;
      conditioner = std::make_unique<LinkConditioner>(config, *listen_socket, []() -> std::unique_ptr<DatagramSocket> {
        return std::move(UdpSocket::open(loopback()).socket);
      });
      public_address = listen_socket->local_address();
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
    server = std::make_unique<ReliableServer>(*netcode_server, bench_config());
    client = std::make_unique<ReliableClient>(*netcode_client, bench_config());
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
    if (conditioner) conditioner->step(now);
    client->update(now);
    server->update(now, wall_now());
  }
};

struct RunResult {
  std::vector<double> latency_ms;
  uint64_t resends = 0;
};

// Sends `messages` client -> server on channel 0 and waits until all are delivered.
RunResult run(Stack& stack, uint32_t messages, std::size_t message_bytes, bool paced) {
  RunResult result;
  result.latency_ms.reserve(messages);
  std::vector<int64_t> sent_at_ns(messages);
  std::vector<uint8_t> message(message_bytes, 0x5a);
  const uint64_t resends_before = stack.client->endpoint()->stats().resends;
  const MonoTime start = mono_now();
  uint32_t sent = 0;
  uint32_t received = 0;
  for (uint64_t pumps = 0; received < messages && pumps < kMaxPumpsPerRun; ++pumps) {
    stack.pump();
    ReliableEndpoint* to = stack.server->endpoint(0);
    ReliableEndpoint* from = stack.client->endpoint();
    if (to == nullptr || from == nullptr) break;  // connection lost: report what arrived
    while (auto m = to->receive(0)) {
      const auto index = load_le<uint32_t>(m->data());
      result.latency_ms.push_back(static_cast<double>(mono_now().ns() - sent_at_ns[index]) * 1e-6);
      ++received;
    }
    const MonoTime now = mono_now();
    const auto due = paced ? std::min<uint32_t>(messages, static_cast<uint32_t>((now - start).seconds_f() * kPacedMessagesPerSecond) + 1)
                           : messages;
    while (sent < due) {
      store_le(message.data(), sent);
      if (!from->send(0, message).ok()) break;
      sent_at_ns[sent++] = now.ns();
    }
  }
  if (stack.client->endpoint() != nullptr) result.resends = stack.client->endpoint()->stats().resends - resends_before;
  return result;
}

void BM_ReliableUdp(benchmark::State& state) {
  const double loss = static_cast<double>(state.range(0)) / 100.0;
  const bool relay = state.range(1) != 0 || loss > 0.0;
  const auto message_bytes = static_cast<std::size_t>(state.range(2));
  const bool paced = state.range(3) != 0;
  const uint32_t messages = paced ? kPacedMessages : kSaturatedMessages;
  Stack stack(relay, loss);
  std::vector<double> latency_ms;
  uint64_t resends = 0;
  uint64_t delivered = 0;
  for (auto _ : state) {
    RunResult r = run(stack, messages, message_bytes, paced);
    delivered += r.latency_ms.size();
    resends += r.resends;
    latency_ms.insert(latency_ms.end(), r.latency_ms.begin(), r.latency_ms.end());
  }
  std::sort(latency_ms.begin(), latency_ms.end());
  double sum = 0;
  for (double v : latency_ms) sum += v;
  const auto n = static_cast<double>(std::max<std::size_t>(1, latency_ms.size()));
  state.counters["msgs_per_s"] = benchmark::Counter(static_cast<double>(delivered), benchmark::Counter::kIsRate);
  state.counters["MB_per_s"] =
      benchmark::Counter(static_cast<double>(delivered * message_bytes) / 1e6, benchmark::Counter::kIsRate);
  state.counters["lat_mean_ms"] = sum / n;
  state.counters["lat_p99_ms"] = latency_ms.empty() ? 0.0 : latency_ms[latency_ms.size() * 99 / 100];
  state.counters["resends"] = static_cast<double>(resends);
}

BENCHMARK(BM_ReliableUdp)
    ->ArgNames({"loss_pct", "relay", "bytes", "paced"})
    ->ArgsProduct({{0}, {0, 1}, {100, 1000}, {0, 1}})
    ->ArgsProduct({{5}, {1}, {100, 1000}, {0, 1}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
