// A whole room on the simulated network: a Server (the facade: netcode + reliability + sessions +
// room, on a simulated socket and the world's clock) and any number of SessionClients, each sending one scripted input per client tick at its own
// rate, all on one virtual clock and reproducible from the seed. After every server iteration and
// every accepted snapshot the invariants of the tick loop are checked and violations counted.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

#include "netcode_test_support.h"
#include "test_simulation.h"
#include "tickwire/client/session_client.h"
#include "tickwire/protocol/wire_messages.h"
#include "tickwire/clock/sim_host_timer.h"
#include "tickwire/server.h"
#include "tickwire/server/room_loop.h"
#include "tickwire/server/room_server.h"

namespace tickwire::test {

inline RoomPolicy test_room_policy(uint32_t tick_rate_hz = 60, double forgiveness = 1.0) {
  RoomPolicy policy;
  policy.identity = {"room-sim", "tickwire-test", "sim", "content-1", "test", "", ""};
  policy.cadence.tick_rate_hz = tick_rate_hz;
  policy.cadence.snapshot_rate_hz = tick_rate_hz;
  policy.input.forgiveness = forgiveness;
  policy.vocabulary = test_vocabulary();
  policy.prediction = {PawnBody::kinematic_controller, MovementAuthority::client_predicted};
  return policy;
}

inline NetcodeContract default_test_contract(uint32_t tick_rate_hz = 60, double forgiveness = 1.0) {
  auto resolved = resolve_netcode_contract(test_room_policy(tick_rate_hz, forgiveness));
  TW_ASSERT(resolved.ok(), "the test policy resolves");
  return *resolved.contract;
}

// The snapshot figures the server keeps for the session at `slot` (null: no admitted session).
inline const ReplicationClientStats* snapshot_stats(const RoomServer& server, uint32_t slot) {
  const auto stats = server.stats(slot);
  return stats ? stats->replication : nullptr;
}

// A Server facade on a simulated socket and the world's clock.
inline std::unique_ptr<Server> open_sim_server(const RoomPolicy& policy, Simulation& game, SimSocket& socket,
                                               HostTimer& timer, const SimWorld& world, const netcode::Key& key,
                                               uint32_t max_clients, const std::string& build_name = "tickwire",
                                               Duration pawn_hold = {}, const std::vector<uint8_t>& initial_state = {}) {
  ServerConfig config;
  config.pawn_hold = pawn_hold;
  config.initial_state = initial_state;
  config.private_key = key;
  config.public_address = server_address().to_string();
  config.max_clients = max_clients;
  config.policy = policy;
  config.build_name = build_name;
  config.socket = &socket;
  config.timer = &timer;
  config.wall_at_start = world.wall();
  ServerOpen opened = Server::open(config, game);
  if (!opened) std::fprintf(stderr, "the sim server does not open: %s\n", opened.error.c_str());
  TW_ASSERT(opened, "the sim server opens");
  return std::move(opened.server);
}

// A lossless link with a fixed one-way latency (and optional jitter that keeps order).
inline LinkModel steady_link(double latency_ms, double jitter_ms = 0) {
  LinkModel link;
  link.latency_ms = latency_ms;
  link.jitter_ms = jitter_ms;
  return link;
}

// Invariant violations seen during a run (every field must stay 0).
struct RoomInvariants {
  uint64_t catch_up_over_cap = 0;     // an update ran more than the contract's catch-up ticks
  uint64_t queue_over_cap = 0;        // a session held more than queue_ticks inputs
  uint64_t ack_not_applied = 0;       // a snapshot's ack differs from the input its tick applied
  uint64_t server_ack_ahead = 0;      // the room's report acks more than the pawn applied
  uint64_t clock_unbalanced = 0;      // executed + declared + behind != ideal
  uint64_t total() const {
    return catch_up_over_cap + queue_over_cap + ack_not_applied + server_ack_ahead + clock_unbalanced;
  }
};

// The checks every server iteration must pass whatever the game: catch-up within the contract's
// cap, every session's queue within its capacity, executed + declared + behind = ideal.
// Advances the world to `until`, running each client's frames (`next_frame`) due before it in
// time order: the one clock both the room sims and the game sims step their clients by.
template <class Clients, class Frame>
void run_client_frames_until(SimWorld& world, MonoTime until, const Clients& clients, Frame&& frame) {
  while (true) {
    MonoTime next = until;
    for (const auto& c : clients) next = std::min(next, c->next_frame);
    if (next > world.now) world.advance(next - world.now);
    if (next >= until) break;
    for (const auto& c : clients) {
      if (world.now >= c->next_frame) frame(*c);
    }
  }
}

inline void check_room_update(const Room& room, const RoomUpdate& update, MonoTime now, RoomInvariants& invariants) {
  if (update.ticks_run > room.contract().cadence.max_catch_up_ticks) ++invariants.catch_up_over_cap;
  if (!room.clock().account(now).balanced()) ++invariants.clock_unbalanced;
  room.for_each_session([&](const RoomSession& s) {
    if (s.inputs.queue().waiting_ticks() > room.contract().input.queue_ticks) ++invariants.queue_over_cap;
  });
}

struct SimSessionClient {
  SimSessionClient(SimWorld& world, const Address& address, SchemaCache& cache, const SessionClientConfig& config,
                   const EndpointConfig& endpoint = session_endpoint_config())
      : socket(world.net.bind(address)), netcode(*socket), reliable(netcode, endpoint), session(reliable, cache, config) {}
  std::unique_ptr<SimSocket> socket;
  NetcodeClient netcode;
  ReliableClient reliable;
  SessionClient session;
  double input_rate = 1.0;  // client ticks per server tick
  // Inputs sent ahead in the first frame: a client leads the server by its link's delay, or its
  // starved ticks' inputs arrive late for the ticks the server ran on a guess (a game client's clock
  // regulator builds and keeps this lead; a scripted one starts with it).
  uint32_t lead_ticks = 3;
  MonoTime next_frame;
  bool sending = true;
  uint64_t inputs_sent = 0;
  std::vector<uint32_t> snapshot_ticks;  // every accepted snapshot's tick, in arrival order
};

class RoomSim {
 public:
  // `wake` maps the room's next due time to when the server process really wakes (a stall model);
  // the identity by default.
  RoomSim(uint64_t seed, uint32_t max_clients = 16, const RoomPolicy& policy = test_room_policy())
      : world(seed),
        key(fixed_key(static_cast<uint8_t>(seed))),
        server_socket(world.net.bind(server_address())),
        timer(world),
        client_cache(protocol::protocol_messages().schema_text()),
        facade(open_sim_server(policy, simulation, *server_socket, timer, world, key, max_clients)),
        room(facade->room()),
        server(facade->room_server()),
        netcode(facade->netcode()),
        server_cache(facade->schemas()) {
    server_wake = room.next_due();
  }

