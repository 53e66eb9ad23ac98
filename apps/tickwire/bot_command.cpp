// `tickwire bot`: N headless players in one process, each a full client (its own UDP socket and
// connect token, the session, clock regulation, interpolation), driven by a scripted behaviour.
// One JSON stats line per interval and a final one with per-client figures (what the demo reads).
#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "sample_stats.h"
#include "tickwire/client/game_client.h"
#include "tickwire/clock/system_clock.h"
#include "tickwire/clock/system_host_timer.h"
#include "tickwire/protocol/wire_messages.h"
#include "tickwire/transport/connect_token.h"
#include "tickwire/transport/key_file.h"
#include "tickwire/transport/udp_socket.h"
#include "tickwire/world/bot_brain.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/mover_prediction_model.h"
#include "tickwire/world/reference_map.h"

namespace tickwire::cli {
namespace {

volatile std::sig_atomic_t g_stop = 0;
void request_stop(int) { g_stop = 1; }

struct BotOptions {
  std::string server;
  uint32_t count = 1;
  std::string key_path;
  std::string behaviour = "wander";
  std::string map_path;  // the map the server runs (the bots predict against its boxes)
  double seconds = 30;
  double frame_hz = 100;
  uint64_t first_client_id = 1000;
  uint64_t seed = 1;
  double stats_interval_s = 1.0;
};

struct Bot {
  std::unique_ptr<UdpSocket> socket;
  std::unique_ptr<NetcodeClient> netcode;
  std::unique_ptr<ReliableClient> reliable;
  std::unique_ptr<GameClient> client;
  world::BotBrain brain;
  SampleStats snapshot_bytes;
  std::optional<double> welcomed_at_s;  // when the welcome arrived (the snapshot rate counts from it)
};

nlohmann::json bot_line(const Bot& bot, uint64_t id, double elapsed_s) {
  const GameClient& c = *bot.client;
  nlohmann::json j;
  j["id"] = id;
  j["welcomed"] = c.session().welcomed();
  j["refused"] = c.session().refused();
  const ReliableEndpoint* endpoint = bot.reliable->endpoint();
  const ConnectionStats stats = endpoint != nullptr ? endpoint->stats() : ConnectionStats{};
  j["rtt_ms"] = stats.rtt_ms;
  j["bytes_up"] = stats.bytes_sent;
  j["bytes_down"] = stats.bytes_received;
  j["up_bps"] = elapsed_s > 0 ? static_cast<double>(stats.bytes_sent) * 8 / elapsed_s : 0.0;
  j["down_bps"] = elapsed_s > 0 ? static_cast<double>(stats.bytes_received) * 8 / elapsed_s : 0.0;
  j["reliable_failed"] = stats.failed;
  j["snapshots"] = c.counters().snapshots;
  j["welcomed_at_s"] = bot.welcomed_at_s.value_or(elapsed_s);
  j["snapshot_hz"] = bot.welcomed_at_s && elapsed_s > *bot.welcomed_at_s
                         ? static_cast<double>(c.counters().snapshots) / (elapsed_s - *bot.welcomed_at_s)
                         : 0.0;
  j["snapshot_bytes"] = {{"mean", bot.snapshot_bytes.mean()},
                         {"p99", bot.snapshot_bytes.percentile(0.99)},
                         {"max", bot.snapshot_bytes.max()}};
  j["fragments"] = c.session().fragments_received();
  j["inputs_sent"] = c.counters().inputs_sent;
  j["claims_accepted"] = c.counters().claims_accepted;    // ClaimAccepted telemetry
  j["claims_corrected"] = c.counters().claims_corrected;
  j["frame_refused"] = c.session().drops()[ClientDrop::frame_refused];
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

int run_bots(const BotOptions& o) {
  std::signal(SIGINT, request_stop);
  std::signal(SIGTERM, request_stop);
  std::string error;
  const auto key = netcode::load_server_private_key(o.key_path, error);
  if (!key) {
    std::fprintf(stderr, "tickwire bot: %s\n", error.c_str());
    return 2;
  }
  const auto server = Address::parse(o.server);
  const auto behaviour = world::parse_bot_behaviour(o.behaviour);
  if (!server || server->port() == 0 || !behaviour) {
    std::fprintf(stderr, "tickwire bot: %s\n", !behaviour ? "--behaviour must be walk, wander, idle or jumpy"
                                                           : "--server must be a numeric HOST:PORT");
    return 2;
  }
  auto loaded = o.map_path.empty() ? world::load_map(world::reference_map_text()) : world::load_map_file(o.map_path);
  if (!loaded) {
    std::fprintf(stderr, "tickwire bot: map: %s\n", loaded.error().text().c_str());
    return 2;
  }
  const world::Map map = std::move(loaded).value();
  const world::CharacterMover mover{world::MoverSettings{}};
  const world::MoverPredictionModel model(mover, map.boxes());
  SchemaCache cache(protocol::protocol_messages().schema_text());
  SystemHostTimer timer;
  const MonoTime start = timer.now();
  std::vector<std::unique_ptr<Bot>> bots;
  const Address bind = server->family() == Address::Family::ipv6 ? *Address::parse("[::1]:0") : *Address::parse("127.0.0.1:0");
  for (uint32_t i = 0; i < o.count; ++i) {
    UdpOpenResult opened = UdpSocket::open(bind);
    if (!opened) {
      std::fprintf(stderr, "tickwire bot: %s\n", opened.message.c_str());
      return 2;
    }
    auto bot = std::make_unique<Bot>(Bot{std::move(opened.socket), nullptr, nullptr, nullptr,
                                         world::BotBrain(*behaviour, o.seed * 7919 + i), {}, std::nullopt});
    bot->netcode = std::make_unique<NetcodeClient>(*bot->socket);
    bot->reliable = std::make_unique<ReliableClient>(*bot->netcode, session_endpoint_config());
    bot->client = std::make_unique<GameClient>(*bot->reliable, cache, start, &model);
    netcode::ConnectTokenParams params;
    params.client_id = o.first_client_id + i;
    params.server_addresses.add(*server);
    params.timeout_seconds = 10;
    params.expire_seconds = static_cast<uint64_t>(o.seconds) + 120;
    auto token = netcode::generate_connect_token(params, *key, wall_now());
    if (!token.ok()) {
      std::fprintf(stderr, "tickwire bot: minting a token failed\n");
      return 2;
    }
    bot->netcode->connect(token.value(), start);
    bots.push_back(std::move(bot));
  }
  const Duration frame = Duration::from_seconds(1.0 / o.frame_hz);
  MonoTime next_frame = start;
  MonoTime next_stats = start + Duration::from_seconds(o.stats_interval_s);
  while (g_stop == 0 && (timer.now() - start).seconds_f() < o.seconds) {
    const MonoTime now = timer.now();
    std::size_t sizes = 0;
    uint32_t welcomed = 0;
    for (auto& bot : bots) {
      Bot& b = *bot;
      b.client->frame(now, [&b](uint32_t sequence) { return b.brain.next(sequence); });
      for (uint32_t bytes : b.client->take_snapshot_sizes()) {
        b.snapshot_bytes.add(bytes);
        ++sizes;
      }
      welcomed += b.client->session().welcomed() ? 1 : 0;
      if (b.client->session().welcomed() && !b.welcomed_at_s) b.welcomed_at_s = (now - start).seconds_f();
    }
    if (now >= next_stats) {
      nlohmann::json j;
      j["type"] = "bots";
      j["t"] = (now - start).seconds_f();
      j["welcomed"] = welcomed;
      uint64_t corrections = 0;
      for (const auto& bot : bots) {
        if (const auto* p = bot->client->predictor()) corrections += p->stats().corrections;
      }
      j["corrections"] = corrections;
      j["count"] = o.count;
      std::printf("%s\n", j.dump().c_str());
      std::fflush(stdout);
      next_stats = next_stats + Duration::from_seconds(o.stats_interval_s);
    }
    next_frame = next_frame + frame;
    const MonoTime after = timer.now();
    if (next_frame > after) timer.sleep(next_frame - after);
    else next_frame = after;
  }
  const double elapsed_s = (timer.now() - start).seconds_f();
  nlohmann::json final_line;
  final_line["type"] = "bots_final";
  final_line["t"] = elapsed_s;
  final_line["clients"] = nlohmann::json::array();
  for (uint32_t i = 0; i < bots.size(); ++i) final_line["clients"].push_back(bot_line(*bots[i], o.first_client_id + i, elapsed_s));
  for (auto& bot : bots) bot->netcode->disconnect(timer.now());
  std::printf("%s\n", final_line.dump().c_str());
  std::fflush(stdout);
  return 0;
}

}  // namespace

void register_bot(CLI::App& app) {
  auto* cmd = app.add_subcommand("bot", "run headless bot clients against a server");
  static BotOptions o;
  cmd->add_option("--server", o.server, "server HOST:PORT (numeric)")->required();
  cmd->add_option("--count", o.count, "bots in this process")->check(CLI::Range(1, 255));
  cmd->add_option("--key", o.key_path, "private key file the tokens are minted with (or TICKWIRE_PRIVATE_KEY)");
  cmd->add_option("--behaviour", o.behaviour, "walk, wander, idle or jumpy");
  cmd->add_option("--map", o.map_path, "the server's map file (default: the built-in reference map)");
  cmd->add_option("--seconds", o.seconds, "how long to play")->check(CLI::PositiveNumber);
  cmd->add_option("--frame-hz", o.frame_hz, "frames per second each bot runs")->check(CLI::Range(10.0, 1000.0));
  cmd->add_option("--first-client-id", o.first_client_id, "client id of the first bot (the rest follow)");
  cmd->add_option("--seed", o.seed, "behaviour seed");
  cmd->add_option("--stats-interval", o.stats_interval_s, "seconds between JSON progress lines")->check(CLI::PositiveNumber);
  cmd->callback([] { set_exit_code(run_bots(o)); });
}

}  // namespace tickwire::cli
