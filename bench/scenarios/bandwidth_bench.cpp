// Building and running the named scenarios, and the goals each is held to (issue 6).
#include "bandwidth_bench.h"

#include <algorithm>

#include <fmt/format.h>

#include "bandwidth_harness.h"
#include "bodies_scenario.h"
#include "cube_physics.h"
#include "cubes_scenario.h"
#include "lights_scenario.h"
#include "props_scenario.h"

namespace tickwire::bench {
namespace {

HarnessOptions harness_options(uint64_t seed) {
  HarnessOptions options;
  options.seed = seed;
  return options;
}

BandwidthResult run_lights(const BenchRequest& request) {
  LightsScenario scenario(request.ticks.value_or(LightsScenario::kDefaultTicks));
  BandwidthResult r = run_bandwidth_scenario(scenario, harness_options(request.seed));
  r.goals.push_back({"mean snapshot message bytes per tick", r.message_bytes.mean, 48});
  return r;
}

// The scene is simulated (or read) first, then replayed: the encoder never steers the physics.
std::string run_cubes(const BenchRequest& request, std::vector<BandwidthResult>& out) {
  CubeTrace trace;
  const float spacing_m = request.cube_spacing_m.value_or(CubeSceneConfig::kDefaultSpacingM);
  if (!(spacing_m >= CubeSceneConfig::kMinSpacingM && spacing_m <= CubeSceneConfig::kMaxSpacingM)) {
    return fmt::format("--cube-spacing {} m: the grid's spacing must lie in [{}, {}] m", spacing_m,
                       CubeSceneConfig::kMinSpacingM, CubeSceneConfig::kMaxSpacingM);
  }
  if (!request.trace_path.empty() && request.cube_spacing_m) {
    return "--cube-spacing shapes a simulated scene; a replayed --trace has its own";
  }
  if (!request.trace_path.empty()) {
    const TraceLoad load = read_cube_trace_file(request.trace_path, trace);
    if (!load.ok) return load.error;
    if (trace.frames() < 2) return request.trace_path + ": a replay needs at least two frames";
  } else {
    const uint32_t ticks = request.ticks.value_or(kCubesDefaultTicks);
    trace = simulate_cube_scene(CubeSceneConfig{request.seed, ticks + 1, 60, spacing_m});
    if (!request.write_trace_path.empty()) {
      const TraceLoad written = write_cube_trace_file(request.write_trace_path, trace);
      if (!written.ok) return written.error;
    }
  }
  const uint32_t ticks = std::min(request.ticks.value_or(trace.frames() - 1), trace.frames() - 1);
  CubesScenario scenario(trace, ticks);
  BandwidthResult r = run_bandwidth_scenario(scenario, harness_options(request.seed));
  r.extras.push_back({"uncompressed kbit/s (7 floats per cube)", scenario.uncompressed_kbps(), 1});
  r.goals.push_back({"bits per moving cube", r.bits_per_moving_update, 40});
  r.goals.push_back({"bits per resting cube", r.bits_per_resting_update, 1});
  out.push_back(std::move(r));
  return {};
}

BandwidthResult run_bodies(const BenchRequest& request) {
  BodiesScenario scenario(request.seed, request.ticks.value_or(BodiesScenario::kDefaultTicks));
  BandwidthResult r = run_bandwidth_scenario(scenario, harness_options(request.seed));
  r.goals.push_back({"wire bytes per object-update (all overheads)", r.wire_bytes_per_update, 1.5});
  return r;
}

BandwidthResult run_props(const BenchRequest& request) {
  PropsScenario scenario(request.seed, request.ticks.value_or(PropsScenario::kDefaultTicks));
  BandwidthResult r = run_bandwidth_scenario(scenario, harness_options(request.seed));
  r.goals.push_back({"bits per moving prop", r.bits_per_moving_update, 40});
  r.goals.push_back({"bits per resting prop", r.bits_per_resting_update, 1});
  return r;
}

}  // namespace

bool BenchRun::correct() const {
  return error.empty() && std::all_of(results.begin(), results.end(), [](const BandwidthResult& r) { return r.correct(); });
}

BenchRun run_bandwidth_benches(const BenchRequest& request) {
  BenchRun run;
  const std::string& which = request.which;
  if (which != "all" && which != "lights" && which != "cubes" && which != "bodies" && which != "props") {
    run.error = fmt::format("unknown scenario '{}': one of lights, cubes, bodies, props, all", which);
    return run;
  }
  if (request.ticks && *request.ticks == 0) {
    run.error = "--ticks must be at least 1";
    return run;
  }
  if (which == "all" || which == "lights") run.results.push_back(run_lights(request));
  if (which == "all" || which == "cubes") run.error = run_cubes(request, run.results);
  if (run.error.empty() && (which == "all" || which == "bodies")) run.results.push_back(run_bodies(request));
  if (run.error.empty() && (which == "all" || which == "props")) run.results.push_back(run_props(request));
  return run;
}

nlohmann::json bench_json(const BenchRun& run) {
  nlohmann::json j;
  j["scenarios"] = nlohmann::json::array();
  for (const BandwidthResult& r : run.results) j["scenarios"].push_back(to_json(r));
  if (!run.error.empty()) j["error"] = run.error;
  j["correct"] = run.correct();
  return j;
}

std::string bench_table(const BenchRun& run) {
  std::string out;
  for (const BandwidthResult& r : run.results) out += format_table(r) + "\n";
  return out;
}

}  // namespace tickwire::bench
