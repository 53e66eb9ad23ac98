// `tickwire bot`: N headless players in one process, each a full client (its own UDP socket and
// connect token, the session, clock regulation, interpolation), driven by a scripted behaviour.
// One JSON stats line per interval (with --series, a compact per-client one too) and a final one
// with per-client figures (what the demo reads);
// `use` bots see their pawn and the map's buttons, and the final line counts the server's answers
// to their uses; `fire` bots shoot at the nearest other pawn and print one line per shot's result
// (kind, point, distance), the final line counting their shots and hits. Bots mint their own tokens
// with the key (--server), or are seated by the fleet's matchmaker (--match, bot_match.h), which
// they ask again to resume their pawns when their server is lost. With --http, a live page of every
// bot's client (bot_dashboard.h; its address in a {"type":"http"} line first). With --threads N, the
// bots run on N threads, each its own frame loop over its own bots (bot_threads.h).
#include <csignal>
#include <filesystem>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bot.h"
#include "bot_dashboard.h"
#include "bot_match.h"
#include "bot_report.h"
#include "bot_resume.h"
#include "bot_threads.h"
#include "commands.h"
#include "map_option.h"
#include "stop_signals.h"
#include "dashboard_inputs.h"
#include "number_checks.h"
#include "demo_block.h"
#include "tickwire/client.h"
#include "tickwire/client/game_client.h"
#include "tickwire/clock/system_clock.h"
#include "tickwire/core/owner_id.h"
#include "tickwire/server/admission_grants.h"
#include "tickwire/clock/system_host_timer.h"
#include "tickwire/transport/key_file.h"
#include "tickwire/world/bot_brain.h"
#include "tickwire/world/client_world.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/mover_prediction_model.h"
#include "tickwire/world/object_solids.h"
#include "tickwire/world/reference_game.h"
#include "tickwire/world/reference_map.h"
#include "tickwire/world/reference_vocabulary.h"

namespace tickwire::cli {
namespace {

struct BotOptions {
  std::string server;
  uint32_t count = 1;
  std::string key_path;
  std::string behaviour = "wander";
  std::string map_path;  // the map the server runs (the bots predict against its boxes)
  uint64_t protocol_id = netcode::kDefaultProtocolId;
  double seconds = 30;
  double frame_hz = 100;
  std::vector<uint32_t> logic_hz;  // server-time rooms: each bot's own logic rate, round the bots (empty: the room's)
  uint64_t first_client_id = 1000;
  uint64_t seed = 1;
  double stats_interval_s = 1.0;
  bool series = false;  // also a compact per-client line each interval (bot_report.h: series_line)
  std::string resume_dir;  // set: each bot's resume token kept here, presented at start (bot_resume.h)
  std::string match;       // set: seats from this matchmaker instead of minted tokens (bot_match.h)
  double match_refresh_s = 1.0;
  double resume_patience_s = 60;
  std::string http;  // [HOST:]PORT of the bots' dashboard; empty: none
  uint32_t threads = 1;  // frame loops the bots are split round (bot_threads.h)

  uint32_t logic_rate(uint32_t bot) const { return logic_hz.empty() ? 0 : logic_hz[bot % logic_hz.size()]; }

