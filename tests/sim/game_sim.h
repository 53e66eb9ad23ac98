// The whole game on the simulated network: a Server (the facade, on a simulated socket and the
// world's clock) running the reference game (the shared CharacterMover, the PawnPlacer, the
// ForgivenessGate) and N Clients (the facade: session, clock regulation, prediction through the
// mover, interpolation), each on its own seeded link and rendering at its own jittered frame rate,
// all on one virtual clock and reproducible from the seed.
// Tests watch every server tick (the game is wrapped) and every client frame, and judge the
// per-client QualityReport.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../world/watched_game.h"
#include "room_sim.h"
#include "tickwire/client.h"
#include "tickwire/client/game_client.h"
#include "tickwire/server.h"
#include "tickwire/server/admission_grants.h"
#include "tickwire/core/rng.h"
#include "tickwire/world/bot_brain.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/mover_prediction_model.h"
#include "tickwire/world/object_solids.h"
#include "tickwire/world/reference_game.h"
#include "tickwire/world/reference_map.h"
#include "tickwire/world/reference_vocabulary.h"

namespace tickwire::test {

// A flat 1 km floor with spawn points in a row along x, every one facing +z (yaw 0), so a pawn
// walking forward goes straight for hundreds of metres. `slab`: a ceiling 1.2 m up over the first
// spawn's path from 3 m to 20 m ahead (crouched pawns fit under it, standing ones do not).
inline std::string flat_map_json(bool slab = false) {
  std::string boxes = R"({"tag": "floor", "material": "concrete", "min": [-500, -1, -500], "max": [500, 0, 500]})";
  if (slab) boxes += R"(, {"tag": "slab", "material": "concrete", "min": [-2, 1.2, -397], "max": [2, 1.5, -380]})";
  std::string spawns;
  for (int i = 0; i < 16; ++i) {
    spawns += (i ? ", " : "") + std::string(R"({"position": [)") + std::to_string(i * 10) + R"(, 0, -400], "yaw_deg": 0})";
  }
  return R"({"format": "tickwire-map", "version": 1, "name": "flat", "boxes": [)" + boxes + R"(], "spawns": [)" +
         spawns + R"(], "objects": []})";
}

inline world::Map load_test_map(const std::string& text) {
  auto loaded = world::load_map(text);
  TW_ASSERT(loaded.ok(), "the test map loads");
  return std::move(loaded).value();
}

struct GameSimConfig {
  uint32_t tick_rate_hz = 60;
  uint32_t snapshot_rate_hz = 0;  // 0: the tick rate (the world lane on every tick)
  double forgiveness = 1.0;
  world::MoverSettings mover;
  std::string map_text;  // empty: the reference map
  // Nonzero: the server's host oversleeps to multiples of this (a burst host); when the room is
  // behind it runs again at once (the pacer returns immediately), at most max catch-up per update.
  Duration server_wake_every;
  // Set: the room's prediction policy instead of the reference game's (a kinematic controller its
  // clients predict); the game still steps its mover, the contract says what clients may predict.
  std::optional<PredictionPolicy> prediction;
  // Set: a last word on the room's policy (a test's own limits).
  std::function<void(RoomPolicy&)> adjust_policy;
  Duration pawn_hold;  // how long a departed player's pawn is held (ServerConfig::pawn_hold)
  std::vector<uint8_t> initial_state;  // a save state the room starts from (ServerConfig::initial_state)
};

struct GameClientSetup {
  LinkModel up;    // client -> server
  LinkModel down;  // server -> client
  double frame_hz = 144.0;
  double frame_jitter = 0.2;  // each frame's length varies uniformly by +- this fraction
  InputSource input;          // empty: a wandering bot seeded from the run's seed
  const PredictionModel* model = nullptr;  // empty: the honest mover over the map's boxes
  bool world_authority = false;            // its token grants world authority (it may edit the scene)
  std::vector<uint8_t> resume_token;       // its token presents it (it asks back into the pawn it names)
  uint32_t logic_hz = 0;                   // a server-time room: its own logic rate (0: the room's tick rate)
};

// The user data a sim client's token carries: its grants.
inline netcode::UserData sim_user_data(bool world_authority, const std::vector<uint8_t>& resume_token = {}) {
  netcode::UserData user_data{};
  AdmissionGrants grants;
  grants.world_authority = world_authority;
  grants.resume_token = resume_token;
  if (world_authority || !resume_token.empty()) TW_ASSERT(write_admission_grants(grants, user_data), "a sim client's grants fit");
  return user_data;
}

// A client facade on a simulated socket, its token minted with the sim's key.
inline std::unique_ptr<Client> open_sim_client(SimWorld& world, SimSocket& socket, const netcode::Key& key,
                                               uint64_t client_id, const PredictionModel* model,
                                               const GameVocabulary& vocabulary = world::reference_vocabulary(),
                                               const netcode::UserData& user_data = {}, uint32_t logic_hz = 0) {
  ClientConfig config;
  config.logic_hz = logic_hz;
  config.dev_user_data = user_data;
  config.server_address = server_address().to_string();
  config.dev_private_key = key;
  config.client_id = client_id;
  config.vocabulary = vocabulary;
  config.model = model;
  config.socket = &socket;
  ClientOpen opened = Client::open(config, world.now, world.wall());
  TW_ASSERT(opened, "a sim client opens");
  return std::move(opened.client);
}

struct SimGameClient {
  SimGameClient(SimWorld& world, const Address& address, const netcode::Key& key, uint64_t client_id,
                const PredictionModel* model, const netcode::UserData& user_data = {}, uint32_t logic_hz = 0)
      : socket(world.net.bind(address)),
        facade(open_sim_client(world, *socket, key, client_id, model, world::reference_vocabulary(), user_data, logic_hz)),
        client(facade->game()) {}
  std::unique_ptr<SimSocket> socket;
  std::unique_ptr<Client> facade;
  GameClient& client;
  InputSource input;
  Duration frame_period;
  double frame_jitter = 0.0;
  MonoTime next_frame;
  std::vector<MonoTime> produced_at;      // when each input sequence was made (index: sequence)
  std::vector<double> input_to_apply_ms;  // server side: from making an input to its tick applying it

