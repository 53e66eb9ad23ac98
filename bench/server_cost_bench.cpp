// Scenario (d) of SCENARIOS.md, server cost: the same run `tickwire bench server-cost` makes, as a
// Google Benchmark entry whose counters are its figures (mean and p99 ms per tick of one thread's
// CPU time, ns per client x visible entity); the full table follows the benchmark output.
// Asserts nothing; a body that does not decode to the client's frame shows as correct = 0.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <optional>

#include "server_cost.h"

namespace server_cost_bench {

using namespace tickwire::bench;

std::optional<ServerCostResult>& kept() {
  static std::optional<ServerCostResult> result;
  return result;
}

void BM_ServerCost(benchmark::State& state) {
  ServerCostResult r;
  for (auto _ : state) r = run_server_cost(ServerCostRequest{});
  state.counters["mean_ms"] = r.tick_ms.mean;
  state.counters["p99_ms"] = r.tick_ms.p99;
  state.counters["max_ms"] = r.tick_ms.max;
  state.counters["ns_per_client_visible"] = r.ns_per_client_visible;
  state.counters["visible_per_client"] = r.visible_per_client;
  state.counters["frame_ms"] = r.frame_ms;
  state.counters["clients_ms"] = r.clients_ms;
  state.counters["msg_B_mean"] = r.message_bytes_mean;
  state.counters["correct"] = r.correct() ? 1 : 0;
  kept() = r;
}
BENCHMARK(BM_ServerCost)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace server_cost_bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (server_cost_bench::kept()) std::printf("\n%s", tickwire::bench::server_cost_table(*server_cost_bench::kept()).c_str());
  return 0;
}