  // A session client; its vocabulary is the room's unless the config names one, its schema this
  // build's unless `cache` holds another build's.
  SimSessionClient& add_client(double input_rate = 1.0, SessionClientConfig config = {}, SchemaCache* cache = nullptr) {
    const uint32_t i = static_cast<uint32_t>(clients.size());
    if (config.vocabulary == GameVocabulary{}) config.vocabulary = room.contract().vocabulary;
    clients.push_back(
        std::make_unique<SimSessionClient>(world, client_address(i), cache ? *cache : client_cache, config, client_endpoint));
    SimSessionClient& c = *clients.back();
    c.input_rate = input_rate;
    c.next_frame = world.now;
    c.netcode.connect(mint_token(key, 9000 + i, {server_address()}, world.wall(), 10, 600), world.now);
    return c;
  }

  bool all_welcomed() const {
    return std::all_of(clients.begin(), clients.end(), [](const auto& c) { return c->session.welcomed(); });
  }

  // The client the room knows as `owner` (owner ids follow netcode slots, not the order added).
  SimSessionClient* client_of(OwnerId owner) {
    for (auto& c : clients) {
      if (c->session.welcomed() && c->session.welcome()->owner_id == owner) return c.get();
    }
    return nullptr;
  }
  const TestPawn* pawn_of(const SimSessionClient& c) const {
    if (!c.session.welcomed()) return nullptr;
    auto it = simulation.pawns.find(c.session.welcome()->pawn_ref);
    return it == simulation.pawns.end() ? nullptr : &it->second;
  }

  // Runs the whole system for `duration` of simulated time, the server waking per `wake`.
  void run_for(Duration duration) {
    const MonoTime end = world.now + duration;
    while (world.now < end) {
      run_clients_until(std::min(server_wake, end));
      if (world.now >= server_wake) {
        after_server_update(server.update(world.now, world.wall()));
        server_wake = std::max(wake(room.next_due()), world.now + Duration::microseconds(1));
      }
    }
  }

  // The same with the server paced by a RoomLoop on its own (simulated) host timer, which must
  // start at the world's clock: while the loop sleeps, the clients run; each iteration costs the
  // host `work` of time.
  void run_paced(RoomLoop& loop, SimHostTimer& host, Duration duration, Duration work) {
    const MonoTime end = world.now + duration;
    while (world.now < end) {
      const MonoTime woke = loop.wait_for_next_tick();
      run_clients_until(woke);
      after_server_update(loop.iterate(world.now));
      host.advance(work);
    }
  }