  EntityRef pawn() const { return EntityRef::from_raw(client.session().welcome()->pawn_ref); }
};

// The reference game's room policy for a sim.
// A server's config over a simulated socket and timer, the test room's policy, nothing run: for
// what Server::open refuses or accepts.
struct SimServerSetup {
  SimWorld world{3};
  std::unique_ptr<SimSocket> socket = world.net.bind(server_address());
  WorldTimer timer{world};
  ServerConfig config = [this] {
    ServerConfig c;
    c.socket = socket.get();
    c.timer = &timer;
    c.policy = test_room_policy();
    return c;
  }();
};

inline RoomPolicy game_sim_policy(const GameSimConfig& config) {
  RoomPolicy policy = test_room_policy(config.tick_rate_hz, config.forgiveness);
  policy.cadence.snapshot_rate_hz = config.snapshot_rate_hz == 0 ? config.tick_rate_hz : config.snapshot_rate_hz;
  world::apply_reference_policy(policy);
  if (config.prediction) policy.prediction = *config.prediction;
  if (config.adjust_policy) config.adjust_policy(policy);
  return policy;
}

class GameSim {
 public:
  GameSim(uint64_t seed, const GameSimConfig& config, uint32_t max_clients = 16)
      : config_(config),
        world(seed),
        rng_(seed ^ 0x9e3779b97f4a7c15ull),
        seed_(seed),
        key(fixed_key(static_cast<uint8_t>(seed))),
        server_socket(world.net.bind(server_address())),
        timer(world),
        map(load_test_map(config.map_text.empty() ? std::string(world::reference_map_text()) : config.map_text)),
        game(map, config.mover),
        watched(game),
        mover(config.mover),
        statics(world::map_solid_boxes(map)),
        solids(world::ObjectSolids::build(map)),
        honest_model(mover, statics, &solids),
        facade(open_sim_server(game_sim_policy(config), watched, *server_socket, timer, world, key, max_clients, "tickwire",
                               config.pawn_hold, config.initial_state)),
        room(facade->room()),
        server(facade->room_server()) {
    server_wake_ = room.next_due();
    watched.on_input = [this](EntityRef pawn, const TickInput& input) { note_applied(pawn, input); };
  }

  SimGameClient& add_client(const GameClientSetup& setup) {
    const uint32_t i = static_cast<uint32_t>(clients.size());
    const Address address = client_address(i);
    world.net.set_link(address, server_address(), setup.up);
    world.net.set_link(server_address(), address, setup.down);
    clients.push_back(std::make_unique<SimGameClient>(world, address, key, 7000 + i,
                                                      setup.model != nullptr ? setup.model : &honest_model,
                                                      sim_user_data(setup.world_authority, setup.resume_token),
                                                      setup.logic_hz));
    SimGameClient& c = *clients.back();
    c.input = setup.input;
    if (!c.input) {
      auto brain = std::make_shared<world::BotBrain>(world::BotBehaviour::wander, seed_ * 7919 + i);
      c.input = [brain](uint32_t sequence) { return brain->next(sequence); };
    }
    c.frame_period = Duration::from_seconds(1.0 / setup.frame_hz);
    c.frame_jitter = setup.frame_jitter;
    c.next_frame = world.now;
    return c;
  }

