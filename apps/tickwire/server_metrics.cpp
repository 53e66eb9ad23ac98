// The server's Prometheus exposition (server_metrics.h). Families are stated in tables (name, help,
// the figure they read) so that adding a figure to the stats is one row here.
#include "server_metrics.h"

#include <array>
#include <vector>

#include <fmt/format.h>

#include "durable_server.h"
#include "tickwire/fleet/prometheus_text.h"

namespace tickwire::cli {
namespace {

using fleet::MetricType;
using fleet::PrometheusText;

struct ServerFigure {
  const char* name;
  MetricType type;
  const char* help;
  uint64_t ServerStats::*field;
};
constexpr ServerFigure kServerFigures[] = {
    {"tickwire_sessions_admitted_total", MetricType::counter, "Sessions admitted since start.", &ServerStats::sessions_admitted},
    {"tickwire_ticks_executed_total", MetricType::counter, "Simulation ticks run.", &ServerStats::ticks_executed},
    {"tickwire_ticks_declared_total", MetricType::counter, "Ticks the room clock declared dropped (overload).",
     &ServerStats::ticks_declared},
    {"tickwire_snapshots_sent_total", MetricType::counter, "Snapshots sent.", &ServerStats::snapshots_sent},
    {"tickwire_sent_bytes_total", MetricType::counter, "Bytes sent on the game socket.", &ServerStats::bytes_sent},
    {"tickwire_received_bytes_total", MetricType::counter, "Bytes received on the game socket.", &ServerStats::bytes_received},
    {"tickwire_relayed_total", MetricType::counter, "Addressed messages relayed between clients.", &ServerStats::relayed},
    {"tickwire_fires_total", MetricType::counter, "Shots handed to the game.", &ServerStats::fires},
    {"tickwire_hits_sent_total", MetricType::counter, "Hit events sent, once per receiving session.", &ServerStats::hits_sent},
    {"tickwire_edits_total", MetricType::counter, "Scene edit gestures handed to the game.", &ServerStats::edits},
    {"tickwire_scene_states_sent_total", MetricType::counter, "Scene node states sent.", &ServerStats::scene_states_sent},
    {"tickwire_resumes_total", MetricType::counter, "Players back in the pawn their resume token named.", &ServerStats::resumes},
    {"tickwire_superseded_total", MetricType::counter, "Old connections dropped for a resumed one.", &ServerStats::superseded},
    {"tickwire_held_pawns", MetricType::gauge, "Pawns held now for players who left.", &ServerStats::held_pawns},
    {"tickwire_holds_expired_total", MetricType::counter, "Pawn holds that ran out.", &ServerStats::holds_expired},
    {"tickwire_world_frames", MetricType::gauge, "Shared world frames allocated (each one tick's states).",
     &ServerStats::world_frames},
    {"tickwire_frame_states_copied_total", MetricType::counter, "States sent frames kept as their own copies, not shared.",
     &ServerStats::frame_states_copied},
};

struct ClientFigure {
  const char* name;
  MetricType type;
  const char* help;
  double (*read)(const ClientLink&);
};
constexpr ClientFigure kClientFigures[] = {
    {"tickwire_client_admitted", MetricType::gauge, "1 when the connection's session is admitted.",
     [](const ClientLink& c) { return c.admitted ? 1.0 : 0.0; }},
    {"tickwire_client_rtt_ms", MetricType::gauge, "Round-trip time the reliability layer measures.",
     [](const ClientLink& c) { return c.rtt_ms; }},
    {"tickwire_client_packet_loss_ratio", MetricType::gauge, "Packet loss the reliability layer measures (0..1).",
     [](const ClientLink& c) { return c.packet_loss; }},
    {"tickwire_client_queue_depth", MetricType::gauge, "Inputs waiting in the queue (negative: the starved run).",
     [](const ClientLink& c) { return static_cast<double>(c.queue_depth); }},
};

struct ClientCounter {
  const char* name;
  const char* help;
  uint64_t ClientLink::*field;
};
constexpr ClientCounter kClientCounters[] = {
    {"tickwire_client_sent_bytes_total", "Bytes sent to the client.", &ClientLink::bytes_sent},
    {"tickwire_client_received_bytes_total", "Bytes received from the client.", &ClientLink::bytes_received},
    {"tickwire_client_inputs_received_total", "Inputs received.", &ClientLink::inputs_received},
    {"tickwire_client_fresh_ticks_total", "Ticks run on a fresh input.", &ClientLink::fresh_ticks},
    {"tickwire_client_repeated_ticks_total", "Ticks run on a repeated input (starved).", &ClientLink::repeated_ticks},
    {"tickwire_client_zeroed_ticks_total", "Ticks run on a zeroed input (starved).", &ClientLink::zeroed_ticks},
    {"tickwire_client_awaiting_ticks_total", "Ticks run before the client's first input arrived (its join).",
     &ClientLink::awaiting_ticks},
    {"tickwire_client_snapshots_sent_total", "Snapshots sent.", &ClientLink::snapshots_sent},
    {"tickwire_client_snapshot_bytes_total", "Snapshot bytes sent.", &ClientLink::snapshot_bytes},
    {"tickwire_client_delta_snapshots_total", "Snapshots delta coded against a held frame.", &ClientLink::delta_snapshots},
};

constexpr std::array<const char*, 4> kReasonFamilies = {"tickwire_refusals_total", "tickwire_drops_total", "tickwire_kicks_total",
                                                        "tickwire_reasons_total"};
constexpr std::array<const char*, 4> kReasonHelps = {
    "Refusals and rejections counted by reason.", "Drops counted by reason.", "Kicks counted by reason.",
    "Other counted events (link, offences, decode errors, rewinds, notes, contract facts, the game's) by reason."};

void write_lifecycle(PrometheusText& out, const fleet::Lifecycle& lifecycle) {
  out.family("tickwire_lifecycle_state", MetricType::gauge, "1 for the state the process is in, 0 for the others.");
  for (std::size_t i = 0; i < fleet::kLifecycleStates; ++i) {
    const auto state = static_cast<fleet::LifecycleState>(i);
    out.sample({{"state", reason_name(state)}}, lifecycle.state() == state ? 1.0 : 0.0);
  }
  out.family("tickwire_lifecycle_transitions_total", MetricType::counter, "Times each state was entered.");
  for (std::size_t i = 0; i < fleet::kLifecycleStates; ++i) {
    const auto state = static_cast<fleet::LifecycleState>(i);
    out.sample({{"state", reason_name(state)}}, lifecycle.entries(state));
  }
}

void write_reasons(PrometheusText& out, const std::vector<ReasonCount>& reasons) {
  for (std::size_t f = 0; f < kReasonFamilies.size(); ++f) {
    out.family(kReasonFamilies[f], MetricType::counter, kReasonHelps[f]);
    for (const ReasonCount& r : reasons) {
      if (reason_family(r.name) == kReasonFamilies[f]) out.sample({{"reason", r.name}}, r.count);
    }
  }
}

void write_clients(PrometheusText& out, const std::vector<ClientLink>& clients) {
  std::vector<std::pair<std::string, std::string>> ids;  // owner, client id: each link's labels
  for (const ClientLink& c : clients) ids.emplace_back(fmt::format("{}", c.owner), fmt::format("{}", c.client_id));
  for (const ClientFigure& figure : kClientFigures) {
    out.family(figure.name, figure.type, figure.help);
    for (std::size_t i = 0; i < clients.size(); ++i) {
      out.sample({{"owner", ids[i].first}, {"client_id", ids[i].second}}, figure.read(clients[i]));
    }
  }
  for (const ClientCounter& counter : kClientCounters) {
    out.family(counter.name, MetricType::counter, counter.help);
    for (std::size_t i = 0; i < clients.size(); ++i) {
      out.sample({{"owner", ids[i].first}, {"client_id", ids[i].second}}, clients[i].*counter.field);
    }
  }
  out.family("tickwire_client_reasons_total", MetricType::counter, "A client's drops, holds and refusals by reason.");
  for (std::size_t i = 0; i < clients.size(); ++i) {
    for (const ReasonCount& r : clients[i].reasons) {
      out.sample({{"owner", ids[i].first}, {"client_id", ids[i].second}, {"reason", r.name}}, r.count);
    }
  }
}

void write_server(PrometheusText& out, const Server& server, const ServerMetricsSources& sources) {
  const ServerStats s = server.stats();
  out.family("tickwire_clients", MetricType::gauge, "Admitted sessions now.");
  out.sample({}, uint64_t{s.clients});
  out.family("tickwire_client_slots", MetricType::gauge, "Client slots the server was started with.");
  out.sample({}, uint64_t{sources.client_slots});
  out.family("tickwire_tick_rate_hz", MetricType::gauge, "The paced loop's measured tick rate.");
  out.sample({}, s.tick_rate_hz);
  out.family("tickwire_tick_rate_target_hz", MetricType::gauge, "The tick rate the room runs at when it keeps up.");
  out.sample({}, uint64_t{sources.target_tick_hz});
  if (sources.tick_cost != nullptr) {
    out.family("tickwire_tick_duration_seconds", MetricType::histogram,
               "The loop's work per tick (receive, simulate, replicate, send), in seconds.");
    out.histogram(*sources.tick_cost);
  }
  out.family("tickwire_sleep_factor", MetricType::gauge, "How far the host's sleeps overshoot (1: exact).");
  out.sample({}, s.sleep_factor);
  out.family("tickwire_last_tick", MetricType::gauge, "The newest tick simulated.");
  out.sample({}, static_cast<double>(s.last_tick));
  for (const ServerFigure& figure : kServerFigures) {
    out.family(figure.name, figure.type, figure.help);
    out.sample({}, s.*figure.field);
  }
  write_reasons(out, s.reasons);
  write_clients(out, server.clients());
}

}  // namespace

std::string_view reason_family(std::string_view reason) {
  const auto has = [&](std::string_view part) { return fmt::format(".{}.", reason).find(fmt::format(".{}.", part)) != std::string::npos; };
  if (has("reject") || has("refusal")) return kReasonFamilies[0];
  if (has("drop")) return kReasonFamilies[1];
  if (has("kick")) return kReasonFamilies[2];
  return kReasonFamilies[3];
}

std::string render_server_metrics(const ServerMetricsSources& sources) {
  PrometheusText out;
  write_lifecycle(out, sources.lifecycle);
  if (sources.server != nullptr) write_server(out, *sources.server, sources);
  if (sources.kept != nullptr) sources.kept->write_metrics(out);
  out.family("tickwire_metrics_refused", MetricType::gauge, "Families and samples this exposition left out (a bug if not 0).");
  out.sample({}, out.refused());
  return out.take();
}

}  // namespace tickwire::cli
