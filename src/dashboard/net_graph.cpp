// NetGraph (dashboard/net_graph.h): counters differenced per owner; a new client id in a slot
// (a reconnect) starts its rates over instead of reporting a negative jump.
#include "tickwire/dashboard/net_graph.h"

namespace tickwire::dashboard {
namespace {

double rate(uint64_t now, uint64_t before, double dt_s) { return now >= before && dt_s > 0 ? double(now - before) / dt_s : 0.0; }

}  // namespace

std::vector<NetSample> NetGraph::sample(double now_s, const std::vector<ClientLink>& clients) {
  std::vector<NetSample> out;
  out.reserve(clients.size());
  for (const ClientLink& c : clients) {
    NetSample s;
    s.owner = c.owner;
    s.admitted = c.admitted;
    s.pawn_record_id = c.pawn_record_id;
    s.rtt_ms = c.rtt_ms;
    s.loss = c.packet_loss;
    s.queue_depth = c.has_depth ? c.queue_depth : 0;
    s.starved_ticks = c.repeated_ticks + c.zeroed_ticks;
    s.fresh_ticks = c.fresh_ticks;
    Seen& before = seen_[c.owner];
    if (before.valid && before.client_id == c.client_id) {
      const double dt = now_s - before.at_s;
      s.up_bytes_per_s = rate(c.bytes_received, before.bytes_up, dt);
      s.down_bytes_per_s = rate(c.bytes_sent, before.bytes_down, dt);
      s.snapshot_bytes_per_s = rate(c.snapshot_bytes, before.snapshot_bytes, dt);
      s.snapshots_per_s = rate(c.snapshots_sent, before.snapshots, dt);
      s.starved_per_s = rate(s.starved_ticks, before.starved, dt);
      if (c.snapshots_sent > before.snapshots) {
        s.snapshot_bytes_mean = (c.snapshot_bytes - before.snapshot_bytes) / (c.snapshots_sent - before.snapshots);
      }
    }
    before = Seen{true, c.client_id, now_s, c.bytes_received, c.bytes_sent, c.snapshot_bytes, c.snapshots_sent, s.starved_ticks};
    out.push_back(s);
  }
  return out;
}

}  // namespace tickwire::dashboard
