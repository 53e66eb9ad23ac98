// Reliable-ordered throughput and delivery latency over real loopback UDP through the whole stack:
// ReliableClient -> NetcodeClient (AEAD) -> UdpSocket -> [in-process LinkConditioner] -> UdpSocket ->
// NetcodeServer -> ReliableServer, on the real clock. Figures only, no assertions.
//
// Args: loss_pct (0, 1, 5, 10: random loss each way, through the conditioner), relay (0 direct, 1
// through the conditioner), bytes per message, rate (0: offer as fast as the send queue takes them,
// the throughput figure; N: offer N messages/s, a latency figure: 5,000/s is a busy stream, 200/s
// a game's steady trickle of small messages). Latency counts from the moment a message is offered
// (its paced schedule time, or its first try), refused time included. `in_order` is 1 when every
// message arrived exactly once and in order. scripts/reliable-loss-table runs two builds of this
// bench case by case and prints them side by side; bench/reliable_enet_bench.cpp runs the 5% cases
// beside ENet.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "reliable_udp_stack.h"
#include "tickwire/core/bytes.h"

namespace {

using namespace tickwire;

constexpr uint32_t kSaturatedMessages = 20'000;
constexpr double kPacedSeconds = 1.0;       // a paced run offers this long's worth...
constexpr uint32_t kMinPacedMessages = 1000;  // ...and at least this many messages (p99 needs them)
constexpr uint64_t kMaxPumpsPerRun = 200'000'000;  // a bound, far above any healthy run

using Stack = bench::TickwireUdpStack;

struct RunResult {
  std::vector<double> latency_ms;
  uint64_t resends = 0;
  bool in_order = true;
};

// Sends `messages` client -> server on channel 0 and waits until all are delivered.
RunResult run(Stack& stack, uint32_t messages, std::size_t message_bytes, double rate) {
  RunResult result;
  result.latency_ms.reserve(messages);
  std::vector<int64_t> sent_at_ns(messages);
  std::vector<uint8_t> message(message_bytes, 0x5a);
  const uint64_t resends_before = stack.client->endpoint()->stats().resends;
  const MonoTime start = mono_now();
  const bool paced = rate > 0;
  uint32_t sent = 0;
  uint32_t offered = 0;
  uint32_t received = 0;
  for (uint64_t pumps = 0; received < messages && pumps < kMaxPumpsPerRun; ++pumps) {
    stack.pump();
    ReliableEndpoint* to = stack.server->endpoint(0);
    ReliableEndpoint* from = stack.client->endpoint();
    if (to == nullptr || from == nullptr) break;  // connection lost: report what arrived
    while (auto m = to->receive(0)) {
      const auto index = load_le<uint32_t>(m->data());
      if (index != received || index >= messages) {
        result.in_order = false;
        if (index >= messages) continue;
      }
      result.latency_ms.push_back(static_cast<double>(mono_now().ns() - sent_at_ns[index]) * 1e-6);
      ++received;
    }
    const MonoTime now = mono_now();
    const auto due = paced ? std::min<uint32_t>(messages, static_cast<uint32_t>((now - start).seconds_f() * rate) + 1)
                           : messages;
    while (sent < due) {
      // Latency counts from the offer: the paced schedule's time, or the first (maybe refused) try.
      if (offered < sent + 1) {
        sent_at_ns[sent] = paced ? start.ns() + static_cast<int64_t>(sent * 1e9 / rate) : now.ns();
        offered = sent + 1;
      }
      store_le(message.data(), sent);
      if (!from->send(0, message).ok()) break;
      ++sent;
    }
  }
  if (received != messages) result.in_order = false;
  if (stack.client->endpoint() != nullptr) result.resends = stack.client->endpoint()->stats().resends - resends_before;
  return result;
}

double percentile(const std::vector<double>& sorted, std::size_t pct) {
  return sorted.empty() ? 0.0 : sorted[sorted.size() * pct / 100];
}

void BM_ReliableUdp(benchmark::State& state) {
  const double loss = static_cast<double>(state.range(0)) / 100.0;
  const bool relay = state.range(1) != 0 || loss > 0.0;
  const auto message_bytes = static_cast<std::size_t>(state.range(2));
  const auto rate = static_cast<double>(state.range(3));
  const uint32_t messages =
      rate > 0 ? std::max(kMinPacedMessages, static_cast<uint32_t>(rate * kPacedSeconds)) : kSaturatedMessages;
  Stack stack(relay, loss);
  std::vector<double> latency_ms;
  uint64_t resends = 0;
  uint64_t delivered = 0;
  bool in_order = true;
  for (auto _ : state) {
    RunResult r = run(stack, messages, message_bytes, rate);
    delivered += r.latency_ms.size();
    resends += r.resends;
    in_order = in_order && r.in_order;
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
  state.counters["lat_p50_ms"] = percentile(latency_ms, 50);
  state.counters["lat_p99_ms"] = percentile(latency_ms, 99);
  state.counters["resends_per_msg"] = static_cast<double>(resends) / n;
  state.counters["in_order"] = in_order ? 1.0 : 0.0;
}

BENCHMARK(BM_ReliableUdp)
    ->ArgNames({"loss_pct", "relay", "bytes", "rate"})
    ->Args({0, 0, 1000, 0})
    ->ArgsProduct({{0, 1, 5, 10}, {1}, {1000, 100}, {0}})
    ->ArgsProduct({{0, 1, 5, 10}, {1}, {100}, {5000, 200}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
