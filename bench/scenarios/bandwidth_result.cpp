// Rendering a scenario's figures: JSON for machines, an aligned table for people.
#include "bandwidth_result.h"

#include <algorithm>

#include <fmt/format.h>

namespace tickwire::bench {
namespace {

nlohmann::json summary_json(const Summary& s) { return {{"mean", s.mean}, {"p99", s.p99}, {"max", s.max}}; }

std::string summary_text(const Summary& s, const char* unit) {
  return fmt::format("mean {:.1f} {}, p99 {:.0f} {}, max {:.0f} {}", s.mean, unit, s.p99, unit, s.max, unit);
}

}  // namespace

nlohmann::json to_json(const BandwidthResult& r) {
  nlohmann::json j;
  j["scenario"] = r.scenario;
  j["tick_hz"] = r.tick_hz;
  j["ticks"] = r.ticks;
  j["entities"] = r.entities;
  j["seed"] = r.seed;
  j["snapshot_message_bytes"] = summary_json(r.message_bytes);
  j["wire_bytes_per_tick"] = summary_json(r.wire_bytes);
  j["kbps"] = {{"message", r.message_kbps}, {"wire", r.wire_kbps}};
  j["packets"] = r.packets;
  j["entity_updates"] = {{"moving", r.moving_updates},
                         {"resting", r.resting_updates},
                         {"bits_per_moving", r.bits_per_moving_update},
                         {"bits_per_resting", r.bits_per_resting_update},
                         {"bits_per_update", r.bits_per_update},
                         {"wire_bytes_per_update", r.wire_bytes_per_update}};
  const DeltaBodyStats& t = r.body_totals;
  j["body_bits"] = {{"header", t.header_bits}, {"entity", t.entity_bits}, {"object", t.object_bits},
                    {"removal", t.removal_bits}, {"skip", t.skip_bits}, {"changed", t.changed},
                    {"added", t.added}, {"unchanged", t.unchanged}, {"removed", t.removed}};
  j["references"] = {{"snapshot", r.ticks_vs_snapshot}, {"rest", r.ticks_vs_rest}, {"nothing", r.ticks_vs_nothing},
                     {"with_prediction", r.ticks_with_prediction}, {"mean_baseline_age_ticks", r.mean_baseline_age_ticks}};
  j["client"] = {{"delivered", r.delivered}, {"lost", r.lost}, {"decode_errors", r.decode_errors},
                 {"mismatches", r.mismatches}, {"encode_errors", r.encode_errors}};
  const PrecisionTally& p = r.precision;
  j["precision"] = {{"ok", p.failures == 0}, {"values_checked", p.values_checked}, {"failures", p.failures},
                    {"first_failure", p.first_failure}, {"max_position_error_quanta", p.max_position_error_quanta},
                    {"max_angle_error_rad", p.max_angle_error_rad}, {"angle_bound_rad", p.angle_bound_rad}};
  nlohmann::json extras = nlohmann::json::object();
  for (const ExtraFigure& e : r.extras) extras[e.name] = e.mean();
  j["extras"] = extras;
  nlohmann::json goals = nlohmann::json::array();
  for (const Goal& g : r.goals) goals.push_back({{"name", g.name}, {"value", g.value}, {"limit", g.limit}, {"met", g.met()}});
  j["goals"] = goals;
  j["correct"] = r.correct();
  return j;
}

std::string format_table(const BandwidthResult& r) {
  std::string out;
  auto line = [&out](const std::string& name, const std::string& value) { out += fmt::format("  {:<30} {}\n", name, value); };
  out += fmt::format("bench {}: {} ticks at {} Hz, {} entities, seed {}\n", r.scenario, r.ticks, r.tick_hz, r.entities, r.seed);
  line("snapshot message bytes", summary_text(r.message_bytes, "B"));
  line("wire bytes per tick", summary_text(r.wire_bytes, "B") + fmt::format(" ({} packets)", r.packets));
  line("bandwidth", fmt::format("{:.1f} kbit/s message, {:.1f} kbit/s wire", r.message_kbps, r.wire_kbps));
  line("entity-updates", fmt::format("{} moving, {} resting", r.moving_updates, r.resting_updates));
  line("bits per moving update", fmt::format("{:.2f}", r.bits_per_moving_update));
  line("bits per resting update", fmt::format("{:.3f}", r.bits_per_resting_update));
  line("per update, all in", fmt::format("{:.2f} bits message, {:.2f} B wire", r.bits_per_update, r.wire_bytes_per_update));
  const DeltaBodyStats& t = r.body_totals;
  line("body bits", fmt::format("header {}, entity {}, object {}, skip {}, removal {}", t.header_bits, t.entity_bits,
                                t.object_bits, t.skip_bits, t.removal_bits));
  line("references", fmt::format("snapshot {} (mean age {:.1f} ticks, predicted {}), rest {}, nothing {}",
                                 r.ticks_vs_snapshot, r.mean_baseline_age_ticks, r.ticks_with_prediction, r.ticks_vs_rest,
                                 r.ticks_vs_nothing));
  line("client", fmt::format("delivered {}, lost {}, decode errors {}, mismatches {}, encode errors {}", r.delivered,
                             r.lost, r.decode_errors, r.mismatches, r.encode_errors));
  const PrecisionTally& p = r.precision;
  std::string precision = fmt::format("{} ({} values; max position error {:.3f} quanta", p.failures == 0 ? "ok" : "FAILED",
                                      p.values_checked, p.max_position_error_quanta);
  if (p.angle_bound_rad > 0) precision += fmt::format(", max angle {:.6f} rad of {:.6f}", p.max_angle_error_rad, p.angle_bound_rad);
  precision += ")";
  if (p.failures != 0) precision += fmt::format("; {} failures, first: {}", p.failures, p.first_failure);
  line("precision", precision);
  for (const ExtraFigure& e : r.extras) line(e.name, fmt::format("{:.1f}", e.mean()));
  for (const Goal& g : r.goals) {
    line("goal: " + g.name, fmt::format("{:.2f} (goal <= {:g}) {}", g.value, g.limit, g.met() ? "met" : "NOT MET"));
  }
  return out;
}

}  // namespace tickwire::bench