  // Client i again, as a new connection with another client id (a kicked client coming back): its
  // socket, its facade and its session are new; its link, input and frame rate stay.
  SimGameClient& reopen_client(std::size_t i, uint64_t client_id) {
    std::unique_ptr<SimGameClient>& slot = clients[i];
    const InputSource input = slot->input;
    const Duration period = slot->frame_period;
    const double jitter = slot->frame_jitter;
    slot.reset();  // frees its address first
    slot = std::make_unique<SimGameClient>(world, client_address(static_cast<uint32_t>(i)), key, client_id, &honest_model);
    slot->input = input;
    slot->frame_period = period;
    slot->frame_jitter = jitter;
    slot->next_frame = world.now;
    return *slot;
  }

  // Client i's process dies without a word (its socket stays bound and silent: the server hears of
  // it only at the link's timeout) and a new one starts at a new address: a new connection with
  // `client_id`, its token presenting `resume_token`, over lossless links; its input and frame rate stay.
  SimGameClient& restart_client(std::size_t i, uint64_t client_id, const std::vector<uint8_t>& resume_token) {
    const Address address = client_address(static_cast<uint32_t>(kRestartAddressBase + dead_clients_.size()));
    std::unique_ptr<SimGameClient> fresh = std::make_unique<SimGameClient>(world, address, key, client_id, &honest_model,
                                                                           sim_user_data(false, resume_token));
    fresh->input = clients[i]->input;
    fresh->frame_period = clients[i]->frame_period;
    fresh->frame_jitter = clients[i]->frame_jitter;
    fresh->next_frame = world.now;
    dead_clients_.push_back(std::move(clients[i]));
    clients[i] = std::move(fresh);
    return *clients[i];
  }

  // Client i's process stops dead (no frame runs; its socket stays bound and silent) until thawed:
  // a frozen tab, a debugger, a machine asleep.
  void freeze_client(std::size_t i) { clients[i]->next_frame = MonoTime::from_ns(std::numeric_limits<int64_t>::max()); }
  void thaw_client(std::size_t i) { clients[i]->next_frame = world.now; }

  // Datagrams waiting in the receive queues of every socket the sim bound (a frozen or dead
  // client's fill until the server lets it go): memory the network holds, not the system.
  std::size_t datagrams_waiting() const {
    std::size_t waiting = server_socket->queued();
    for (const auto& c : clients) waiting += c->socket->queued();
    for (const auto& c : dead_clients_) waiting += c->socket->queued();
    return waiting;
  }

  bool all_welcomed() const {
    return std::all_of(clients.begin(), clients.end(), [](const auto& c) { return c->client.session().welcomed(); });
  }

  void run_for(Duration duration) {
    const MonoTime end = world.now + duration;
    while (world.now < end) {
      run_clients_until(std::min(server_wake_, end));
      if (world.now >= server_wake_) {
        const auto began = std::chrono::steady_clock::now();
        const RoomUpdate update = server.update(world.now, world.wall());
        if (update_wall_ms != nullptr && update.ticks_run > 0)
          update_wall_ms->push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count());
        check_room_update(room, update, world.now, invariants);
        if (after_update) after_update(update);
        server_wake_ = std::max(wake(room.next_due()), world.now + Duration::microseconds(1));
      }
    }
  }

  const world::PawnState& pawn_of(const SimGameClient& c) const { return *game.pawn(c.pawn()); }

  // Every client's report, printed under `name` (and their merge as "all").
  QualityReport print_reports(const std::string& name) const {
    QualityReport all;
    bool first = true;
    for (std::size_t i = 0; i < clients.size(); ++i) {
      const auto report = clients[i]->client.quality_report();
      if (!report) continue;
      if (clients.size() <= 4) std::fputs(format_quality_report(name + " c" + std::to_string(i), *report).c_str(), stdout);
      if (first) all = *report;
      else merge_quality_reports(all, *report);
      first = false;
    }
    std::fputs(format_quality_report(name + " all", all).c_str(), stdout);
    std::vector<double> apply_ms;
    for (const auto& c : clients) apply_ms.insert(apply_ms.end(), c->input_to_apply_ms.begin(), c->input_to_apply_ms.end());
    std::sort(apply_ms.begin(), apply_ms.end());
    if (!apply_ms.empty()) {
      std::printf("%s all input->apply (server): %zu inputs, p50 %.0f ms, p99 %.0f ms, max %.0f ms\n", name.c_str(),
                  apply_ms.size(), apply_ms[apply_ms.size() / 2], apply_ms[apply_ms.size() * 99 / 100], apply_ms.back());
    }
    print_server_inputs(name);
    std::fflush(stdout);
    return all;
  }

