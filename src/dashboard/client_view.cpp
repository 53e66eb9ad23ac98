// ClientView (dashboard/client_view.h): written with fmt into one buffer like the room line, at the
// precision a correction needs (millimetres: a reconcile's residue is centimetres or less). Each
// client lists its nearest remote entities only, so a line stays bounded with 255 bots in a process.
#include "tickwire/dashboard/client_view.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "json_number.h"
#include "tickwire/protocol/canonical_json.h"

namespace tickwire::dashboard {
namespace {

const char* phase_name(ClientPhase phase) {
  switch (phase) {
    case ClientPhase::connecting: return "connecting";
    case ClientPhase::playing: return "playing";
    case ClientPhase::refused: return "refused";
    case ClientPhase::disconnected: return "disconnected";
  }
  return "unknown";
}

// "x":X,"y":Y,"z":Z at millimetres.
void xyz(Out& out, const protocol::Vec3& p) {
  fmt::format_to(std::back_inserter(out), "\"x\":");
  num(out, p.x, 3);
  field(out, "y", p.y, 3);
  field(out, "z", p.z, 3);
}

double distance_m(const protocol::Vec3& a, const protocol::Vec3& b) {
  const double dx = double{a.x} - b.x, dy = double{a.y} - b.y, dz = double{a.z} - b.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

void answer_part(Out& out, const ClientLook& c) {
  auto it = std::back_inserter(out);
  if (!c.answer) {
    fmt::format_to(it, "\"answer\":null,\"ghost_m\":null");
    return;
  }
  fmt::format_to(it, "\"answer\":{{\"tick\":{},", c.answer->tick);
  xyz(out, c.answer->position_m);
  field(out, "correction_m", c.answer->correction_m, 4);
  field(out, "easing_m", c.answer->easing_m, 4);
  fmt::format_to(it, "}},\"ghost_m\":");
  num(out, distance_m(c.own_m, c.answer->position_m), 4);
}

void figures_part(Out& out, const ClientLook& c) {
  auto it = std::back_inserter(out);
  fmt::format_to(it, "\"clock\":{{\"rate\":");
  num(out, c.clock_rate, 5);
  field(out, "margin_ticks", c.clock_margin_ticks, 3);
  fmt::format_to(it, ",\"holds\":{}}},\"counters\":{{\"held_frames\":{},\"render_snaps\":{},\"prediction_snaps\":{},"
                 "\"corrections\":{},\"snapshots\":{}}},\"rtt_ms\":",
                 c.clock_holds, c.held_frames, c.render_snaps, c.prediction_snaps, c.corrections, c.snapshots);
  num(out, c.rtt_ms, 1);
}

}  // namespace

void look_at(const Client& client, uint64_t id, ClientLook& look) {
  look.id = id;
  look.owner = client.owner();
  look.phase = client.status().phase;
  const ClientStats stats = client.stats();
  look.predicted = stats.own_pawn_predicted;
  look.own_m = client.own_position();
  look.answer = client.own_pawn_answer();
  look.remotes.assign(client.remote_entities().begin(), client.remote_entities().end());
  look.newest_tick = client.newest_remote_entities(look.newest);
  look.rtt_ms = stats.rtt_ms;
  look.clock_rate = stats.clock_rate;
  look.clock_margin_ticks = stats.clock_margin_ticks;
  look.clock_holds = stats.clock_holds;
  look.held_frames = stats.held_frames;
  look.render_snaps = stats.render_snaps;
  look.prediction_snaps = stats.prediction_snaps;
  look.corrections = stats.corrections;
  look.snapshots = stats.snapshots;
}

std::string ClientView::render(double now_s, std::span<const ClientLook> looks) {
  Out out;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "{{\"type\":\"bots\",\"time_s\":");
  num(out, now_s, 3);
  fmt::format_to(it, ",\"clients\":[");
  for (std::size_t k = 0; k < looks.size(); ++k) {
    const ClientLook& c = looks[k];
    fmt::format_to(it, "{}{{\"id\":{},\"owner\":{},\"phase\":\"{}\",\"predicted\":{},\"own\":{{", k == 0 ? "" : ",", c.id, c.owner,
                   phase_name(c.phase), c.predicted);
    xyz(out, c.own_m);
    fmt::format_to(it, "}},");
    answer_part(out, c);
    fmt::format_to(it, ",");
    figures_part(out, c);
    // The nearest remotes to the own pawn, and the same entities in the newest snapshot.
    order_.resize(c.remotes.size());
    for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = i;
    const std::size_t shown = std::min(order_.size(), kMaxRemotesPerClient);
    std::partial_sort(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(shown), order_.end(),
                      [&](std::size_t a, std::size_t b) {
                        return distance_m(c.remotes[a].position_m, c.own_m) < distance_m(c.remotes[b].position_m, c.own_m);
                      });
    fmt::format_to(it, ",\"remote_count\":{},\"newest_tick\":", c.remotes.size());
    if (c.newest_tick) fmt::format_to(it, "{}", *c.newest_tick);
    else fmt::format_to(it, "null");
    fmt::format_to(it, ",\"remotes\":[");
    for (std::size_t i = 0; i < shown; ++i) {
      const DrawnEntity& e = c.remotes[order_[i]];
      const KindDef* kind = vocabulary_.find_kind(e.kind);
      fmt::format_to(it, "{}{{\"id\":{},\"kind\":{},", i == 0 ? "" : ",", e.entity_id,
                     canonical_json_string(kind != nullptr ? kind->name : fmt::format("kind{}", e.kind)));
      xyz(out, e.position_m);
      fmt::format_to(it, ",\"extrapolated\":{}}}", e.extrapolated);
    }
    fmt::format_to(it, "],\"newest\":[");
    bool first = true;
    for (const DrawnEntity& e : c.newest) {
      const bool listed = std::any_of(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(shown),
                                      [&](std::size_t i) { return c.remotes[i].entity_id == e.entity_id; });
      if (!listed) continue;
      fmt::format_to(it, "{}{{\"id\":{},", first ? "" : ",", e.entity_id);
      xyz(out, e.position_m);
      fmt::format_to(it, "}}");
      first = false;
    }
    fmt::format_to(it, "]}}");
  }
  fmt::format_to(it, "]}}");
  return fmt::to_string(out);
}

}  // namespace tickwire::dashboard
