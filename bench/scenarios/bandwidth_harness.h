// The common bandwidth harness: per tick, quantize the truth, code it against what a real client
// acknowledged (100 ms round trip, seeded loss, 32-frame window, else the rest frame, else nothing),
// deliver it to a client holding only what it received, and check exactness and precision.
#pragma once

#include <cstdint>

#include "bandwidth_result.h"
#include "bandwidth_scenario.h"

namespace tickwire::bench {

struct HarnessOptions {
  uint64_t seed = 1;
  double snapshot_loss = 0.05;      // chance a snapshot never reaches the client
  uint32_t round_trip_ms = 100;     // an ack reaches the server this long after its snapshot left
                                    // than the baseline (1: the next-newest, SCENARIOS.md's rule)
};

// Runs `scenario` from tick 1 to its last tick and returns its figures. Never throws on codec
// failures: they are counted in the result (BandwidthResult::correct()).
BandwidthResult run_bandwidth_scenario(BandwidthScenario& scenario, const HarnessOptions& options);

// Ticks a round trip of `round_trip_ms` spans at `tick_hz` (100 ms: 6 at 60 Hz, 3 at 30 Hz).
uint32_t round_trip_ticks(uint32_t round_trip_ms, uint32_t tick_hz);

}  // namespace tickwire::bench
