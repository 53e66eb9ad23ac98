// Scenario (e) of SCENARIOS.md, the room, full stack: the real server (netcode 1.02 crypto, the
// reliability layer, sessions, the room, the reference game, replication with interest and budget)
// against N scripted clients (room_bench_client.h), stepped in lockstep one tick at a time so the
// server's CPU per tick is measured alone, on one thread, over SimNetwork (the server's own work)
// or over loopback UDP (the kernel's sends and receives included). `tickwire bench room` prints it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tick_figure.h"
#include "tickwire/transport/link_model.h"

namespace tickwire::bench {

enum class RoomBenchTransport : uint8_t { sim, udp };
std::string_view room_bench_transport_name(RoomBenchTransport transport);

struct RoomBenchRequest {
  std::vector<uint32_t> clients = {64, 255, 1000};  // one run per count (a room seats at most 1,023)
  std::vector<RoomBenchTransport> transports = {RoomBenchTransport::sim, RoomBenchTransport::udp};
  uint32_t ticks = 600;        // measured, after every client is in and warm
  uint32_t tick_hz = 60;       // the room's tick and snapshot rate
  float spacing_m = 20.0f;     // between spawn points: the crowd's density
  LinkModel sim_link;          // SimNetwork's link both ways (default: lossless, delivered at once)
  uint64_t seed = 1;           // the bots' walks and the simulated network
};

struct RoomBenchRun {
  uint32_t clients = 0;
  RoomBenchTransport transport = RoomBenchTransport::sim;
  uint32_t tick_hz = 60;
  uint32_t joined = 0;            // clients sending inputs when measuring began
  double join_ms_total = 0;       // the server's CPU while they all connected at once (handshakes, sessions)
  double join_ms_max = 0;         // its longest update then: what a burst of joins costs one tick
  uint32_t ticks = 0;             // server ticks measured
  Summary server_ms;              // the server's update (receive, tick, snapshots, send): thread CPU
  double us_per_client_tick = 0;  // server_ms.mean per client, in microseconds
  double clients_ms_mean = 0;     // every client's frame per tick, for scale (not the server's cost)
  double snapshot_bytes_mean = 0; // per snapshot a client decoded
  double records_mean = 0;        // records per snapshot: the neighbourhood a client is sent
  double snapshots_per_client_s = 0;
  uint64_t client_drops = 0;      // snapshots or messages a client could not use (all reasons)
  double tick_budget_ms() const;  // one tick at the room's rate
  bool held() const { return joined == clients && server_ms.p99 <= tick_budget_ms(); }
  bool correct() const;           // every client joined, decoded snapshots at the tick rate, dropped none
};

struct RoomBenchResult {
  RoomBenchRequest request;
  std::vector<RoomBenchRun> runs;
  bool correct() const;
  // Per transport: the largest N measured whose p99 held one tick, and the N one core would hold at
  // that run's cost per client (16.7 ms / us per client): a projection, past the room's seats too.
  struct Capacity {
    RoomBenchTransport transport = RoomBenchTransport::sim;
    uint32_t largest_held = 0;
    double projected = 0;
  };
  std::vector<Capacity> capacity() const;
};

RoomBenchResult run_room_bench(const RoomBenchRequest& request);
// One run: N clients on one transport.
RoomBenchRun run_room(const RoomBenchRequest& request, uint32_t clients, RoomBenchTransport transport);
nlohmann::json room_bench_json(const RoomBenchResult& result);
std::string room_bench_table(const RoomBenchResult& result);

}  // namespace tickwire::bench
