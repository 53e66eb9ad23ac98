// `tickwire server`: the dedicated server. The reference game's room behind the Server facade on a
// real UDP socket, paced on the host's clock, with one JSON stats line per interval on stdout (what
// the demo reads: rates, bytes, the input-queue depth histogram, the prediction the contract
// admits, and every refusal, drop and kick by reason) and a final one on exit. SIGINT/SIGTERM stop
// it cleanly: every client is sent its redundant disconnect packets before the process exits. With
// --store the room is durable (durable_server.h): recovered at start, kept while the lease holds,
// drained (checkpointed, the lease given up) on SIGINT/SIGTERM. Its lifecycle (starting, ready,
// allocated, draining, stopped) is in every stats line, and --ops serves it to an orchestrator with
// /healthz, /readyz and /metrics (server_ops.h; docs/deployment.md). --http serves the live
// dashboard beside those (server_dashboard.h; docs/dashboard.md). --record writes a room recording
// (server/room_recording.h) of the run, from the room's save state before anyone joins, for
// `tickwire replay` (docs/durability.md, "Room recordings").
#include <unistd.h>

#include <algorithm>
#include <array>
#include <csignal>
#include <cstdio>
#include <map>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "input_tally.h"
#include "map_option.h"
#include "stop_signals.h"
#include "number_checks.h"
#include "demo_block.h"
#include "durable_server.h"
#include "pawn_body_option.h"
#include "sample_stats.h"
#include "recording_file.h"
#include "save_state_file.h"
#include "whole_file.h"
#include "server_dashboard.h"
#include "server_ops.h"
#include "tickwire/clock/system_clock.h"
#include "tickwire/server.h"
#include "tickwire/server/room_recording_writer.h"
#include "tickwire/server/room_server.h"
#include "tickwire/transport/key_file.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/reference_game.h"
#include "tickwire/world/reference_map.h"
#include "tickwire/world/reference_vocabulary.h"