  std::function<MonoTime(MonoTime due)> wake = [](MonoTime due) { return due; };
  // The channel layout of clients added from now on (a receive-side setting may differ from the server's).
  EndpointConfig client_endpoint = session_endpoint_config();
  // Called with every snapshot a client accepts (null: nothing more than the built-in checks).
  std::function<void(SimSessionClient&, const protocol::Snapshot&)> on_snapshot;
  SimWorld world;
  netcode::Key key;
  std::unique_ptr<SimSocket> server_socket;
  WorldTimer timer;
  SchemaCache client_cache;
  TestSimulation simulation;
  std::unique_ptr<Server> facade;
  Room& room;
  RoomServer& server;
  NetcodeServer& netcode;
  const SchemaCache& server_cache;
  std::vector<std::unique_ptr<SimSessionClient>> clients;
  RoomInvariants invariants;
  MonoTime server_wake;
  uint64_t server_iterations = 0;
  uint32_t deepest_update = 0;

 private:
  // Client frames due before `until` run in time order; the world is left at `until`.
  void run_clients_until(MonoTime until) {
    run_client_frames_until(world, until, clients, [this](SimSessionClient& c) { client_frame(c); });
    for (const auto& c : clients) {
      if (world.now >= c->next_frame) client_frame(*c);
    }
  }

  void after_server_update(const RoomUpdate& update) {
    ++server_iterations;
    deepest_update = std::max(deepest_update, update.ticks_run);
    check_room_update(room, update, world.now, invariants);
    room.for_each_session([&](const RoomSession& s) { check_pawn(s); });
  }

  void check_pawn(const RoomSession& s) {
    const TestPawn& pawn = simulation.pawns.at(s.pawn.raw());
    if (s.inputs.prepared_tick()) {
      // Compared without building a local optional from a conditional: GCC 12 at -Os reports one
      // maybe uninitialized when it is compared (GCC bug 80635). Same test as ack != last applied.
      const std::optional<uint32_t>& ack = s.inputs.report().ack_sequence;
      const bool same = !pawn.last_run ? !ack : ack && *ack == *pawn.last_run;
      if (!same) ++invariants.server_ack_ahead;
    }
  }

  void client_frame(SimSessionClient& c) {
    c.session.receive(world.now);
    protocol::Snapshot snapshot;
    while (c.session.pop_snapshot(snapshot)) check_snapshot(c, snapshot);
    const uint32_t inputs = c.inputs_sent == 0 ? 1 + c.lead_ticks : 1;
    for (uint32_t i = 0; i < inputs && c.sending && c.session.welcomed(); ++i) {
      protocol::InputCmd cmd;
      const uint32_t sequence = c.session.inputs().next_sequence();
      cmd.buttons = sequence & 0xffu;
      cmd.move_x = 1.0f;
      cmd.yaw_deg = static_cast<float>(sequence % 360);
      if (c.session.send_input(cmd)) ++c.inputs_sent;
    }
    c.session.send(world.now);
    const double period_s = room.seconds_per_tick() / c.input_rate;
    c.next_frame = c.next_frame + Duration::from_seconds(period_s);
    if (c.next_frame <= world.now) c.next_frame = world.now + Duration::from_seconds(period_s);
  }

  void check_snapshot(SimSessionClient& c, const protocol::Snapshot& snapshot) {
    c.snapshot_ticks.push_back(snapshot.tick);
    if (on_snapshot) on_snapshot(c, snapshot);
    if (!snapshot.owner) return;
    auto it = simulation.pawns.find(c.session.welcome()->pawn_ref);
    if (it == simulation.pawns.end()) return;
    // The acked and applied sequences (either may be none) must be equal; compared without local
    // optionals for GCC bug 80635, as in check_pawn.
    const auto at = it->second.last_applied_at.find(snapshot.tick);
    const std::optional<uint32_t>* applied = at == it->second.last_applied_at.end() ? nullptr : &at->second;
    const auto& ack = snapshot.owner->ack;
    const bool same = applied && *applied ? ack && ack->sequence == **applied : !ack;
    if (!same) ++invariants.ack_not_applied;
  }
};

// Every pawn applied strictly increasing sequences (each at most once, in order).
inline uint64_t out_of_order_applications(const TestPawn& pawn) {
  uint64_t bad = 0;
  for (std::size_t i = 1; i < pawn.applied.size(); ++i) {
    if (pawn.applied[i] <= pawn.applied[i - 1]) ++bad;
  }
  return bad;
}

}  // namespace tickwire::test