  // The server's side of the clients' inputs: how its ticks were fed (fresh, a starved run's repeat
  // or zeroed input) and every input it dropped, by reason (an overflow or a stale input is one the
  // player pressed and the server never ran: a correction the client will see).
  void print_server_inputs(const std::string& name) const {
    uint64_t fresh = 0, repeated = 0, zeroed = 0;
    std::map<std::string, uint64_t> drops;
    for (const ClientLink& link : facade->clients()) {
      fresh += link.fresh_ticks;
      repeated += link.repeated_ticks;
      zeroed += link.zeroed_ticks;
      for (const ReasonCount& r : link.reasons) {
        if (r.name.starts_with("input.drop.")) drops[r.name.substr(11)] += r.count;
      }
    }
    std::string dropped;
    for (const auto& [reason, count] : drops) dropped += " " + reason + " " + std::to_string(count);
    std::printf("%s all server ticks: %llu fresh, %llu repeated, %llu zeroed; inputs dropped:%s\n", name.c_str(),
                static_cast<unsigned long long>(fresh), static_cast<unsigned long long>(repeated),
                static_cast<unsigned long long>(zeroed), dropped.empty() ? " none" : dropped.c_str());
  }

  // Called after each client frame (every client, in time order).
  std::function<void(SimGameClient&)> after_frame;
  // Set: when the server's host really wakes for a due time, at or after it (a collector's pause, a
  // busy host), before server_wake_every's rounding.
  std::function<MonoTime(MonoTime due)> wake_late;
  // Called after each server update, once the built-in invariants were checked (the swarm judges
  // its own there).
  std::function<void(const RoomUpdate&)> after_update;
  // Called with every input a pawn's tick took (fresh or not), as the room hands it to the game.
  std::function<void(EntityRef, const TickInput&)> on_input;
  // Set: the real (wall) time each server update that ran a tick took, in ms (a cost figure).
  std::vector<double>* update_wall_ms = nullptr;

 private:
  GameSimConfig config_;

 public:
  SimWorld world;

 private:
  Rng rng_;
  uint64_t seed_;
  static constexpr uint32_t kRestartAddressBase = 1024;
  std::vector<std::unique_ptr<SimGameClient>> dead_clients_;  // killed processes: never run again

 public:
  netcode::Key key;
  std::unique_ptr<SimSocket> server_socket;
  WorldTimer timer;
  world::Map map;
  world::ReferenceGame game;
  WatchedGame watched;
  world::CharacterMover mover;
  std::vector<world::Aabb> statics;  // the map's boxes and its objects' static bodies, as a client predicts against
  world::ObjectSolids solids;        // and its doors and lifts
  world::MoverPredictionModel honest_model;
  std::unique_ptr<Server> facade;
  Room& room;
  RoomServer& server;
  std::vector<std::unique_ptr<SimGameClient>> clients;
  RoomInvariants invariants;

 private:
  MonoTime server_wake_;

  MonoTime wake(MonoTime due) const {
    if (wake_late && due > world.now) due = std::max(due, wake_late(due));
    const int64_t every = config_.server_wake_every.ns();
    if (every == 0 || due <= world.now) return due;
    return MonoTime::from_ns((due.ns() + every - 1) / every * every);
  }

  void note_applied(EntityRef pawn, const TickInput& input) {
    if (on_input) on_input(pawn, input);
    if (!input.fresh()) return;
    for (auto& c : clients) {
      if (!c->client.session().welcomed() || c->pawn() != pawn) continue;
      if (input.sequence < c->produced_at.size()) {
        c->input_to_apply_ms.push_back((world.now - c->produced_at[input.sequence]).milliseconds_f());
      }
      return;
    }
  }

  void run_clients_until(MonoTime until) {
    run_client_frames_until(world, until, clients, [this](SimGameClient& c) { client_frame(c); });
  }

  void client_frame(SimGameClient& c) {
    c.facade->frame(world.now, [this, &c](uint32_t sequence) {
      if (c.produced_at.size() <= sequence) c.produced_at.resize(sequence + 1);
      c.produced_at[sequence] = world.now;
      return c.input(sequence);
    });
    if (after_frame) after_frame(c);
    const double scale = 1.0 + c.frame_jitter * (2.0 * rng_.unit() - 1.0);
    c.next_frame = world.now + Duration::from_seconds(c.frame_period.seconds_f() * scale);
  }
};

// A scripted walker: forward at a fixed heading (yaw 0 walks +z), nothing else.
inline InputSource walk_forward(float yaw_deg = 0.0f) {
  return [yaw_deg](uint32_t) {
    protocol::InputCmd cmd;
    cmd.move_y = 1.0f;
    cmd.yaw_deg = yaw_deg;
    return cmd;
  };
}

}  // namespace tickwire::test
