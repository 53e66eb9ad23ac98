// The common bandwidth harness (SCENARIOS.md, common rules): each tick it quantizes the scenario's
// truth into a frame, picks the references a real client would let the server use (the newest
// snapshot it acknowledged after a simulated round trip and seeded loss, an older acked one for
// prediction, else the rest table's frame, else nothing), encodes the SnapshotDelta, delivers it to
// a simulated client that holds only what it received, and checks exactness and precision.
#pragma once

#include <cstdint>

#include "bandwidth_result.h"
#include "bandwidth_scenario.h"

namespace tickwire::bench {

struct HarnessOptions {
  uint64_t seed = 1;
  double snapshot_loss = 0.05;      // chance a snapshot never reaches the client
  uint32_t round_trip_ms = 100;     // an ack reaches the server this long after its snapshot left
  uint32_t window_frames = 32;      // baselines older than this many ticks are not used
};

// Runs `scenario` from tick 1 to its last tick and returns its figures. Never throws on codec
// failures: they are counted in the result (BandwidthResult::correct()).
BandwidthResult run_bandwidth_scenario(BandwidthScenario& scenario, const HarnessOptions& options);

// Ticks a round trip of `round_trip_ms` spans at `tick_hz` (100 ms: 6 at 60 Hz, 3 at 30 Hz).
uint32_t round_trip_ticks(uint32_t round_trip_ms, uint32_t tick_hz);

}  // namespace tickwire::bench
