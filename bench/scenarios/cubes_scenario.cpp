// Scenario (b): trace frames to prop records.
#include "cubes_scenario.h"

#include "tickwire/core/assert.h"

namespace tickwire::bench {

CubesScenario::CubesScenario(const CubeTrace& trace, uint32_t ticks)
    : trace_(trace), ticks_(ticks), vocabulary_(GameVocabulary{}.kind(kCubeKind, "cube")) {
  TW_ASSERT(trace.frames() >= 2 && ticks >= 1 && ticks < trace.frames(), "a replay needs frames 0..ticks");
}

void CubesScenario::truth_at(uint32_t tick, TruthFrame& out) {
  out.records.reserve(trace_.cubes);
  for (uint32_t cube = 0; cube < trace_.cubes; ++cube) {
    const CubePose& pose = trace_.at(tick, cube);
    protocol::EntityRecord record;
    record.kind = kCubeKind;
    record.position = {pose.px, pose.py, pose.pz};
    record.rotation = protocol::Rotation{wire::Quat{pose.qx, pose.qy, pose.qz, pose.qw}};
    out.records.push_back(protocol::Record{cube + 1, record});
  }
}

double CubesScenario::uncompressed_kbps() const {
  return static_cast<double>(trace_.cubes) * 7 * 32 * trace_.hz / 1000.0;
}

}  // namespace tickwire::bench
