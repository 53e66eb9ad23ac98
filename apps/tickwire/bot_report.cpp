// A bot's figures as JSON (bot_report.h): its line in the final report, and the tallies of its
// `use` and `fire` behaviours.
#include "bot_report.h"

#include <optional>
#include <string>

#include "tickwire/client/game_client.h"
#include "tickwire/world/voxel_live.h"

namespace tickwire::cli {

nlohmann::json fire_json(const world::BotFireTally& t) {
  return {{"shots", t.shots},
          {"nothing", t.hits_by_kind[0]},
          {"surface", t.hits_by_kind[1]},
          {"water", t.hits_by_kind[2]},
          {"pawn_hits", t.pawn_hits}};
}

nlohmann::json uses_json(const world::BotUseTally& uses) {
  nlohmann::json refused = nlohmann::json::object();
  visit_nonzero(uses.refused, [&](world::UseRefusal reason, uint64_t count) { refused[std::string(reason_name(reason))] = count; });
  return {{"taken", uses.taken}, {"unhandled", uses.unhandled}, {"refused", refused}};
}

nlohmann::json bot_line(const Bot& bot, uint64_t id, double elapsed_s) {
  if (!bot.client) return {{"id", id}, {"welcomed", false}, {"status", "unseated"}};  // never given a seat
  const GameClient& c = bot.client->game();
  const ClientStats stats = bot.client->stats();
  const ClientStatus status = bot.client->status();
  nlohmann::json j;
  j["id"] = id;
  j["welcomed"] = stats.welcomed;
  j["refused"] = status.phase == ClientPhase::refused;
  j["status"] = status.reason;
  j["rtt_ms"] = stats.rtt_ms;
  j["bytes_up"] = stats.bytes_sent;
  j["bytes_down"] = stats.bytes_received;
  j["up_bps"] = elapsed_s > 0 ? static_cast<double>(stats.bytes_sent) * 8 / elapsed_s : 0.0;
  j["down_bps"] = elapsed_s > 0 ? static_cast<double>(stats.bytes_received) * 8 / elapsed_s : 0.0;
  nlohmann::json reasons = nlohmann::json::object();
  for (const ReasonCount& r : stats.reasons) reasons[r.name] = r.count;
  j["reasons"] = reasons;
  j["reliable_failed"] = stats.link_failed;
  j["snapshots"] = stats.snapshots;
  j["welcomed_at_s"] = bot.welcomed_at_s.value_or(elapsed_s);
  j["snapshot_hz"] = bot.welcomed_at_s && elapsed_s > *bot.welcomed_at_s
                         ? static_cast<double>(c.counters().snapshots) / (elapsed_s - *bot.welcomed_at_s)
                         : 0.0;
  j["snapshot_bytes"] = {{"mean", bot.snapshot_bytes.mean()},
                         {"p99", bot.snapshot_bytes.percentile(0.99)},
                         {"max", bot.snapshot_bytes.max()}};
  j["fragments"] = stats.fragments;
  j["inputs_sent"] = stats.inputs_sent;
  j["own_pawn_predicted"] = stats.own_pawn_predicted;  // what the room's contract admits
  j["predicted_ticks"] = stats.predicted_ticks;
  j["claims_accepted"] = stats.claims_accepted;  // ClaimAccepted telemetry
  j["claims_corrected"] = stats.claims_corrected;
  j["frame_refused"] = reasons.value("session.drop.frame_refused", uint64_t{0});
  if (bot.brain.behaviour() == world::BotBehaviour::use) j["uses"] = uses_json(bot.brain.uses());
  if (bot.brain.behaviour() == world::BotBehaviour::fire) j["fire"] = fire_json(bot.brain.gunner().tally());
  if (const world::VoxelLive& voxels = bot.world->live(); voxels.chunks_taken() > 0 || voxels.refusals().total() > 0) {
    nlohmann::json refused = nlohmann::json::object();  // voxelCells messages it would not lay over, by reason
    visit_nonzero(voxels.refusals(), [&](world::VoxelCellsRefusal reason, uint64_t count) { refused[std::string(reason_name(reason))] = count; });
    j["voxel"] = {{"chunks", voxels.chunks_taken()}, {"written_chunks", voxels.cells().chunks().size()}, {"refused", refused}};
  }
  if (bot.block_bytes > 0) {
    const double span_s = bot.block_last_s - bot.block_first_s;
    j["block"] = {{"bytes", bot.block_bytes},
                  {"first_s", bot.block_first_s},
                  {"last_s", bot.block_last_s},
                  {"snapshot_hz", span_s > 0 ? static_cast<double>(bot.snapshots_at_block_last - bot.snapshots_at_block_first) / span_s : 0.0}};
  }
  if (const auto* r = c.regulator()) {
    j["rate"] = r->rate();
    j["holds"] = r->counters().holds;
    j["overlay_buf"] = r->last_depth() ? *r->last_depth() : 0;
  }
  if (const auto* p = c.predictor()) {
    j["corrections"] = p->stats().corrections;
    j["correction_p99_m"] = p->stats().correction_m.quantile_m(0.99);
    j["correction_max_m"] = p->stats().correction_m.max_m();
    j["prediction_snaps"] = p->stats().snaps.total();
  }
  if (const auto* i = c.interpolator()) {
    j["held_frames"] = i->counters().held_frames;
    j["snaps"] = i->counters().snaps;
    j["interp"] = i->overlay_line();
  }
  return j;
}

std::optional<nlohmann::json> series_row(const Bot& bot, uint64_t id) {
  if (!bot.client) return std::nullopt;
  const ClientStats stats = bot.client->stats();
  const ClockRegulator* regulator = bot.client->game().regulator();
  const std::optional<double> depth = regulator != nullptr ? regulator->smoothed_depth_ticks() : std::nullopt;
  return nlohmann::json{id, stats.bytes_sent, stats.bytes_received, stats.rtt_ms,
                        depth ? nlohmann::json(*depth) : nlohmann::json(nullptr), stats.corrections, stats.held_frames};
}

nlohmann::json series_line_of(std::vector<nlohmann::json> rows, double at_s) {
  return {{"type", "bots_series"},
          {"t", at_s},
          {"fields", {"id", "bytes_up", "bytes_down", "rtt_ms", "depth_ticks", "corrections", "held_frames"}},
          {"clients", nlohmann::json(std::move(rows))}};
}

}  // namespace tickwire::cli
