// tickwire::Server: a dedicated server in one object. A game's server main is a config, its
// Simulation and a loop:
//
//   tickwire::ServerConfig config;
//   config.bind = "0.0.0.0:40000";
//   config.private_key = key;                       // shared with the backend that mints tokens
//   config.policy.vocabulary = my_game_vocabulary();
//   MyGame game;
//   auto opened = tickwire::Server::open(config, game);
//   if (!opened) return fail(opened.error);
//   while (running) opened.server->run_once();     // waits for the next tick, runs it, sends
//
// Under it: the socket, netcode 1.02 connections, the reliability layer, the room (its clock, its
// contract resolved from the policy, the sessions and their inputs), replication and the paced
// loop. Everything an operator needs to see (per-client links, refusals, drops, relay) is read
// through stats() and clients(); the machinery itself stays behind this header.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/protocol/netcode_contract.h"
#include "tickwire/protocol/room_policy.h"
#include "tickwire/server/room_save_state.h"
#include "tickwire/server/simulation.h"
#include "tickwire/snapshot_inspection.h"
#include "tickwire/stats.h"
#include "tickwire/transport/netcode_constants.h"
#include "tickwire/transport/netcode_crypto.h"

namespace tickwire {

class DatagramSocket;
class HostTimer;
class NetcodeServer;
class Room;
class RoomServer;
class RoomLoop;
class SchemaCache;

struct ServerConfig {
  std::string bind = "127.0.0.1:40000";  // numeric HOST:PORT to bind ("[::1]:40000" for IPv6; port 0: any)
  std::string public_address;            // the HOST:PORT tokens list (a proxy's); empty: the bound address
  netcode::Key private_key{};            // shared with the backend that mints connect tokens
  uint64_t protocol_id = netcode::kDefaultProtocolId;  // the game's own: tokens for another are refused
  uint32_t max_clients = 64;                           // 1..1023 (kRoomMaxSessions)
  // Clients connected per update (0: no cap). A join costs its connection's memory, the room's
  // admission and a first snapshot (about half a millisecond here), so a crowd connecting at once
  // joins over a few updates instead of stalling one: the rest wait in a queue, counted as
  // netcode.reject.response_deferred, and connect in the next updates.
  uint32_t max_joins_per_update = 16;
  RoomPolicy policy;                                   // resolved into the room's netcode contract
  std::string build_name = "tickwire";                 // names this build in the connect sequence
  // Injected instead of the real ones (simulations, tests): the socket to serve on (`bind` is then
  // ignored) and the timer that paces run_once(). Both must outlive the server.
  DatagramSocket* socket = nullptr;
  HostTimer* timer = nullptr;
  WallTime wall_at_start;  // with an injected timer: the wall time at its now() (tokens, records)
  // How long a departed player's pawn is held for it to come back into (seed 003: with a resume
  // token, RoomServer::offer_resume); zero: a pawn leaves with its session.
  Duration pawn_hold;
  // A save state (Server::save_state, seed 002) the room starts from: its tick, world settings,
  // held pawns and the game's whole state, as saved; its first tick is the one after the saved one,
  // due at once. The saved sessions have no connection here, so each one's pawn is held for its
  // player (pawn_hold; with zero it leaves), to come back into with a resume token. Refused by
  // name at open when it does not load (the game must be fresh, over the same map and contract).
  std::vector<uint8_t> initial_state;
};

// What one update did.
struct ServerUpdate {
  uint32_t ticks_run = 0;
  int64_t last_tick = 0;  // the newest tick simulated
};

class Server;

// The result of Server::open: the server, or why it could not start.
struct ServerOpen {
  std::unique_ptr<Server> server;
  std::string error;  // e.g. "bind 127.0.0.1:40000: Address already in use"
  explicit operator bool() const { return server != nullptr; }
};

class Server {
 public:
  // Opens (or takes) the socket, resolves the policy into the contract (refused with the field it
  // names), starts the room and accepts connections. `game` must outlive the server.
  static ServerOpen open(const ServerConfig& config, Simulation& game);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Sleeps (then spins) on the timer until the room's next tick is due; returns the time it woke.
  MonoTime wait_for_next_tick();
  // One iteration at `now`: receive, run the due ticks (their snapshots go out), send.
  ServerUpdate update(MonoTime now);
  ServerUpdate run_once() { return update(wait_for_next_tick()); }
  // Disconnects every client (each hears it) and stops accepting.
  void stop();
  // The room's whole state (seed 002's save state: Room::save_whole), for ServerConfig::
  // initial_state of a server that takes over, a late joiner's room, or a debug replay. Written
  // into `out` (replaced); nullopt, or why not (the game writes no state: game_unsaved).
  std::optional<SaveStateRefusal> save_state(std::vector<uint8_t>& out);

  // A game message of the game's own type (>= 256) for one client, reliable and in order (at most
  // kSessionMaxGameMessageBytes, 64 KiB less its envelope, each: a bigger download goes as several). Queued in the
  // client's outbox (8 MiB at most) and sent as the link takes it, beside the snapshots; the client
  // reads it with Client::receive_message (from 0). False, counted by reason, when refused.
  bool send(OwnerId owner, MessageType type, std::span<const uint8_t> payload);

  // The world settings (seed 000's WorldSettings: forgiveness, world time scale) from the next tick
  // on: every snapshot carries them, clients predict and claim by them, the game hears of them
  // (Simulation::world_settings_changed). The contract's values until set. False, nothing changed,
  // for settings out of range (forgiveness [0, 1], time scale [0, protocol::kMaxWorldTimeScale]).
  bool set_world_settings(const protocol::WorldSettings& settings);
  const protocol::WorldSettings& world_settings() const;

  MonoTime now() const;
  const NetcodeContract& contract() const;
  std::string contract_hash_hex() const;
  std::string local_address() const;   // the bound socket's HOST:PORT
  std::string public_address() const;  // what tokens must list

  ServerStats stats() const;
  std::vector<ClientLink> clients() const;
  // The snapshot inspector: while on for a client, its snapshots' records are logged bit by bit
  // (off costs nothing); snapshot_inspection() takes its newest snapshot apart (nullopt: no such
  // admitted client, or no snapshot built for it yet).
  void inspect_snapshots(OwnerId owner, bool on);
  std::optional<SnapshotInspection> snapshot_inspection(OwnerId owner) const;

  // The machinery, for tools and tests that look deeper (internal headers).
  RoomServer& room_server();
  const RoomServer& room_server() const;
  Room& room();
  const Room& room() const;
  NetcodeServer& netcode();
  const RoomLoop& loop() const;
  const SchemaCache& schemas() const;
  struct Parts;  // the machinery (defined with the implementation)

 private:
  explicit Server(std::unique_ptr<Parts> parts);
  std::unique_ptr<Parts> parts_;
};

}  // namespace tickwire
