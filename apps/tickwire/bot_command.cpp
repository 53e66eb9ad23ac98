// `tickwire bot`: N headless players in one process, each a full client (its own UDP socket and
// connect token, the session, clock regulation, interpolation), driven by a scripted behaviour.
// One JSON stats line per interval and a final one with per-client figures (what the demo reads);
// `use` bots see their pawn and the map's buttons, and the final line counts the server's answers
// to their uses; `fire` bots shoot at the nearest other pawn and print one line per shot's result
// (kind, point, distance), the final line counting their shots and hits.
#include <csignal>
#include <filesystem>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bot_resume.h"
#include "commands.h"
#include "demo_block.h"
#include "sample_stats.h"
#include "tickwire/client.h"
#include "tickwire/client/game_client.h"
#include "tickwire/clock/system_clock.h"
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

volatile std::sig_atomic_t g_stop = 0;
void request_stop(int) { g_stop = 1; }

struct BotOptions {
  std::string server;
  uint32_t count = 1;
  std::string key_path;
  std::string behaviour = "wander";
  std::string map_path;  // the map the server runs (the bots predict against its boxes)
  uint64_t protocol_id = netcode::kDefaultProtocolId;
  double seconds = 30;
  double frame_hz = 100;
  uint64_t first_client_id = 1000;
  uint64_t seed = 1;
  double stats_interval_s = 1.0;
  std::string resume_dir;  // set: each bot's resume token kept here, presented at start (bot_resume.h)
};

struct Bot {
  std::unique_ptr<world::ClientWorld> world;  // its voxel cells and its prediction (the client's model)
  std::unique_ptr<Client> client;
  world::BotBrain brain;
  SampleStats snapshot_bytes;
  std::optional<double> welcomed_at_s;  // when the welcome arrived (the snapshot rate counts from it)
  // The server's reliable block (demo_block.h): bytes, and when its first and last parts arrived
  // with the snapshots counted then (the snapshot rate while it downloaded).
  uint64_t block_bytes = 0;
  double block_first_s = 0, block_last_s = 0;
  uint64_t snapshots_at_block_first = 0, snapshots_at_block_last = 0;
};

nlohmann::json fire_json(const world::BotFireTally& t) {
  return {{"shots", t.shots},
          {"nothing", t.hits_by_kind[0]},
          {"surface", t.hits_by_kind[1]},
          {"water", t.hits_by_kind[2]},
          {"pawn_hits", t.pawn_hits}};
}

// The other pawns where this bot's client draws them (the `fire` bots' marks).
void drawn_pawns(const Client& client, std::vector<world::Vec3>& out) {
  out.clear();
  for (const DrawnEntity& e : client.remote_entities())
    if (e.kind == world::kKindPlayerPawn) out.push_back(world::Vec3::from_wire(e.position_m));
}

// A `fire` bot's shot of this frame, through the player's path (Client::fire), and every hit event
// heard: its own shots' results printed one line each.
void fire_and_listen(Bot& b, uint64_t id, double at_s) {
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
    std::printf("%s\n", j.dump().c_str());
  }
}

// The server's answers to a bot's uses: taken, unhandled, refused by reason.
nlohmann::json uses_json(const world::BotUseTally& uses) {
  nlohmann::json refused = nlohmann::json::object();
  visit_nonzero(uses.refused, [&](world::UseRefusal reason, uint64_t count) { refused[std::string(reason_name(reason))] = count; });
  return {{"taken", uses.taken}, {"unhandled", uses.unhandled}, {"refused", refused}};
}

