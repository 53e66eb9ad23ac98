// Gathering and printing the demo's figures.
#include "demo_report.h"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "sample_stats.h"

namespace tickwire::cli {
namespace {

nlohmann::json summary(const SampleStats& s) {
  return {{"mean", s.mean()}, {"p99", s.percentile(0.99)}, {"max", s.max()}};
}

}  // namespace

nlohmann::json build_demo_report(const DemoRunInfo& info, const nlohmann::json& server, const nlohmann::json& clients) {
  SampleStats up_kbps, down_kbps, rtt_ms, snapshot_mean, snapshot_p99, correction_p99, snapshot_hz;
  uint64_t corrections = 0, prediction_snaps = 0;
  double correction_max = 0;
  double snapshot_max = 0;
  uint64_t welcomed = 0, snapshots = 0, fragments = 0, held = 0, snaps = 0, failed = 0, refused_frames = 0, holds = 0;
  for (const auto& c : clients) {
    welcomed += c.value("welcomed", false) ? 1 : 0;
    up_kbps.add(c.value("up_bps", 0.0) / 1000.0);
    down_kbps.add(c.value("down_bps", 0.0) / 1000.0);
    rtt_ms.add(c.value("rtt_ms", 0.0));
    snapshots += c.value("snapshots", uint64_t{0});
    snapshot_hz.add(c.value("snapshot_hz", 0.0));
    fragments += c.value("fragments", uint64_t{0});
    held += c.value("held_frames", uint64_t{0});
    snaps += c.value("snaps", uint64_t{0});
    holds += c.value("holds", uint64_t{0});
    failed += c.value("reliable_failed", false) ? 1 : 0;
    refused_frames += c.value("frame_refused", uint64_t{0});
    corrections += c.value("corrections", uint64_t{0});
    prediction_snaps += c.value("prediction_snaps", uint64_t{0});
    if (c.value("corrections", uint64_t{0}) > 0) correction_p99.add(c.value("correction_p99_m", 0.0));
    correction_max = std::max(correction_max, c.value("correction_max_m", 0.0));
    if (c.contains("snapshot_bytes")) {
      snapshot_mean.add(c["snapshot_bytes"].value("mean", 0.0));
      snapshot_p99.add(c["snapshot_bytes"].value("p99", 0.0));
      snapshot_max = std::max(snapshot_max, c["snapshot_bytes"].value("max", 0.0));
    }
  }
  const uint64_t ticks = server.value("ticks", uint64_t{0});
  const uint64_t starved = server.value("starved_ticks", uint64_t{0});
  const uint64_t fresh = server.value("fresh_ticks", uint64_t{0});
  nlohmann::json r;
  r["run"] = {{"profile", info.profile}, {"bots", info.bots},         {"seconds", info.seconds},
              {"map", info.map},         {"mode", info.mode},         {"logic_hz", info.logic_hz}};
  r["clients"] = {{"connected", welcomed}, {"expected", info.bots}, {"reliable_failures", failed}};
  r["bandwidth_kbps"] = {{"up", summary(up_kbps)}, {"down", summary(down_kbps)}};
  r["snapshot_bytes"] = {{"mean", snapshot_mean.mean()}, {"p99", snapshot_p99.max()}, {"max", snapshot_max}};
  r["snapshots"] = {{"received", snapshots},
                    {"fragments", fragments},
                    {"per_client_hz", summary(snapshot_hz)},
                    {"min_client_hz", clients.empty() ? 0.0 : [&] {
                       double lowest = 1e9;
                       for (const auto& c : clients) lowest = std::min(lowest, c.value("snapshot_hz", 0.0));
                       return lowest;
                     }()}};
  r["rtt_ms"] = summary(rtt_ms);
  r["input_queue"] = {{"depth_min", server.value("depth_min", 0)},
                      {"depth_histogram", server.value("depth_histogram", nlohmann::json::array())},
                      {"starved_ticks", starved},
                      {"starved_percent", starved + fresh == 0 ? 0.0 : 100.0 * static_cast<double>(starved) / static_cast<double>(starved + fresh)},
                      {"awaiting_ticks", server.value("awaiting_ticks", uint64_t{0})}};
  r["corrections"] = {{"count", corrections},
                      {"p99_m", correction_p99.max()},
                      {"max_m", correction_max},
                      {"snaps", prediction_snaps}};
  r["interpolation"] = {{"held_frames", held}, {"snaps", snaps}, {"clock_holds", holds}};
  r["server"] = {{"tick_hz", server.value("hz", 0.0)},
                 {"ticks", ticks},
                 {"declared_ticks", server.value("declared", int64_t{0})},
                 {"tick_cost_us", server.value("tick_cost_us", nlohmann::json::object())},
                 {"snapshot_drops", server.value("snapshot_drops", uint64_t{0})}};
  r["contract_hash"] = server.value("contract_hash", std::string());
  // The game's uses as the server counted them (its game.use.* reasons), when there were any.
  constexpr std::string_view kRefusalPrefix = "game.use.refusal.";
  const nlohmann::json reasons = server.value("reasons", nlohmann::json::object());
  const uint64_t uses_taken = reasons.value("game.use.taken", uint64_t{0});
  nlohmann::json refusals = nlohmann::json::object();
  for (const auto& [name, count] : reasons.items())
    if (name.starts_with(kRefusalPrefix)) refusals[name.substr(kRefusalPrefix.size())] = count;
  if (uses_taken > 0 || !refusals.empty()) r["uses"] = {{"taken", uses_taken}, {"refused", refusals}};
  // The game's shots as the server counted them (its game.shot.* reasons and the room's fire.*), when
  // there were any.
  const uint64_t shots_traced = reasons.value("game.shot.traced", uint64_t{0});
  nlohmann::json shot_refusals = nlohmann::json::object();
  for (const auto& [name, count] : reasons.items())
    if (name.starts_with("game.shot.drop.") || name.starts_with("fire.refusal.")) shot_refusals[name] = count;
  if (shots_traced > 0 || !shot_refusals.empty())
    r["shots"] = {{"traced", shots_traced},
                  {"surface", reasons.value("game.shot.hit.surface", uint64_t{0})},
                  {"water", reasons.value("game.shot.hit.water", uint64_t{0})},
                  {"nothing", reasons.value("game.shot.hit.nothing", uint64_t{0})},
                  {"hit_events_sent", server.value("hits", uint64_t{0})},
                  {"refused", shot_refusals}};
  r["frames_refused"] = refused_frames;
  // The reliable block (tickwire server --block-mb): from its first part to its last at each bot,
  // and the slowest snapshot rate any bot saw meanwhile.
  SampleStats block_s;
  uint64_t block_clients = 0, block_bytes = 0;
  double block_snapshot_hz_lowest = 0;
  for (const auto& c : clients) {
    if (!c.contains("block")) continue;
    const auto& b = c["block"];
    const double hz = b.value("snapshot_hz", 0.0);
    block_snapshot_hz_lowest = block_clients == 0 ? hz : std::min(block_snapshot_hz_lowest, hz);
    ++block_clients;
    block_bytes = std::max(block_bytes, b.value("bytes", uint64_t{0}));
    block_s.add(b.value("last_s", 0.0) - b.value("first_s", 0.0));
  }
  if (block_clients > 0) {
    r["block"] = {{"clients", block_clients}, {"bytes", block_bytes}, {"seconds", summary(block_s)},
                  {"snapshot_hz_lowest", block_snapshot_hz_lowest}};
  }
  return r;
}

std::string demo_report_title(const nlohmann::json& r) {
  const auto& run = r["run"];
  return fmt::format("tickwire demo: {} bots, {:.0f} s, profile {}, map {}", run.value("bots", 0), run.value("seconds", 0.0),
                     run.value("profile", std::string()), run.value("map", std::string()));
}

std::vector<DemoReportRow> demo_report_rows(const nlohmann::json& r) {
  std::vector<DemoReportRow> out;
  auto line = [&out](const std::string& name, const std::string& value) { out.push_back({name, value}); };
  auto mp = [](const nlohmann::json& s, const char* unit) {
    return fmt::format("mean {:.1f} {}, p99 {:.1f} {}, max {:.1f} {}", s.value("mean", 0.0), unit, s.value("p99", 0.0), unit,
                       s.value("max", 0.0), unit);
  };
  line("clients connected", fmt::format("{}/{} (reliable failures {})", r["clients"].value("connected", 0),
                                        r["clients"].value("expected", 0), r["clients"].value("reliable_failures", 0)));
  line("bandwidth up per client", mp(r["bandwidth_kbps"]["up"], "kbit/s"));
  line("bandwidth down per client", mp(r["bandwidth_kbps"]["down"], "kbit/s"));
  line("snapshot bytes", mp(r["snapshot_bytes"], "B"));
  line("snapshots received",
       fmt::format("{} (per client {:.2f}/s mean, {:.2f}/s lowest, since its welcome), fragments {}",
                   r["snapshots"].value("received", 0), r["snapshots"]["per_client_hz"].value("mean", 0.0),
                   r["snapshots"].value("min_client_hz", 0.0), r["snapshots"].value("fragments", 0)));
  line("rtt", mp(r["rtt_ms"], "ms"));
  std::string histogram;
  const int depth_min = r["input_queue"].value("depth_min", 0);
  const auto& h = r["input_queue"]["depth_histogram"];
  uint64_t total = 0;
  for (const auto& v : h) total += v.get<uint64_t>();
  for (std::size_t i = 0; i < h.size(); ++i) {
    const uint64_t v = h[i].get<uint64_t>();
    if (v == 0) continue;
    histogram += fmt::format("{}:{:.1f}% ", depth_min + static_cast<int>(i), total == 0 ? 0.0 : 100.0 * static_cast<double>(v) / static_cast<double>(total));
  }
  line("server input-queue depth", histogram.empty() ? "-" : histogram);
  line("starved ticks", fmt::format("{} ({:.2f}%); {} more awaited a joining client's first input",
                                    r["input_queue"].value("starved_ticks", 0), r["input_queue"].value("starved_percent", 0.0),
                                    r["input_queue"].value("awaiting_ticks", 0)));
  line("corrections", fmt::format("{} (p99 {:.3f} m worst client, max {:.3f} m), prediction snaps {}",
                                  r["corrections"].value("count", 0), r["corrections"].value("p99_m", 0.0),
                                  r["corrections"].value("max_m", 0.0), r["corrections"].value("snaps", 0)));
  line("interpolation", fmt::format("held frames {}, snaps {}, clock holds {}", r["interpolation"].value("held_frames", 0),
                                    r["interpolation"].value("snaps", 0), r["interpolation"].value("clock_holds", 0)));
  const auto& s = r["server"];
  line("server tick rate", fmt::format("{:.2f} Hz ({} ticks, {} declared dropped)", s.value("tick_hz", 0.0),
                                       s.value("ticks", 0), s.value("declared_ticks", 0)));
  line("server tick cost", fmt::format("p50 {:.0f} us, p99 {:.0f} us", s["tick_cost_us"].value("p50", 0.0),
                                       s["tick_cost_us"].value("p99", 0.0)));
  if (r.contains("block")) {
    const auto& b = r["block"];
    line("reliable block", fmt::format("{:.1f} MB to {} clients in {:.2f} s mean, {:.2f} s max; snapshots meanwhile "
                                       "{:.1f}/s lowest",
                                       static_cast<double>(b.value("bytes", uint64_t{0})) / (1024.0 * 1024.0),
                                       b.value("clients", 0), b["seconds"].value("mean", 0.0),
                                       b["seconds"].value("max", 0.0), b.value("snapshot_hz_lowest", 0.0)));
  }
  if (r.contains("uses")) {
    const auto& u = r["uses"];
    uint64_t refused = 0;
    std::string reasons;
    for (const auto& [name, count] : u["refused"].items()) {
      refused += count.get<uint64_t>();
      reasons += fmt::format("{}{} {}", reasons.empty() ? "" : ", ", name, count.get<uint64_t>());
    }
    line("game uses (server)", fmt::format("taken {}, refused {}{}", u.value("taken", uint64_t{0}), refused,
                                           reasons.empty() ? "" : " (" + reasons + ")"));
  }
  if (r.contains("shots")) {
    const auto& sh = r["shots"];
    std::string refused;
    for (const auto& [name, count] : sh["refused"].items())
      refused += fmt::format("{}{} {}", refused.empty() ? "" : ", ", name, count.get<uint64_t>());
    line("game shots (server)",
         fmt::format("traced {}: surface {}, water {}, nothing {}; {} hit events sent{}", sh.value("traced", uint64_t{0}),
                     sh.value("surface", uint64_t{0}), sh.value("water", uint64_t{0}), sh.value("nothing", uint64_t{0}),
                     sh.value("hit_events_sent", uint64_t{0}), refused.empty() ? "" : "; refused " + refused));
  }
  const auto& run = r["run"];
  if (run.value("mode", std::string("snapshot")) != "snapshot") {
    line("runtime mode", fmt::format("{} (bots' logic rates: {})", run.value("mode", std::string()),
                                     run.value("logic_hz", std::string()).empty() ? "the tick rate" : run.value("logic_hz", std::string())));
  }
  line("contract hash", r.value("contract_hash", std::string()));
  return out;
}

std::string format_demo_report(const nlohmann::json& r) {
  std::string out = demo_report_title(r) + "\n";
  for (const DemoReportRow& row : demo_report_rows(r)) out += fmt::format("  {:<34} {}\n", row.name, row.value);
  return out;
}

}  // namespace tickwire::cli
