// Scenario (d) of SCENARIOS.md, server cost: what building and encoding every client's snapshot
// costs the server per tick on one thread (interest query, budget fitting, delta encoding against
// each client's acknowledged baseline). Shared by `tickwire bench server-cost` and the bench
// executable, so both measure the same work.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "tick_figure.h"
#include "tickwire/replication/builder/client_snapshot_builder.h"

namespace tickwire::bench {

struct ServerCostRequest {
  uint32_t clients = 256;  // SCENARIOS.md's (d)
  uint32_t entities = 2000;  // the clients' pawns among them
  uint32_t ticks = 600;
  float tick_hz = 60.0f;
  float map_m = 1000.0f;
  float radius_m = 100.0f;
  float max_speed_mps = 5.0f;
  uint32_t ack_delay_ticks = 6;  // 100 ms round trip at 60 Hz
  double loss = 0.05;            // snapshots lost (never acked)
  uint32_t budget_bytes = 1100;  // per client per tick, the whole message
  uint32_t ticks_per_snapshot = 3;  // the world lane at 20 Hz; the pose lane every tick
  float pose_radius_m = 30.0f;
  float cell_m = 25.0f;
  uint32_t max_fit_frames = ClientSnapshotBuilderConfig{}.max_fit_frames;  // the room's default
  bool verify = true;  // decode every body (untimed) and compare with the frame the client holds
  uint64_t seed = 1;
};

struct ServerCostResult {
  ServerCostRequest request;
  Summary tick_ms;           // the timed work per tick, this thread's CPU time
  double wall_mean_ms = 0;   // the same work in wall time
  double frame_ms = 0;       // per tick: quantizing the world frame once and moving the grid
  double clients_ms = 0;     // per tick: every client's interest, fit, delta encoding and message
  double ns_per_client_visible = 0;
  double visible_per_client = 0;  // mean interest set size
  double selected_per_client = 0;
  double skipped_per_client = 0;
  double message_bytes_mean = 0;
  double message_bytes_max = 0;
  double baseline_age_mean = 0;
  uint64_t fragmented = 0;   // snapshots past one message
  uint64_t refused = 0;      // snapshots past MaxSnapshotBytes (not sent)
  uint64_t refits = 0;       // snapshots composed twice (a loose one past its budget, or one spilling)
  uint64_t loose = 0;        // snapshots composed without estimates (the budget far from binding)
  uint64_t verified = 0;     // bodies decoded and compared
  uint64_t mismatches = 0;   // bodies that did not decode to the client's frame
  bool correct() const { return refused == 0 && mismatches == 0; }
  bool goal_met() const { return tick_ms.mean <= 4.0; }  // a quarter of a 60 Hz tick
};

ServerCostResult run_server_cost(const ServerCostRequest& request);
nlohmann::json server_cost_json(const ServerCostResult& result);
std::string server_cost_table(const ServerCostResult& result);

}  // namespace tickwire::bench
