// The room bench's report: a table per transport and N, the capacity line, and the same as JSON.
#include <fmt/format.h>

#include "room_bench.h"

namespace tickwire::bench {

nlohmann::json room_bench_json(const RoomBenchResult& result) {
  nlohmann::json runs = nlohmann::json::array();
  for (const RoomBenchRun& r : result.runs) {
    runs.push_back({{"transport", room_bench_transport_name(r.transport)},
                    {"clients", r.clients},
                    {"joined", r.joined},
                    {"join_ms", {{"total", r.join_ms_total}, {"max", r.join_ms_max}}},
                    {"ticks", r.ticks},
                    {"server_ms", {{"mean", r.server_ms.mean}, {"p99", r.server_ms.p99}, {"max", r.server_ms.max}}},
                    {"us_per_client_tick", r.us_per_client_tick},
                    {"clients_ms_mean", r.clients_ms_mean},
                    {"snapshot_bytes_mean", r.snapshot_bytes_mean},
                    {"records_mean", r.records_mean},
                    {"snapshots_per_client_s", r.snapshots_per_client_s},
                    {"client_drops", r.client_drops},
                    {"held", r.held()},
                    {"correct", r.correct()}});
  }
  nlohmann::json capacity = nlohmann::json::array();
  for (const auto& c : result.capacity()) {
    capacity.push_back({{"transport", room_bench_transport_name(c.transport)},
                        {"largest_held", c.largest_held},
                        {"projected_one_core", c.projected}});
  }
  return {{"scenario", "room"},
          {"tick_hz", result.request.tick_hz},
          {"ticks", result.request.ticks},
          {"spacing_m", result.request.spacing_m},
          {"seed", result.request.seed},
          {"runs", runs},
          {"capacity", capacity},
          {"correct", result.correct()}};
}

std::string room_bench_table(const RoomBenchResult& result) {
  const RoomBenchRequest& q = result.request;
  std::string out = fmt::format(
      "room, full stack: {} Hz, {} ticks measured, one player per {:.0f} m x {:.0f} m, seed {}\n"
      "server CPU per tick is its update alone (receive, tick, snapshots, send) on one thread\n\n",
      q.tick_hz, q.ticks, q.spacing_m, q.spacing_m, q.seed);
  out += fmt::format("{:<9} {:>7} {:>6} {:>10} {:>10} {:>10} {:>11} {:>10} {:>8} {:>8} {:>6} {:>5}\n", "transport",
                     "clients", "joined", "mean ms", "p99 ms", "max ms", "us/client", "snap B", "records",
                     "snaps/s", "drops", "held");
  for (const RoomBenchRun& r : result.runs) {
    out += fmt::format("{:<9} {:>7} {:>6} {:>10.3f} {:>10.3f} {:>10.3f} {:>11.2f} {:>10.1f} {:>8.1f} {:>8.1f} {:>6} {:>5}\n",
                       room_bench_transport_name(r.transport), r.clients, r.joined, r.server_ms.mean, r.server_ms.p99,
                       r.server_ms.max, r.us_per_client_tick, r.snapshot_bytes_mean, r.records_mean,
                       r.snapshots_per_client_s, r.client_drops, r.held() ? "yes" : "NO");
  }
  out += "\n";
  for (const auto& c : result.capacity()) {
    out += fmt::format("{}: largest N held at {} Hz (p99 <= one tick): {}; one core at that cost per client: {:.0f} clients\n",
                       room_bench_transport_name(c.transport), q.tick_hz, c.largest_held, c.projected);
  }
  out += "\nevery client connecting at once, the server's CPU until all were in:\n";
  for (const RoomBenchRun& r : result.runs) {
    out += fmt::format("  {} {:>4} clients: {:8.1f} ms, {:.3f} ms per join, longest update {:.2f} ms\n",
                       room_bench_transport_name(r.transport), r.clients, r.join_ms_total,
                       r.clients == 0 ? 0.0 : r.join_ms_total / r.clients, r.join_ms_max);
  }
  if (!result.correct()) out += "INCORRECT: a client did not join, dropped a message or missed snapshots\n";
  return out;
}

}  // namespace tickwire::bench
