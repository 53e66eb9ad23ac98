// Reliable-ordered throughput and delivery latency over real loopback UDP through the whole stack:
// ReliableClient -> NetcodeClient (AEAD) -> UdpSocket -> [in-process LinkConditioner] -> UdpSocket ->
// NetcodeServer -> ReliableServer, on the real clock. Figures only, no assertions.
//
// Args: loss_pct (0 or 5; 5 always goes through the conditioner), relay (0 direct, 1 through the
// conditioner with no loss), bytes per message, paced (0: offer as fast as the send queue takes them,
// the throughput figure; 1: offer 5,000 messages/s, the latency figure). Latency counts from the
// moment a message is offered (its paced schedule time, or its first try), refused time included.
// bench/reliable_enet_bench.cpp runs the same cases beside ENet.
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
constexpr uint32_t kPacedMessages = 5'000;
constexpr double kPacedMessagesPerSecond = 5'000.0;
constexpr uint64_t kMaxPumpsPerRun = 200'000'000;  // a bound, far above any healthy run

using Stack = bench::TickwireUdpStack;

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
  uint32_t offered = 0;
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
      // Latency counts from the offer: the paced schedule's time, or the first (maybe refused) try.
      if (offered < sent + 1) {
        sent_at_ns[sent] = paced ? start.ns() + static_cast<int64_t>(sent * 1e9 / kPacedMessagesPerSecond) : now.ns();
        offered = sent + 1;
      }
      store_le(message.data(), sent);
      if (!from->send(0, message).ok()) break;
      ++sent;
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
