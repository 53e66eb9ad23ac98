// The dashboard's net graph: each client's link as rates between two looks at the facade's
// counters (bytes up and down per second, snapshot bytes per second, starved ticks per second)
// beside its levels (RTT, loss, input-queue depth). Quake's net_graph, one row per client per
// sample; the page keeps the history it draws, so nothing here grows with time.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "tickwire/stats.h"

namespace tickwire::dashboard {

struct NetSample {
  OwnerId owner = 0;
  bool admitted = false;
  uint32_t pawn_record_id = 0;  // its pawn's record id (0: none)
  double rtt_ms = 0;
  double loss = 0;              // 0..1
  double up_bytes_per_s = 0;    // client to server
  double down_bytes_per_s = 0;  // server to client
  double snapshot_bytes_per_s = 0;
  double snapshots_per_s = 0;
  double starved_per_s = 0;     // ticks run without a fresh input (repeated or zeroed)
  int queue_depth = 0;          // inputs waiting (negative: the starved run)
  uint64_t starved_ticks = 0;   // since the client joined
  uint64_t fresh_ticks = 0;
  uint64_t snapshot_bytes_mean = 0;  // bytes per snapshot since the last sample (0: none sent)
};

class NetGraph {
 public:
  // Rates since the previous call for each client (a client first seen: its levels, rates 0).
  std::vector<NetSample> sample(double now_s, const std::vector<ClientLink>& clients);

 private:
  struct Seen {
    bool valid = false;
    uint64_t client_id = 0;
    double at_s = 0;
    uint64_t bytes_up = 0, bytes_down = 0, snapshot_bytes = 0, snapshots = 0, starved = 0;
  };
  std::array<Seen, kOwnerIdCount> seen_{};  // by owner id
};

}  // namespace tickwire::dashboard