  BotMatchOptions matching() const {
    BotMatchOptions m;
    m.matchmaker = match;
    m.seat.refresh = Duration::from_seconds(match_refresh_s);
    m.seat.resume_patience = Duration::from_seconds(resume_patience_s);
    return m;
  }
};

// The other pawns where this bot's client draws them (the `fire` bots' marks).
void drawn_pawns(const Client& client, std::vector<world::Vec3>& out) {
  out.clear();
  for (const DrawnEntity& e : client.remote_entities())
    if (e.kind == world::kKindPlayerPawn) out.push_back(world::Vec3::from_wire(e.position_m));
}

// A `fire` bot's shot of this frame, through the player's path (Client::fire), and every hit event
// heard: its own shots' results printed one line each.
void fire_and_listen(Bot& b, uint64_t id, double at_s, BotOutput& out) {
  if (const auto aim = b.brain.take_shot()) {
    if (const auto shot = b.client->fire(aim->eye.to_wire(), aim->direction.to_wire())) b.brain.gunner().fired(*shot, *aim);
  }
  const auto& welcome = b.client->game().session().welcome();
  const uint32_t own_id = welcome ? EntityRef::from_raw(welcome->pawn_ref).handle().raw() : 0;
  while (auto event = b.client->receive_hit()) {
    const auto hit = b.brain.gunner().heard(*event, own_id);
    if (!hit) continue;
    nlohmann::json j;
    j["type"] = "hit";
    j["t"] = at_s;
    j["client"] = id;
    j["shot"] = hit->shot;
    j["kind"] = protocol::kHitKindDef.name_of(static_cast<uint32_t>(hit->kind));
    j["body"] = protocol::kHitBodyDef.name_of(static_cast<uint32_t>(hit->body));
    j["impact"] = hit->impact;
    j["point"] = {hit->point.x, hit->point.y, hit->point.z};
    j["distance_m"] = hit->distance_m;
    out.line(j);
  }
}

// What every bot's prediction is built from: the map the server runs and what it derives.
struct BotWorld {
  world::Map map;
  world::CharacterMover mover{world::MoverSettings{}};
  std::vector<world::Aabb> statics;  // the map's boxes and its objects' static bodies
  world::ObjectSolids solids;        // and its doors and lifts
  std::vector<world::BotButton> buttons;
};

std::unique_ptr<BotWorld> load_bot_world(const std::string& map_path) {
  std::optional<world::Map> loaded = load_map_option(map_path, "tickwire bot");
  if (!loaded) return nullptr;
  auto w = std::make_unique<BotWorld>(BotWorld{std::move(*loaded), world::CharacterMover{world::MoverSettings{}}, {}, {}, {}});
  w->statics = world::map_solid_boxes(w->map);
  w->solids = world::ObjectSolids::build(w->map);
  w->buttons = world::bot_buttons(w->map);
  return w;
}

// Opens `b`'s client from `config` (its token, or the development key) with a fresh prediction
// world, closing any client it had; the error, or empty.
std::string open_client(Bot& b, ClientConfig config, const BotWorld& w, MonoTime now) {
  b.client.reset();  // before the world its model lives in
  b.world = std::make_unique<world::ClientWorld>(w.map, w.mover, w.statics, w.solids);
  config.vocabulary = world::reference_vocabulary();
  config.model = &b.world->model();
  ClientOpen opened = Client::open(config, now, wall_now());
  if (!opened) return opened.error;
  b.client = std::move(opened.client);
  b.welcomed_at_s.reset();
  return {};
}

// The development path (--server): each bot's token minted with the key, its resume token (with
// --resume-dir) in the token's grants.
bool open_minted(std::vector<std::unique_ptr<Bot>>& bots, const BotOptions& o, const BotWorld& w,
                 std::vector<BotResumeFile>& resume_files, MonoTime now) {
  std::string error;
  const auto key = netcode::load_server_private_key(o.key_path, error);
  if (!key) {
    std::fprintf(stderr, "tickwire bot: %s\n", error.c_str());
    return false;
  }
  if (!o.resume_dir.empty()) std::filesystem::create_directories(o.resume_dir);
  for (uint32_t i = 0; i < bots.size(); ++i) {
    ClientConfig config;
    config.server_address = o.server;
    config.dev_private_key = *key;
    config.client_id = o.first_client_id + i;
    config.protocol_id = o.protocol_id;
    config.token_expire_seconds = static_cast<uint32_t>(o.seconds) + 120;
    config.logic_hz = o.logic_rate(i);
    if (!o.resume_dir.empty()) {
      resume_files.emplace_back(o.resume_dir, i);
      AdmissionGrants grants;
      grants.resume_token = resume_files.back().read();
      (void)write_admission_grants(grants, config.dev_user_data);
    }
    if (error = open_client(*bots[i], config, w, now); !error.empty()) {
      std::fprintf(stderr, "tickwire bot: %s\n", error.c_str());
      return false;
    }
  }
  return true;
}

// One bot's frame: its behaviour's input, its prediction world kept with the scene, its uses and
// shots, the server's messages and block parts.
void frame_bot(Bot& b, const BotWorld& w, uint64_t id, MonoTime now, double at_s, std::vector<world::Vec3>& others,
               BotOutput& out) {
  drawn_pawns(*b.client, others);
  const world::BotView view{world::Vec3::from_wire(b.client->own_position()), w.mover.settings().standing_eye_m, w.buttons, others};
  b.client->frame(now, [&b, &view](uint32_t sequence) { return b.brain.next(sequence, view); });
  b.world->follow_scene(b.client->scene_state());  // hide and move reach its prediction world
  if (const Predictor* predictor = b.client->game().predictor(); predictor != nullptr && b.client->contract() != nullptr)
    b.world->follow(*predictor, double{predictor->time_scale()} / static_cast<double>(b.client->contract()->cadence.tick_rate_hz));
  while (auto event = b.client->receive_event()) b.brain.heard(*event);
  if (const auto target = b.brain.take_interaction()) (void)b.client->interact(world::map_object_ref(*target).raw(), 0);
  fire_and_listen(b, id, at_s, out);
  for (uint32_t bytes : b.client->game().take_snapshot_sizes()) b.snapshot_bytes.add(bytes);
  while (auto message = b.client->receive_message()) {
    if (b.world->take(*message) || message->type != kBlockPartType) continue;
    const uint64_t snapshots = b.client->stats().snapshots;
    if (b.block_bytes == 0) {
      b.block_first_s = at_s;
      b.snapshots_at_block_first = snapshots;
    }
    b.block_bytes += message->payload.size();
    b.block_last_s = at_s;
    b.snapshots_at_block_last = snapshots;
  }
  if (b.client->status().phase == ClientPhase::playing && !b.welcomed_at_s) b.welcomed_at_s = at_s;
}

nlohmann::json final_line(const std::vector<std::unique_ptr<Bot>>& bots, const BotOptions& o, world::BotBehaviour behaviour,
                          const BotMatch* match, const BotDashboard* dashboard, double elapsed_s) {
  nlohmann::json line;
  line["type"] = "bots_final";
  line["t"] = elapsed_s;
  line["clients"] = nlohmann::json::array();
  for (uint32_t i = 0; i < bots.size(); ++i) {
    nlohmann::json client = bot_line(*bots[i], o.first_client_id + i, elapsed_s);
    if (match != nullptr) client["match"] = match->bot_json(i);
    line["clients"].push_back(std::move(client));
  }
  if (behaviour == world::BotBehaviour::use) {
    world::BotUseTally uses;
    for (const auto& bot : bots) uses.merge(bot->brain.uses());
    line["uses"] = uses_json(uses);
  }
  if (behaviour == world::BotBehaviour::fire) {
    world::BotFireTally fire;
    for (const auto& bot : bots) fire.merge(bot->brain.gunner().tally());
    line["fire"] = fire_json(fire);
  }
  if (dashboard != nullptr) line["dashboard"] = dashboard->figures();
  if (match != nullptr) line.update(match->totals());  // matched, resumed, resumeFailures, maxPosition, asks, askFailures...
  return line;
}

// Exactly one of --server and --match, each a numeric HOST:PORT; the error, or empty.
std::string check_endpoints(const BotOptions& o) {
  if (o.server.empty() == o.match.empty()) return "give exactly one of --server (mint tokens) or --match (ask a matchmaker)";
  if (o.threads > 1 && (!o.match.empty() || !o.http.empty()))  // both are driven from one frame loop
    return fmt::format("--threads {} cannot be given with {}: run those bots on one thread", o.threads, o.match.empty() ? "--http" : "--match");
  const std::string& given = o.server.empty() ? o.match : o.server;
  const auto address = Address::parse(given);
  if (!address || address->port() == 0) return fmt::format("{} must be a numeric HOST:PORT", o.server.empty() ? "--match" : "--server");
  return {};
}

// --http: the bots' dashboard, its address printed before anything else; false when it cannot listen.
bool open_dashboard(const BotOptions& o, const world::Map& map, std::unique_ptr<BotDashboard>& dashboard) {
  if (o.http.empty()) return true;
  std::string error;
  dashboard = BotDashboard::open(http_listen_address(o.http), map, error);
  if (!dashboard) {
    std::fprintf(stderr, "tickwire bot: %s\n", error.c_str());
    return false;
  }
  std::printf("%s\n", nlohmann::json({{"type", "http"}, {"address", dashboard->address()}}).dump().c_str());
  std::fflush(stdout);
  return true;
}

int run_bots(const BotOptions& o) {
  catch_stop_signals();
  const auto behaviour = world::parse_bot_behaviour(o.behaviour);
  const std::string bad_endpoint = check_endpoints(o);
  if (!bad_endpoint.empty() || !behaviour) {
    std::fprintf(stderr, "tickwire bot: %s\n", !behaviour ? "--behaviour must be walk, wander, idle, jumpy, use or fire" : bad_endpoint.c_str());
    return 2;
  }
  const auto w = load_bot_world(o.map_path);
  if (!w) return 2;
  std::unique_ptr<BotDashboard> dashboard;
  if (!open_dashboard(o, w->map, dashboard)) return 2;
  SystemHostTimer timer;
  const MonoTime start = timer.now();
  std::vector<std::unique_ptr<Bot>> bots;
  for (uint32_t i = 0; i < o.count; ++i)
    bots.push_back(std::make_unique<Bot>(Bot{nullptr, nullptr, world::BotBrain(*behaviour, o.seed * 7919 + i), {}, std::nullopt}));
  std::vector<BotResumeFile> resume_files;  // one per bot with --resume-dir
  std::unique_ptr<BotMatch> match;
  if (o.match.empty()) {
    if (!open_minted(bots, o, *w, resume_files, start)) return 2;
  } else {
    match = std::make_unique<BotMatch>(o.matching(), o.count, o.first_client_id, start);
  }
  const auto open_offer = [&](uint32_t i, const SeatOffer& offer) {
    ClientConfig config;
    config.connect_token = offer.token;
    config.logic_hz = o.logic_rate(i);
    const std::string error = open_client(*bots[i], config, *w, timer.now());
    if (!error.empty()) std::fprintf(stderr, "tickwire bot: bot %u: %s\n", i, error.c_str());
    return error.empty();
  };
  BotOutput out;
  const BotFrame frame = [&](uint32_t i, MonoTime now, double at_s, std::vector<world::Vec3>& others) {
    Bot& b = *bots[i];
    if (!b.client || (match && !match->runs_client(i))) return;
    frame_bot(b, *w, o.first_client_id + i, now, at_s, others, out);
    if (match && match->follow(i, *b.client, now)) b.client->disconnect(now);  // an offer lapsed
    if (!resume_files.empty()) {
      if (const auto line = resume_files[i].follow(*b.client, at_s)) out.line(*line);
    }
  };
  BotLoopHooks hooks;  // with one thread only (check_endpoints)
  if (match) hooks.before_frames = [&](MonoTime now) { match->before_frames(now, open_offer); };
  if (dashboard) hooks.after_frames = [&](MonoTime now) { dashboard->follow(bots, o.first_client_id, now); };
  const BotLoopSettings loop{o.threads, o.frame_hz, o.seconds, o.stats_interval_s, o.count, o.first_client_id, o.series};
  run_bot_threads(bots, loop, start, frame, hooks, out);  // every thread joined: every bot is ours again
  const double elapsed_s = (timer.now() - start).seconds_f();
  const nlohmann::json last = final_line(bots, o, *behaviour, match.get(), dashboard.get(), elapsed_s);
  for (auto& bot : bots)
    if (bot->client) bot->client->disconnect(timer.now());
  match.reset();  // its worker joins (an ask in flight ends within its timeout)
  std::printf("%s\n", last.dump().c_str());
  std::fflush(stdout);
  return 0;
}

}  // namespace

void register_bot(CLI::App& app) {
  auto* cmd = app.add_subcommand("bot", "run headless bot clients against a server, or seated by a matchmaker");
  static BotOptions o;
  auto* server = cmd->add_option("--server", o.server, "server HOST:PORT (numeric): tokens minted with --key");
  auto* match = cmd->add_option("--match", o.match,
                                "the matchmaker's HTTP HOST:PORT (numeric): each bot asks it for a seat (actor = its client id), "
                                "refreshes while queued, and resumes through it when its server is lost");
  match->excludes(server);
  cmd->add_option("--match-refresh", o.match_refresh_s, "seconds between a queued bot's asks (with --match)")
      ->check(CLI::Range(0.05, 60.0));
  cmd->add_option("--resume-patience", o.resume_patience_s,
                  "seconds a bot whose server was lost asks to resume its pawn before it asks for a fresh seat (with --match)")
      ->check(positive_number());
  cmd->add_option("--count", o.count, "bots in this process")->check(CLI::Range(uint32_t{1}, uint32_t{kMaxClientOwner}));
  cmd->add_option("--key", o.key_path, "private key file the tokens are minted with (or TICKWIRE_PRIVATE_KEY)");
  cmd->add_option("--behaviour", o.behaviour, "walk, wander, idle, jumpy, use (presses the map's buttons, goes to their doors) or fire (shoots at the nearest pawn, a line per shot)");
  cmd->add_option("--map", o.map_path, "the server's map file (default: the built-in reference map)");
  cmd->add_option("--protocol-id", o.protocol_id, "the game's netcode protocol id (the server's)");
  cmd->add_option("--seconds", o.seconds, "how long to play")->check(positive_number());
  cmd->add_option("--frame-hz", o.frame_hz, "frames per second each bot runs")->check(CLI::Range(10.0, 1000.0));
  cmd->add_option("--threads", o.threads,
                  "threads the bots run on, bot i on thread i % N, each its own frame loop at --frame-hz "
                  "(not with --match or --http)")
      ->check(CLI::Range(1u, kMaxBotThreads));
  cmd->add_option("--logic-hz", o.logic_hz,
                  "in a server-time room: each bot's logic rate, a comma list going round the bots (e.g. 30,60,144); "
                  "default: the room's tick rate")
      ->delimiter(',')
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--first-client-id", o.first_client_id, "client id of the first bot (the rest follow)");
  cmd->add_option("--seed", o.seed, "behaviour seed");
  cmd->add_option("--stats-interval", o.stats_interval_s, "seconds between JSON progress lines")->check(positive_number());
  cmd->add_flag("--series", o.series,
                "also print a compact per-client line each interval: bytes, RTT, input-queue depth, corrections, held frames "
                "(what `tickwire demo --html` plots)");
  cmd->add_option("--http", o.http,
                  "serve a live page of every bot's client (prediction against the server's answer, interpolation "
                  "against the newest snapshot, clock, held frames and snaps) on this port of loopback, or on HOST:PORT")
      ->check([](const std::string& v) { return http_listen_address(v).empty() ? "a PORT or a numeric HOST:PORT" : ""; });
  cmd->add_option("--resume-dir", o.resume_dir,
                  "keep each bot's resume token here and present it at start (a restarted process resumes its pawns)")
      ->excludes(match);
  cmd->callback([] { set_exit_code(run_bots(o)); });
}

}  // namespace tickwire::cli