namespace tickwire::cli {
namespace {

// Signals received: the first stops the run (a drain), a second cuts a drain's grace short.

struct ServerOptions {
  std::string map_path;  // empty: the built-in reference map
  std::string key_path;
  std::string bind = "127.0.0.1";
  uint16_t port = 40000;
  std::string public_address;  // what tokens list (a conditioner's listen address); empty: the bind
  uint64_t protocol_id = netcode::kDefaultProtocolId;
  uint32_t tick_hz = 60;
  uint32_t snapshot_hz = 0;  // 0: the tick rate
  std::string mode = "snapshot";  // or server-time (seed 002): clients run their own logic rates
  double forgiveness = 1.0;
  double time_scale = 1.0;
  uint32_t max_clients = 255;
  double stats_interval_s = 1.0;
  double seconds = 0;  // 0: until signalled
  double block_mb = 0;      // a reliable block sent to every admitted client mid-game (0: none)
  double block_at_s = 10;   // when
  std::string pawn_body;  // --pawn-body's word (kinematic: the reference game's); what the contract admits
  DurableOptions durable;
  double pawn_hold_s = 60;  // with --store: how long a departed player's pawn waits for its resume token
  std::string ops;          // HOST:PORT of the operator endpoint (/healthz, /readyz, /metrics); empty: none
  std::string http;         // [HOST:]PORT of the dashboard (and the operator's routes); empty: none
  double drain_grace_s = 0; // how long a drain lets seated players play on before they are let go
  std::string initial_state;  // a save state the room starts from (save_state_file.h); empty: a fresh room
  std::string save_state;     // where the room's save state is written when the server stops; empty: nowhere
  std::string record_path;  // a room recording of the run; empty: none
};

// Queues `mb` megabytes to every admitted client (each part made once, sent to all); returns the
// bytes queued per client.
std::size_t send_block(Server& server, double mb) {
  const auto total = static_cast<std::size_t>(mb * 1024 * 1024);
  std::vector<uint8_t> part(kBlockPartBytes);
  std::vector<OwnerId> owners;
  for (const ClientLink& c : server.clients()) {
    if (c.admitted) owners.push_back(c.owner);
  }
  std::size_t queued = 0;
  for (std::size_t at = 0; at < total; at += kBlockPartBytes) {
    const std::size_t n = std::min(kBlockPartBytes, total - at);
    for (std::size_t i = 0; i < n; ++i) part[i] = static_cast<uint8_t>((at + i) * 131);
    bool all = !owners.empty();
    for (const OwnerId owner : owners) all = server.send(owner, kBlockPartType, std::span<const uint8_t>(part.data(), n)) && all;
    if (all) queued += n;
  }
  return queued;
}

struct Tally {
  SampleStats tick_cost_us;
  SampleStats interval_cost_us;  // since the previous stats line (the demo's HTML report plots it)
  InputTally input;
};

// What the contract grants the pawn's movement (seed 003's prediction admission).
nlohmann::json prediction_json(const PredictionAdmission& admission) {
  nlohmann::json j = {{"pawn_body", pawn_body_name(admission.requested.pawn_body)},
                      {"transform_owner", transform_owner_name(admission.transform_owner)},
                      {"own_pawn_predicted", admission.own_pawn_predicted},
                      {"demoted", admission.demoted}};
  if (const auto demotion = prediction_demotion(admission.requested)) {
    j["diagnostic"] = prediction_demotion_diagnostic(*demotion);
  }
  return j;
}

nlohmann::json stats_line(const char* type, double elapsed_s, const Server& server, const Tally& tally) {
  const ServerStats s = server.stats();
  nlohmann::json j;
  j["type"] = type;
  j["t"] = elapsed_s;
  j["clients"] = s.clients;
  j["hz"] = s.tick_rate_hz;
  j["sleep_factor"] = s.sleep_factor;
  j["ticks"] = s.ticks_executed;
  j["declared"] = s.ticks_declared;
  j["tick_cost_us"] = {{"p50", tally.tick_cost_us.percentile(0.5)},
                       {"p99", tally.tick_cost_us.percentile(0.99)},
                       {"max", tally.tick_cost_us.max()}};
  j["tick_cost_interval_us"] = {{"p50", tally.interval_cost_us.percentile(0.5)},
                                {"p99", tally.interval_cost_us.percentile(0.99)},
                                {"max", tally.interval_cost_us.max()}};
  j["snapshots"] = s.snapshots_sent;
  j["bytes_out"] = s.bytes_sent;
  j["bytes_in"] = s.bytes_received;
  tally.input.put(j);
  j["contract_hash"] = server.contract_hash_hex();
  j["prediction"] = prediction_json(server.contract().prediction);
  j["world"] = {{"forgiveness", server.world_settings().forgiveness}, {"time_scale", server.world_settings().time_scale}};
  j["relayed"] = s.relayed;
  j["fires"] = s.fires;
  j["hits"] = s.hits_sent;
  j["edits"] = s.edits;
  j["sceneStates"] = s.scene_states_sent;
  j["resumes"] = s.resumes;
  j["superseded"] = s.superseded;
  j["held_pawns"] = s.held_pawns;
  j["holds_expired"] = s.holds_expired;
  j["world_frames"] = s.world_frames;
  j["frame_states_copied"] = s.frame_states_copied;
  nlohmann::json reasons = nlohmann::json::object();
  for (const ReasonCount& r : s.reasons) reasons[r.name] = r.count;
  j["reasons"] = reasons;
  j["snapshot_drops"] = reasons.value("session.drop.snapshot_unsent", uint64_t{0});
  return j;
}

// A drain's grace: the room runs on while players are seated, for at most `grace_s`, unless a
// signal arrives or the room loses its authority. (The engine has no switch yet to refuse a new
// connection mid-run: a client holding a valid token may still join and is let go with the rest.)
void drain_grace(Server& server, const DurableServer* kept, ServerOps& ops, double grace_s) {
  const MonoTime began = server.now();
  const std::sig_atomic_t signals = stop_signals();
  while (stop_signals() == signals && (server.now() - began).seconds_f() < grace_s && server.stats().clients > 0 &&
         (kept == nullptr || kept->authority())) {
    server.update(server.wait_for_next_tick());
    ops.follow(server, kept, mono_now());
  }
}

// Writes the room's save state to `path` (before the clients are let go: each one's pawn is saved
// as a session's, held for its player by a server started from it); a line says where and how big.
bool save_room(Server& server, const std::string& path) {
  std::vector<uint8_t> bytes;
  std::string error;
  if (const auto refused = server.save_state(bytes)) {
    error = "the game wrote no state: " + std::string(reason_name(*refused));
  } else if (write_whole_file(path, bytes, error)) {
    std::printf("%s\n", nlohmann::json({{"type", "saved"},
                                        {"path", path},
                                        {"bytes", bytes.size()},
                                        {"tick", server.room().last_tick().value()},
                                        {"sessions", server.room().session_count()}})
                            .dump()
                            .c_str());
    std::fflush(stdout);
    return true;
  }
  std::fprintf(stderr, "tickwire server: --save-state: %s\n", error.c_str());
  return false;
}

int run_server(const ServerOptions& o) {
  catch_stop_signals();
  std::string error;
  const auto key = netcode::load_server_private_key(o.key_path, error);
  if (!key) {
    std::fprintf(stderr, "tickwire server: %s\n", error.c_str());
    return 2;
  }
  std::optional<world::Map> loaded = load_map_option(o.map_path, "tickwire server");
  if (!loaded) return 2;
  const world::Map map = std::move(*loaded);
  ServerConfig config;
  config.bind = (o.bind.find(':') != std::string::npos ? "[" + o.bind + "]" : o.bind) + ":" + std::to_string(o.port);
  config.public_address = o.public_address;
  config.private_key = *key;
  config.protocol_id = o.protocol_id;
  config.max_clients = o.max_clients;
  config.policy.identity = {"room-1", "tickwire-reference", "local", map.content_hash_hex(), "demo", "", ""};
  config.policy.cadence.tick_rate_hz = o.tick_hz;
  config.policy.cadence.snapshot_rate_hz = o.snapshot_hz == 0 ? o.tick_hz : o.snapshot_hz;
  config.policy.input.forgiveness = o.forgiveness;
  config.policy.cadence.time_scale = o.time_scale;
  world::apply_reference_policy(config.policy);
  config.policy.prediction.pawn_body = pawn_body_of(o.pawn_body);  // the game always runs its mover: this sets what is admitted
  config.policy.mode.mode = o.mode == "server-time" ? RuntimeMode::server_time : RuntimeMode::snapshot;
  world::ReferenceGame game(map);
  ServerOps ops(mono_now(), o.tick_hz, o.max_clients);
  if (!o.ops.empty()) {
    if (!ops.serve(o.ops, error)) {
      std::fprintf(stderr, "tickwire server: %s\n", error.c_str());
      return 2;
    }
    std::printf("%s\n", nlohmann::json({{"type", "ops"}, {"address", ops.address()}, {"lifecycle", ops.state_name()}}).dump().c_str());
    std::fflush(stdout);
  }
  const auto stopped = [&](int code) {
    ops.move_to(fleet::LifecycleState::stopped, nullptr, nullptr, mono_now());
    return code;
  };
  std::unique_ptr<DurableServer> kept;
  if (!o.durable.store_url.empty()) {
    config.pawn_hold = Duration::from_seconds(o.pawn_hold_s);
    config.policy.identity.room_id = o.durable.room;
    const auto resume_key = resume_key_for(*key, o.durable.resume_key_path, error);
    if (!resume_key) {
      std::fprintf(stderr, "tickwire server: %s\n", error.c_str());
      return stopped(2);
    }
    // Waiting for the lease is the loop while it lasts: it beats, so /healthz stays 200 (starting).
    kept = DurableServer::take(o.durable, *resume_key, error, [&ops] {
      ops.beat(mono_now());
      return !stop_requested();
    });
    if (!kept) {
      std::fprintf(stderr, "tickwire server: %s\n", error.c_str());
      return stopped(3);
    }
  }
  if (!o.initial_state.empty()) {
    auto bytes = read_save_state_file(o.initial_state, error);
    if (!bytes) {
      std::fprintf(stderr, "tickwire server: --initial-state: %s\n", error.c_str());
      return stopped(2);
    }
    config.initial_state = std::move(*bytes);
  }
  ServerOpen opened = Server::open(config, game);
  if (!opened) {
    std::fprintf(stderr, "tickwire server: %s\n", opened.error.c_str());
    return stopped(2);
  }
  Server& server = *opened.server;
  if (kept && !kept->keep(server, error)) {
    std::fprintf(stderr, "tickwire server: %s\n", error.c_str());
    return stopped(3);
  }
  std::unique_ptr<RecordingFile> recording;
  if (!o.record_path.empty()) {
    recording = std::make_unique<RecordingFile>(server.room(), o.record_path, error);
    if (!recording->ok()) {
      std::fprintf(stderr, "tickwire server: %s\n", error.c_str());
      return stopped(2);
    }
  }
  std::unique_ptr<ServerDashboard> dashboard;
  if (!o.http.empty()) {
    dashboard = ServerDashboard::open(http_listen_address(o.http), server, map, ops.lend_routes(), error);
    if (!dashboard) {
      std::fprintf(stderr, "tickwire server: %s\n", error.c_str());
      return stopped(2);
    }
  }
  ops.move_to(fleet::LifecycleState::ready, &server, kept.get(), server.now());
  const MonoTime start = server.now();
  nlohmann::json ready = {{"type", "ready"},
                                {"address", server.local_address()},
                                {"public", server.public_address()},
                                {"map", map.content_hash_hex()},
                                {"contract_hash", server.contract_hash_hex()},
                                {"mode", o.mode},
                                {"prediction", prediction_json(server.contract().prediction)}};
  if (kept) ready["recovered"] = kept->recovery_json();
  if (!o.initial_state.empty()) {
    ready["initial_state"] = {{"path", o.initial_state},
                              {"bytes", config.initial_state.size()},
                              {"tick", server.room().last_tick().value()},
                              {"held_pawns", server.room().held_pawns().size()}};
  }
  if (!o.ops.empty()) ready["ops"] = ops.address();
  if (dashboard) ready["http"] = dashboard->address();
  ready["lifecycle"] = ops.state_name();
  std::printf("%s\n", ready.dump().c_str());
  std::fflush(stdout);

  Tally tally;
  InputSources sources;
  MonoTime next_stats = start + Duration::from_seconds(o.stats_interval_s);
  bool block_sent = o.block_mb <= 0;
  const auto line = [&](const char* type, MonoTime at) {
    nlohmann::json j = stats_line(type, (at - start).seconds_f(), server, tally);
    if (kept) j["durable"] = kept->stats_json();
    if (dashboard) {
      j["dashboard"] = {{"pages", dashboard->pages_open()},
                        {"lines", dashboard->lines_published()},
                        {"publish_ms_total", dashboard->publish_us_total() / 1000.0}};
    }
    j["lifecycle"] = ops.state_name();
    if (recording) j["recording"] = recording->json();
    std::printf("%s\n", j.dump().c_str());
    std::fflush(stdout);
  };
  int exit_code = 0;
  while (!stop_requested() && (o.seconds <= 0 || (server.now() - start).seconds_f() < o.seconds)) {
    if (kept && !kept->authority()) {  // the lease is gone or the store failed: the room stops here
      line("server_stopped", server.now());
      exit_code = 3;
      break;
    }
    const MonoTime woke = server.wait_for_next_tick();
    const ServerUpdate update = server.update(woke);
    if (recording) recording->flush();
    if (dashboard) dashboard->follow(server, woke, tally.interval_cost_us);
    const MonoTime done = mono_now();  // the dashboard's share counts in the tick cost
    ops.follow(server, kept.get(), done);
    if (update.ticks_run > 0) {
      const double cost_us = (done - woke).seconds_f() * 1e6 / update.ticks_run;
      tally.tick_cost_us.add(cost_us);
      tally.interval_cost_us.add(cost_us);
      ops.add_tick_cost(cost_us / 1e6);
      sources.add(server.clients(), tally.input);
    }
    if (!block_sent && (done - start).seconds_f() >= o.block_at_s) {
      block_sent = true;
      const std::size_t bytes = send_block(server, o.block_mb);
      std::printf("{\"type\":\"block\",\"t\":%.3f,\"bytes_per_client\":%zu}\n", (done - start).seconds_f(), bytes);
    }
    if (done >= next_stats) {
      line("server", done);
      tally.interval_cost_us = SampleStats{};
      next_stats = next_stats + Duration::from_seconds(o.stats_interval_s);
    }
  }
  if (exit_code == 0) {
    // A drain: /readyz says 503 from here on; the seated players play on for the grace (until the
    // room empties or another signal comes), then the room is checkpointed and its lease given up
    // before the clients are let go, so their resume tokens name pawns the next holder has. A new
    // player arriving during the grace is denied at the handshake (netcode's
    // request_denied_by_server); one resuming its held pawn is not.
    server.room_server().set_admissions_open(false);
    ops.move_to(fleet::LifecycleState::draining, &server, kept.get(), server.now());
    line("server_draining", server.now());
    drain_grace(server, kept.get(), ops, o.drain_grace_s);
    if (kept && !kept->drain(server)) exit_code = 3;
  }
  if (!o.save_state.empty() && !save_room(server, o.save_state)) exit_code = 2;
  const MonoTime end = server.now();
  server.stop();  // redundant disconnect packets to every client
  if (recording) recording->flush();
  ops.move_to(fleet::LifecycleState::stopped, &server, kept.get(), end);
  line("server_final", end);
  return exit_code;
}

}  // namespace

void register_server(CLI::App& app) {
  auto* cmd = app.add_subcommand("server", "run a dedicated server with the reference game");
  static ServerOptions o;
  cmd->add_option("--map", o.map_path, "map file (default: the built-in reference map)");
  cmd->add_option("--key", o.key_path, "private key file (or TICKWIRE_PRIVATE_KEY)");
  cmd->add_option("--bind", o.bind, "address to bind (numeric)");
  cmd->add_option("--port", o.port, "UDP port")->check(CLI::Range(1, 65535));
  cmd->add_option("--public", o.public_address, "HOST:PORT tokens list, e.g. a conditioner's listen address");
  cmd->add_option("--protocol-id", o.protocol_id, "the game's netcode protocol id (tokens must carry it)");
  cmd->add_option("--tick-hz", o.tick_hz, "simulation ticks per second")->check(CLI::Range(1, 240));
  cmd->add_option("--snapshot-hz", o.snapshot_hz,
                  "world-lane snapshots per second (a divisor of the tick rate; the pose lane runs every tick; "
                  "default: the tick rate)")
      ->check(CLI::Range(0, 240));
  cmd->add_option("--forgiveness", o.forgiveness, "1.0: the server's answer always stands; below: claims may be adopted")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--initial-state", o.initial_state,
                  "start the room from this save state (a --save-state file): its world as saved, its players' pawns "
                  "held for them (with --store they come back by their resume tokens)");
  cmd->add_option("--save-state", o.save_state, "write the room's save state to this file when the server stops");
  cmd->add_option("--mode", o.mode,
                  "snapshot (clients tick with the room) or server-time (clients run their own logic rates, inputs "
                  "stamped with the server's time; docs/server-time-mode.md)")
      ->check(CLI::IsMember({"snapshot", "server-time"}));
  cmd->add_option("--time-scale", o.time_scale, "world seconds a tick advances, in tick lengths (0 pauses the world)")
      ->check(CLI::Range(0.0, static_cast<double>(protocol::kMaxWorldTimeScale)));
  cmd->add_option("--max-clients", o.max_clients, "client slots (owner ids are 10 bits; 0 is the authority)")
      ->check(CLI::Range(uint32_t{1}, kRoomMaxSessions));
  cmd->add_option("--store", o.durable.store_url,
                  "keep the room durable in this store: sqlite:DIR (or a path) or postgresql://... (seed 003)");
  cmd->add_option("--room", o.durable.room, "the room's name in the store (with --store)");
  cmd->add_option("--epoch", o.durable.epoch, "the tick stream's epoch to advance to: legacy, canonical or kernel")
      ->check(CLI::IsMember({"legacy", "canonical", "kernel"}));
  cmd->add_option("--checkpoint-every", o.durable.checkpoint_every_ticks, "ticks between checkpoints (0: the journal alone)");
  cmd->add_option("--lease-term", o.durable.lease_term_s, "seconds a lease lasts unless renewed")->check(CLI::Range(1.0, 600.0));
  cmd->add_option("--resume-key", o.durable.resume_key_path, "key file signing resume tokens (default: the private key)");
  cmd->add_option("--token-life", o.durable.token_life_s, "seconds a resume token is good for")->check(CLI::Range(1.0, 3600.0));
  cmd->add_option("--pawn-hold", o.pawn_hold_s, "seconds a departed player's pawn waits for its resume token (with --store)")
      ->check(CLI::Range(0.0, 3600.0));
  cmd->add_option("--http", o.http,
                  "serve the live dashboard (and /healthz, /readyz, /metrics) on this port of loopback, or on HOST:PORT")
      ->check([](const std::string& v) { return http_listen_address(v).empty() ? "a PORT or a numeric HOST:PORT" : ""; });
  cmd->add_option("--ops", o.ops, "serve /healthz, /readyz and /metrics over HTTP on this numeric HOST:PORT (port 0: any free one)");
  cmd->add_option("--drain-grace", o.drain_grace_s,
                  "seconds a drain (SIGTERM) lets seated players play on before they are let go (0: none)")
      ->check(CLI::Range(0.0, 3600.0));
  cmd->add_option("--stats-interval", o.stats_interval_s, "seconds between JSON stats lines")->check(positive_number());
  cmd->add_option("--seconds", o.seconds, "stop after this long (0: run until SIGINT/SIGTERM)")->check(non_negative_number());
  cmd->add_option("--block-mb", o.block_mb, "send every client a reliable block of this many MB mid-game (0: none)")
      ->check(CLI::Range(0.0, 8.0));
  cmd->add_option("--block-at", o.block_at_s, "seconds into the run the block goes")->check(non_negative_number());
  cmd->add_option("--record", o.record_path,
                  "write a room recording of the run to FILE (replayed by `tickwire replay FILE`)");
  add_pawn_body_option(cmd, o.pawn_body);
  cmd->callback([] { set_exit_code(run_server(o)); });
}

}  // namespace tickwire::cli
