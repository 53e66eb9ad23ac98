// The figures one bandwidth scenario run produces (SCENARIOS.md, "Report per scenario"), and their
// two renderings: a table for people and JSON for machines. Filled by the harness, printed by the
// CLI and the bench executable alike.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bandwidth_scenario.h"
#include "precision_check.h"
#include "tick_figure.h"
#include "tickwire/replication/delta/snapshot_delta_codec.h"

namespace tickwire::bench {

// A goal from the issue, judged on the run's figure (benchmarks report goals; they never fail a test).
struct Goal {
  std::string name;
  double value = 0;
  double limit = 0;  // met when value <= limit
  bool met() const { return value <= limit; }
};

struct BandwidthResult {
  std::string scenario;
  uint32_t tick_hz = 0;
  uint32_t ticks = 0;
  std::size_t entities = 0;  // states in the last frame
  uint64_t seed = 0;

  Summary message_bytes;  // the SnapshotDelta message, id byte included
  Summary wire_bytes;     // the same with every packet's overhead (WireOverhead)
  double message_kbps = 0, wire_kbps = 0;
  uint64_t packets = 0;

  // Entity-updates, split by the codec's verdict against the reference: moving = changed or added.
  uint64_t moving_updates = 0, resting_updates = 0;
  double bits_per_moving_update = 0;   // (entity + object record bits) / moving
  double bits_per_resting_update = 0;  // skip-run bits / resting
  double bits_per_update = 0;          // whole message bits / all entity-updates
  double wire_bytes_per_update = 0;    // wire bytes (all overheads) / all entity-updates
  DeltaBodyStats body_totals;          // bits by section over the run

  // References: how each tick's body was coded.
  uint64_t ticks_vs_snapshot = 0, ticks_vs_rest = 0, ticks_vs_nothing = 0, ticks_with_prediction = 0;
  double mean_baseline_age_ticks = 0;  // over ticks coded against a snapshot

  // The simulated client: what it received and whether it decoded the server's frame exactly.
  uint64_t delivered = 0, lost = 0, decode_errors = 0, mismatches = 0, encode_errors = 0;
  PrecisionTally precision;
  std::vector<ExtraFigure> extras;
  std::vector<Goal> goals;

  bool correct() const { return decode_errors == 0 && mismatches == 0 && encode_errors == 0 && precision.failures == 0; }
};

nlohmann::json to_json(const BandwidthResult& result);
std::string format_table(const BandwidthResult& result);

}  // namespace tickwire::bench
