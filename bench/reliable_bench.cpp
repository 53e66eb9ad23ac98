// Reliable-ordered throughput and latency between two endpoints in one process, over SimNetwork
// (10 ms each way, 100 Hz ticks), with 0, 1, 5 and 10% loss each way. Prints messages/s and MB/s
// per CPU second (both endpoints and the simulated network: the layer's cost), the mean, p50 and
// p99 delivery latency in simulated ms (send call to receive call: the machine's load does not
// move them), the simulated throughput and the resends per message. Figures, not assertions.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "reliable_udp_stack.h"
#include "tickwire/core/bytes.h"
#include "tickwire/transport/reliable_endpoint.h"
#include "tickwire/transport/sim_network.h"

namespace {

using namespace tickwire;

constexpr uint32_t kMessages = 20'000;
// Offered load: about 6 KB a tick, under the 8 x 1200-byte write budget, so latency is the link's
// and the resends', not a growing send queue.
constexpr std::size_t kOfferedBytesPerTick = 6000;
constexpr Duration kTick = Duration::milliseconds(10);

struct SocketSink final : PacketSink {
  SimSocket* socket = nullptr;
  Address to;
  void on_packet(uint16_t, std::span<const uint8_t> payload) override {
    const OutgoingDatagram d{to, payload};
    socket->send_batch(std::span<const OutgoingDatagram>(&d, 1));
  }
};

struct RunResult {
  double sim_seconds = 0;
  std::vector<double> latency_ms;
  uint64_t resends = 0;
};

void drain_socket(SimSocket& socket, ReliableEndpoint& endpoint, MonoTime now, std::vector<Datagram>& batch) {
  for (;;) {
    const std::size_t n = socket.receive_batch(batch);
    for (std::size_t i = 0; i < n; ++i) (void)endpoint.receive_packet({batch[i].data, batch[i].size}, now);
    if (n < batch.size()) return;
  }
}

RunResult run(double loss, std::size_t message_bytes, uint64_t seed) {
  const EndpointConfig config = bench::reliable_bench_config();
  ReliableEndpoint a(config);
  ReliableEndpoint b(config);
  SimNetwork net(seed);
  LinkModel link;
  link.latency_ms = 10;
  link.loss = loss;
  net.set_default_link(link);
  const Address address_a = *Address::parse("127.0.0.1:5000");
  const Address address_b = *Address::parse("127.0.0.1:5001");
  auto socket_a = net.bind(address_a);
  auto socket_b = net.bind(address_b);
  SocketSink to_b, to_a;
  to_b.socket = socket_a.get();
  to_b.to = address_b;
  to_a.socket = socket_b.get();
  to_a.to = address_a;
  std::vector<Datagram> batch(64);
  std::vector<int64_t> sent_at(kMessages);
  RunResult result;
  result.latency_ms.reserve(kMessages);
  std::vector<uint8_t> message(message_bytes, 0x5a);
  MonoTime now = MonoTime::from_ns(0);
  uint32_t sent = 0;
  uint32_t received = 0;
  while (received < kMessages) {
    now += kTick;
    net.advance_to(now);
    drain_socket(*socket_a, a, now, batch);
    drain_socket(*socket_b, b, now, batch);
    while (auto m = b.receive(0)) {
      const auto index = load_le<uint32_t>(m->data());
      result.latency_ms.push_back(static_cast<double>(now.ns() - sent_at[index]) * 1e-6);
      ++received;
    }
    const std::size_t per_tick = std::max<std::size_t>(1, kOfferedBytesPerTick / message_bytes);
    for (std::size_t k = 0; k < per_tick && sent < kMessages; ++k) {
      store_le(message.data(), sent);
      if (!a.send(0, message).ok()) break;
      sent_at[sent++] = now.ns();
    }
    a.write_packets(now, to_b);
    b.write_packets(now, to_a);
  }
  result.sim_seconds = now.seconds_f();
  result.resends = a.stats().resends;
  return result;
}

// Each iteration is one run with its own seed; the iteration count is fixed, so two builds measure
// the same seeds and their latency figures (over every run's messages) compare exactly.
constexpr int kRunsPerCase = 8;

void BM_ReliableOrdered(benchmark::State& state) {
  const double loss = static_cast<double>(state.range(0)) / 100.0;
  const auto message_bytes = static_cast<std::size_t>(state.range(1));
  std::vector<double> sorted;
  double sim_seconds = 0;
  uint64_t resends = 0;
  uint64_t seed = 1;
  for (auto _ : state) {
    const RunResult r = run(loss, message_bytes, seed++);
    benchmark::DoNotOptimize(r.latency_ms.data());
    sorted.insert(sorted.end(), r.latency_ms.begin(), r.latency_ms.end());
    sim_seconds += r.sim_seconds;
    resends += r.resends;
  }
  std::sort(sorted.begin(), sorted.end());
  double sum = 0;
  for (double v : sorted) sum += v;
  const auto messages = static_cast<double>(sorted.size());
  state.counters["msgs_per_s"] = benchmark::Counter(kMessages, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["MB_per_s"] = benchmark::Counter(static_cast<double>(kMessages * message_bytes) / 1e6,
                                                  benchmark::Counter::kIsIterationInvariantRate);
  state.counters["latency_mean_sim_ms"] = sum / messages;
  state.counters["latency_p50_sim_ms"] = sorted[sorted.size() / 2];
  state.counters["latency_p99_sim_ms"] = sorted[sorted.size() * 99 / 100];
  state.counters["sim_msgs_per_s"] = messages / sim_seconds;
  state.counters["resends_per_msg"] = static_cast<double>(resends) / messages;
}

BENCHMARK(BM_ReliableOrdered)
    ->ArgNames({"loss_pct", "bytes"})
    ->ArgsProduct({{0, 1, 5, 10}, {100, 1000}})
    ->Iterations(kRunsPerCase)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
