// One entry point for the bandwidth scenarios, shared by `tickwire bench`, the bench executable and
// the quick test: pick scenarios by name, build them (simulating or reading the cube trace), run
// each through the harness and attach its goals.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bandwidth_result.h"

namespace tickwire::bench {

struct BenchRequest {
  std::string which = "all";         // lights | cubes | bodies | props | all
  std::optional<uint32_t> ticks;     // each scenario's default when unset
  uint64_t seed = 1;                 // loss, the cube scene's drive and the bodies' paths
  std::string trace_path;            // cubes: replay this TWCUBES1 file instead of simulating
  std::string write_trace_path;      // cubes: also write the simulated trace there
  std::optional<float> cube_spacing_m;  // cubes: the simulated grid's spacing (default 1.5 m)
};

struct BenchRun {
  std::vector<BandwidthResult> results;
  std::string error;  // set when the request could not run (unknown scenario, unusable trace)
  bool correct() const;  // every scenario decoded exactly and within precision
};

inline constexpr uint32_t kCubesDefaultTicks = 900;

BenchRun run_bandwidth_benches(const BenchRequest& request);
nlohmann::json bench_json(const BenchRun& run);
std::string bench_table(const BenchRun& run);

}  // namespace tickwire::bench