nlohmann::json bot_line(const Bot& bot, uint64_t id, double elapsed_s) {
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
    std::fprintf(stderr, "tickwire bot: %s\n", !behaviour ? "--behaviour must be walk, wander, idle, jumpy, use or fire"
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
  const std::vector<world::Aabb> statics = world::map_solid_boxes(map);  // the map's boxes and its objects' static bodies
  const world::ObjectSolids solids = world::ObjectSolids::build(map);    // and its doors and lifts
  const std::vector<world::BotButton> buttons = world::bot_buttons(map);
  SystemHostTimer timer;
  const MonoTime start = timer.now();
  std::vector<std::unique_ptr<Bot>> bots;
  std::vector<BotResumeFile> resume_files;  // one per bot with --resume-dir
  if (!o.resume_dir.empty()) std::filesystem::create_directories(o.resume_dir);
  for (uint32_t i = 0; i < o.count; ++i) {
    ClientConfig config;
    config.server_address = o.server;
    config.dev_private_key = *key;
    config.client_id = o.first_client_id + i;
    config.protocol_id = o.protocol_id;
    config.token_expire_seconds = static_cast<uint32_t>(o.seconds) + 120;
    config.vocabulary = world::reference_vocabulary();
    if (!o.resume_dir.empty()) {
      resume_files.emplace_back(o.resume_dir, i);
      AdmissionGrants grants;
      grants.resume_token = resume_files.back().read();
      (void)write_admission_grants(grants, config.dev_user_data);
    }
    auto client_world = std::make_unique<world::ClientWorld>(map, mover, statics, solids);
    config.model = &client_world->model();
    ClientOpen opened = Client::open(config, start, wall_now());
    if (!opened) {
      std::fprintf(stderr, "tickwire bot: %s\n", opened.error.c_str());
      return 2;
    }
    bots.push_back(std::make_unique<Bot>(
        Bot{std::move(client_world), std::move(opened.client), world::BotBrain(*behaviour, o.seed * 7919 + i), {}, std::nullopt}));
  }
  const Duration frame = Duration::from_seconds(1.0 / o.frame_hz);
  MonoTime next_frame = start;
  MonoTime next_stats = start + Duration::from_seconds(o.stats_interval_s);
  std::vector<world::Vec3> others;  // scratch: one bot's view of the other pawns
  while (g_stop == 0 && (timer.now() - start).seconds_f() < o.seconds) {
    const MonoTime now = timer.now();
    std::size_t sizes = 0;
    uint32_t welcomed = 0;
    for (std::size_t i = 0; i < bots.size(); ++i) {
      Bot& b = *bots[i];
      drawn_pawns(*b.client, others);
      const world::BotView view{world::Vec3::from_wire(b.client->own_position()), mover.settings().standing_eye_m, buttons, others};
      b.client->frame(now, [&b, &view](uint32_t sequence) { return b.brain.next(sequence, view); });
      b.world->follow_scene(b.client->scene_state());  // hide and move reach its prediction world
      if (const Predictor* predictor = b.client->game().predictor(); predictor != nullptr && b.client->contract() != nullptr)
        b.world->follow(*predictor, double{predictor->time_scale()} / static_cast<double>(b.client->contract()->cadence.tick_rate_hz));
      while (auto event = b.client->receive_event()) b.brain.heard(*event);
      if (const auto target = b.brain.take_interaction()) (void)b.client->interact(world::map_object_ref(*target).raw(), 0);
      fire_and_listen(b, o.first_client_id + i, (now - start).seconds_f());
      for (uint32_t bytes : b.client->game().take_snapshot_sizes()) {
        b.snapshot_bytes.add(bytes);
        ++sizes;
      }
      while (auto message = b.client->receive_message()) {
        if (b.world->take(*message) || message->type != kBlockPartType) continue;
        const double at_s = (now - start).seconds_f();
        const uint64_t snapshots = b.client->stats().snapshots;
        if (b.block_bytes == 0) {
          b.block_first_s = at_s;
          b.snapshots_at_block_first = snapshots;
        }
        b.block_bytes += message->payload.size();
        b.block_last_s = at_s;
        b.snapshots_at_block_last = snapshots;
      }
      if (!resume_files.empty()) {
        if (const auto line = resume_files[i].follow(*b.client, (now - start).seconds_f())) std::printf("%s\n", line->dump().c_str());
      }
      const bool playing = b.client->status().phase == ClientPhase::playing;
      welcomed += playing ? 1 : 0;
      if (playing && !b.welcomed_at_s) b.welcomed_at_s = (now - start).seconds_f();
    }
    if (now >= next_stats) {
      nlohmann::json j;
      j["type"] = "bots";
      j["t"] = (now - start).seconds_f();
      j["welcomed"] = welcomed;
      uint64_t corrections = 0;
      for (const auto& bot : bots) {
        corrections += bot->client->stats().corrections;
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
  if (*behaviour == world::BotBehaviour::use) {
    world::BotUseTally uses;
    for (const auto& bot : bots) uses.merge(bot->brain.uses());
    final_line["uses"] = uses_json(uses);
  }
  if (*behaviour == world::BotBehaviour::fire) {
    world::BotFireTally fire;
    for (const auto& bot : bots) fire.merge(bot->brain.gunner().tally());
    final_line["fire"] = fire_json(fire);
  }
  for (auto& bot : bots) bot->client->disconnect(timer.now());
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
  cmd->add_option("--behaviour", o.behaviour, "walk, wander, idle, jumpy, use (presses the map's buttons, goes to their doors) or fire (shoots at the nearest pawn, a line per shot)");
  cmd->add_option("--map", o.map_path, "the server's map file (default: the built-in reference map)");
  cmd->add_option("--protocol-id", o.protocol_id, "the game's netcode protocol id (the server's)");
  cmd->add_option("--seconds", o.seconds, "how long to play")->check(CLI::PositiveNumber);
  cmd->add_option("--frame-hz", o.frame_hz, "frames per second each bot runs")->check(CLI::Range(10.0, 1000.0));
  cmd->add_option("--first-client-id", o.first_client_id, "client id of the first bot (the rest follow)");
  cmd->add_option("--seed", o.seed, "behaviour seed");
  cmd->add_option("--stats-interval", o.stats_interval_s, "seconds between JSON progress lines")->check(CLI::PositiveNumber);
  cmd->add_option("--resume-dir", o.resume_dir,
                  "keep each bot's resume token here and present it at start (a restarted process resumes its pawns)");
  cmd->callback([] { set_exit_code(run_bots(o)); });
}

}  // namespace tickwire::cli
