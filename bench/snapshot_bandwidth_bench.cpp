// Scenarios (a)-(c) as Google Benchmark entries whose counters are the byte figures (the time is the
// whole run's, simulation and checks included, not a goal); the full tables follow. The same code as
// `tickwire bench`. Asserts nothing: an exactness or precision failure shows as precision_ok = 0.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>
#include <vector>

#include "bandwidth_bench.h"

namespace snapshot_bandwidth_bench {

using namespace tickwire::bench;

std::vector<BandwidthResult>& tables() {
  static std::vector<BandwidthResult> kept;
  return kept;
}

void run_scenario(benchmark::State& state, const char* which) {
  BenchRun run;
  for (auto _ : state) {
    BenchRequest request;
    request.which = which;
    run = run_bandwidth_benches(request);
  }
  if (!run.error.empty() || run.results.empty()) {
    state.SkipWithError(run.error.c_str());
    return;
  }
  const BandwidthResult& r = run.results.front();
  state.counters["msg_B_mean"] = r.message_bytes.mean;
  state.counters["msg_B_p99"] = r.message_bytes.p99;
  state.counters["wire_B_mean"] = r.wire_bytes.mean;
  state.counters["kbps_msg"] = r.message_kbps;
  state.counters["kbps_wire"] = r.wire_kbps;
  state.counters["bits_moving"] = r.bits_per_moving_update;
  state.counters["bits_resting"] = r.bits_per_resting_update;
  state.counters["wire_B_update"] = r.wire_bytes_per_update;
  state.counters["precision_ok"] = r.correct() ? 1 : 0;
  tables().push_back(r);
}

void BM_Lights(benchmark::State& state) { run_scenario(state, "lights"); }
void BM_Cubes(benchmark::State& state) { run_scenario(state, "cubes"); }
void BM_Bodies(benchmark::State& state) { run_scenario(state, "bodies"); }

BENCHMARK(BM_Lights)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Cubes)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Bodies)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace snapshot_bandwidth_bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  for (const auto& r : snapshot_bandwidth_bench::tables()) std::printf("\n%s", tickwire::bench::format_table(r).c_str());
  return 0;
}
