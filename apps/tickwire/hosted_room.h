// One room of a fleet host (`tickwire host`; issue 21, "A fleet"): the reference game behind the
// Server facade, durable in the fleet's shared store. It waits for the room's lease, and once it
// holds it recovers the room from the store (the newest checkpoint plus the journal after it) into a
// fresh server on a UDP socket of its own and serves it; when its keeper loses authority (the lease
// lost, the store gone) it stops serving and waits again. A room the process was given is taken as
// soon as its lease is free; a room it adopts (another process's, for when that process dies) only
// once the room has lived, so a fleet starting up does not have its rooms snatched by whichever
// process came first.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "durable_server.h"
#include "input_tally.h"
#include "tickwire/durable/fleet_listing.h"
#include "tickwire/server.h"
#include "tickwire/world/map.h"
#include "tickwire/world/reference_game.h"

namespace tickwire::cli {

struct HostedRoomSettings {
  const world::Map* map = nullptr;
  ServerConfig server;      // its bind, key, protocol, seats and policy (the identity's room id is set here)
  DurableOptions durable;   // its store, room name, lease term, epoch, owner
  durable::ResumeKey resume_key{};
  TakePolicy take = TakePolicy::any_free;
};

class HostedRoom {
 public:
  // Opens the room's store (the lease not yet tried); null and `error` set when it cannot.
  static std::unique_ptr<HostedRoom> open(const HostedRoomSettings& settings, std::string& error);
  ~HostedRoom();
  HostedRoom(const HostedRoom&) = delete;
  HostedRoom& operator=(const HostedRoom&) = delete;

  const std::string& name() const { return settings_.durable.room; }
  bool serving() const { return server_ != nullptr; }
  bool adopted() const { return settings_.take == TakePolicy::adopt_lived; }
  uint32_t seats() const { return settings_.server.max_clients; }

  // While waiting: one try at the lease; once held, the room is recovered and served. Returns the
  // line to print when something happened (it serves now, or the store failed), else nullopt.
  std::optional<nlohmann::json> try_serve(MonoTime now, double at_s);
  // While serving: when the keeper has lost authority the room stops here (its clients are let go,
  // the keeper dropped) and waits again; returns the line saying why.
  std::optional<nlohmann::json> check_authority(double at_s);

  // Serving only.
  MonoTime next_due() const;
  uint32_t run(MonoTime now);
  Server& server() { return *server_; }
  const Server& server() const { return *server_; }
  // What the directory lists of it: where players connect, its seats, who sits in them.
  durable::DirectoryRoom listing();
  // Its line in the host's: clients, rate, ticks, its input queues (starved and fresh ticks, depths).
  nlohmann::json stats_json() const;
  // A drain's end: a checkpoint, the journal flushed, the lease given up, the clients let go.
  bool drain();

 private:
  explicit HostedRoom(const HostedRoomSettings& settings) : settings_(settings) {}
  bool reopen(std::string& error);
  void stop_serving();

  HostedRoomSettings settings_;
  std::unique_ptr<DurableServer> durable_;
  std::unique_ptr<world::ReferenceGame> game_;
  std::unique_ptr<Server> server_;
  MonoTime waiting_since_;
  bool waiting_started_ = false;
  uint64_t times_served_ = 0;
  InputTally input_;  // its input queues over every time it served
  InputSources input_sources_;
};

}  // namespace tickwire::cli
