// `tickwire host`: one process of a fleet (issue 21, "A fleet"). It serves the rooms it is given,
// each durable in the fleet's shared store (sqlite:DIR for one machine, postgresql://... for many),
// says so in the fleet directory (registered, heartbeated on a third of the TTL, every room's public
// address, seats and seated actors), and stands by for the rooms it may adopt: when the process
// serving one of those dies, its heartbeats stop (it leaves the directory within the TTL) and its
// leases run out (within a term); the first survivor whose lease try lands recovers the room from
// the store and serves it on a fresh socket, listed at once, so its players come back with their
// resume tokens (through the matchmaker, which reads the listing). The rooms run on the process's
// one thread, each at its own tick schedule. SIGINT/SIGTERM drain: the process is listed as
// draining, its rooms close their admissions, play on for the grace, then each is checkpointed and
// its lease given up (another process may adopt it at once), and the process deregisters.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "commands.h"
#include "map_option.h"
#include "stop_signals.h"
#include "number_checks.h"
#include "directory_presence.h"
#include "host_ops.h"
#include "hosted_room.h"
#include "tickwire/clock/system_clock.h"
#include "tickwire/server/room_server.h"
#include "tickwire/transport/key_file.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/reference_game.h"
#include "tickwire/world/reference_vocabulary.h"

namespace tickwire::cli {
namespace {

struct HostOptions {
  std::string store_url;
  std::string process;  // empty: host-PID
  std::vector<std::string> rooms;
  std::vector<std::string> adopt;
  std::string map_path;  // every room's map (empty: the built-in reference map)
  std::string bind = "127.0.0.1";
  uint16_t first_port = 0;  // own room i listens on first_port + i; 0: any free port (adopted rooms always)
  std::string key_path;
  uint64_t protocol_id = netcode::kDefaultProtocolId;
  uint32_t max_clients = 64;
  uint32_t tick_hz = 60;
  uint32_t snapshot_hz = 0;  // 0: the tick rate
  double ttl_s = 10;
  double lease_term_s = 10;
  double retry_s = 0.25;
  uint32_t checkpoint_every_ticks = 600;
  double pawn_hold_s = 60;
  std::string epoch = "kernel";
  std::string resume_key_path;
  double token_life_s = 600;
  double stats_interval_s = 1.0;
  double seconds = 0;
  double drain_grace_s = 0;
  std::string ops = "127.0.0.1:0";
};

void print(const nlohmann::json& line) {
  std::printf("%s\n", line.dump().c_str());
  std::fflush(stdout);
}

// The process as the directory lists it: its lifecycle's state, its ops address, its serving rooms
// in name order.
durable::DirectoryProcess presence_of(const std::string& process, const HostOps& ops,
                                      const std::vector<std::unique_ptr<HostedRoom>>& rooms) {
  durable::DirectoryProcess p;
  p.process = process;
  p.state = durable::process_state_named(ops.state_name()).value_or(durable::ProcessState::starting);
  p.ops_address = ops.address();
  for (const auto& room : rooms) {
    if (room->serving()) p.rooms.push_back(room->listing());
  }
  std::sort(p.rooms.begin(), p.rooms.end(), [](const auto& a, const auto& b) { return a.room < b.room; });
  return p;
}

nlohmann::json host_line(const char* type, double t, const std::string& process, const HostOps& ops,
                         const std::vector<std::unique_ptr<HostedRoom>>& rooms, const DirectoryPresence& presence) {
  nlohmann::json list = nlohmann::json::array();
  uint32_t serving = 0;
  for (const auto& room : rooms) {
    list.push_back(room->stats_json());
    serving += room->serving() ? 1 : 0;
  }
  return {{"type", type},       {"t", t},       {"process", process},
          {"lifecycle", ops.state_name()}, {"serving", serving}, {"rooms", list},
          {"directory", presence.stats_json()}};
}

int run_host(const HostOptions& o) {
  catch_stop_signals();
  std::string error;
  const auto key = netcode::load_server_private_key(o.key_path, error);
  if (!key) {
    std::fprintf(stderr, "tickwire host: %s\n", error.c_str());
    return 2;
  }
  const auto resume_key = resume_key_for(*key, o.resume_key_path, error);
  if (!resume_key) {
    std::fprintf(stderr, "tickwire host: %s\n", error.c_str());
    return 2;
  }
  if (o.rooms.empty() && o.adopt.empty()) {
    std::fprintf(stderr, "tickwire host: no rooms (--rooms, --adopt)\n");
    return 2;
  }
  if (o.first_port != 0 && uint32_t{o.first_port} + o.rooms.size() > 65536) {
    std::fprintf(stderr, "tickwire host: %zu rooms from port %u run past 65535\n", o.rooms.size(), o.first_port);
    return 2;
  }
  const std::optional<world::Map> loaded = load_map_option(o.map_path, "tickwire host");
  if (!loaded) return 2;
  const world::Map& map = *loaded;
  const std::string process = o.process.empty() ? fmt::format("host-{}", getpid()) : o.process;

  std::vector<std::unique_ptr<HostedRoom>> rooms;
  const auto add_room = [&](const std::string& name, uint16_t port, TakePolicy take) {
    HostedRoomSettings s;
    s.map = &map;
    s.server.bind = fmt::format("{}:{}", o.bind, port);
    s.server.private_key = *key;
    s.server.protocol_id = o.protocol_id;
    s.server.max_clients = o.max_clients;
    s.server.pawn_hold = Duration::from_seconds(o.pawn_hold_s);
    s.server.policy.identity = {name, "tickwire-reference", "local", map.content_hash_hex(), "fleet", "", ""};
    s.server.policy.cadence.tick_rate_hz = o.tick_hz;
    s.server.policy.cadence.snapshot_rate_hz = o.snapshot_hz == 0 ? o.tick_hz : o.snapshot_hz;
    world::apply_reference_policy(s.server.policy);
    s.durable.store_url = o.store_url;
    s.durable.room = name;
    s.durable.epoch = o.epoch;
    s.durable.checkpoint_every_ticks = o.checkpoint_every_ticks;
    s.durable.lease_term_s = o.lease_term_s;
    s.durable.token_life_s = o.token_life_s;
    s.durable.owner = fmt::format("{}:{}", process, getpid());
    s.resume_key = *resume_key;
    s.take = take;
    auto room = HostedRoom::open(s, error);
    if (!room) return false;
    rooms.push_back(std::move(room));
    return true;
  };
  for (std::size_t i = 0; i < o.rooms.size(); ++i) {
    const uint16_t port = o.first_port == 0 ? 0 : static_cast<uint16_t>(o.first_port + i);
    if (!add_room(o.rooms[i], port, TakePolicy::any_free)) {
      std::fprintf(stderr, "tickwire host: room %s: %s\n", o.rooms[i].c_str(), error.c_str());
      return 2;
    }
  }
  for (const std::string& name : o.adopt) {
    if (std::find(o.rooms.begin(), o.rooms.end(), name) != o.rooms.end()) continue;  // its own already
    if (!add_room(name, 0, TakePolicy::adopt_lived)) {
      std::fprintf(stderr, "tickwire host: room %s: %s\n", name.c_str(), error.c_str());
      return 2;
    }
  }
  durable::FleetDirectoryConfig directory;
  directory.ttl = Duration::from_seconds(o.ttl_s);
  HostOps ops(mono_now());
  if (!ops.serve(o.ops, error)) {
    std::fprintf(stderr, "tickwire host: %s\n", error.c_str());
    return 2;
  }
  auto presence = DirectoryPresence::open(o.store_url, directory, presence_of(process, ops, rooms), error);
  if (!presence) {
    std::fprintf(stderr, "tickwire host: %s\n", error.c_str());
    return 2;
  }
  const MonoTime start = mono_now();
  const auto since = [&](MonoTime at) { return (at - start).seconds_f(); };
  print({{"type", "ready"}, {"process", process}, {"pid", getpid()}, {"ops", ops.address()}, {"own", o.rooms}, {"adopt", o.adopt}});

  const Duration retry = Duration::from_seconds(o.retry_s);
  const Duration publish_every = Duration::milliseconds(250);
  MonoTime next_try = start;
  MonoTime next_publish = start;
  MonoTime next_stats = start + Duration::from_seconds(o.stats_interval_s);
  int exit_code = 0;
  const auto publish = [&](MonoTime now) {
    presence->publish(presence_of(process, ops, rooms));
    next_publish = now + publish_every;
  };
  while (!stop_requested() && (o.seconds <= 0 || since(mono_now()) < o.seconds)) {
    MonoTime now = mono_now();
    bool rooms_changed = false;
    if (now >= next_try) {
      for (auto& room : rooms) {
        if (room->serving()) continue;
        if (auto line = room->try_serve(now, since(now))) {
          print(*line);
          rooms_changed = rooms_changed || room->serving();
        }
      }
      next_try = now + retry;
    }
    MonoTime wake = next_try;
    for (auto& room : rooms) {
      if (!room->serving()) continue;
      if (auto line = room->check_authority(since(now))) {
        print(*line);
        rooms_changed = true;
        continue;
      }
      if (room->next_due() <= now) {
        room->run(now);
        now = mono_now();
      }
      wake = std::min(wake, room->next_due());
    }
    ops.follow(rooms, now);
    if (rooms_changed || now >= next_publish) publish(now);
    if (now >= next_stats) {
      print(host_line("host", since(now), process, ops, rooms, *presence));
      next_stats = next_stats + Duration::from_seconds(o.stats_interval_s);
    }
    wake = std::min({wake, next_publish, next_stats});
    const MonoTime after = mono_now();
    if (wake > after) std::this_thread::sleep_for(std::chrono::nanoseconds(std::min(wake - after, Duration::milliseconds(5)).ns()));
  }
  // The drain: listed as draining (the matchmaker sends nobody new), admissions closed, the grace
  // played out, then every room checkpointed and its lease given up, and the process deregistered.
  ops.move_to(fleet::LifecycleState::draining, rooms, mono_now());
  for (auto& room : rooms) {
    if (room->serving()) room->server().room_server().set_admissions_open(false);
  }
  publish(mono_now());
  print(host_line("host_draining", since(mono_now()), process, ops, rooms, *presence));
  const MonoTime grace_began = mono_now();
  const std::sig_atomic_t signals = stop_signals();
  while (stop_signals() == signals && (mono_now() - grace_began).seconds_f() < o.drain_grace_s) {
    const MonoTime now = mono_now();
    uint32_t seated = 0;
    for (auto& room : rooms) {
      if (!room->serving()) continue;
      if (room->next_due() <= now) room->run(now);
      seated += room->server().stats().clients;
    }
    if (seated == 0) break;
    ops.follow(rooms, now);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  for (auto& room : rooms) {
    if (room->serving() && !room->drain()) exit_code = 3;
  }
  ops.move_to(fleet::LifecycleState::stopped, rooms, mono_now());
  presence->deregister();
  print(host_line("host_final", since(mono_now()), process, ops, rooms, *presence));
  return exit_code;
}

}  // namespace

void register_host(CLI::App& app) {
  auto* cmd = app.add_subcommand("host", "run one process of a fleet: durable rooms in a shared store, listed in its directory");
  static HostOptions o;
  cmd->add_option("--store", o.store_url, "the fleet's store: sqlite:DIR (or a path) or postgresql://...")->required();
  cmd->add_option("--process", o.process, "this process's id in the fleet directory (default: host-PID)");
  cmd->add_option("--rooms", o.rooms, "rooms this process serves (comma-separated)")->delimiter(',');
  cmd->add_option("--adopt", o.adopt, "rooms it takes over when their process dies (comma-separated; its own are skipped)")
      ->delimiter(',');
  cmd->add_option("--map", o.map_path, "the map every room of this process runs (default: the built-in reference map)");
  cmd->add_option("--bind", o.bind, "address the rooms bind (numeric)");
  cmd->add_option("--first-port", o.first_port, "its first room's UDP port, the next on the next (0: any free port; adopted rooms always)")
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--key", o.key_path, "the fleet's private key file (or TICKWIRE_PRIVATE_KEY)");
  cmd->add_option("--protocol-id", o.protocol_id, "the game's netcode protocol id (tokens must carry it)");
  cmd->add_option("--max-clients", o.max_clients, "seats per room")->check(CLI::Range(uint32_t{1}, kRoomMaxSessions));
  cmd->add_option("--tick-hz", o.tick_hz, "simulation ticks per second")->check(CLI::Range(1, 240));
  cmd->add_option("--snapshot-hz", o.snapshot_hz, "world-lane snapshots per second (a divisor of the tick rate; default: the tick rate)")
      ->check(CLI::Range(0, 240));
  cmd->add_option("--ttl", o.ttl_s, "seconds the directory lists the process after its last heartbeat")->check(CLI::Range(0.5, 600.0));
  cmd->add_option("--lease-term", o.lease_term_s, "seconds a room's lease lasts unless renewed")->check(CLI::Range(1.0, 600.0));
  cmd->add_option("--retry", o.retry_s, "seconds between tries at a free lease")->check(CLI::Range(0.01, 60.0));
  cmd->add_option("--checkpoint-every", o.checkpoint_every_ticks, "ticks between checkpoints (0: the journal alone)");
  cmd->add_option("--pawn-hold", o.pawn_hold_s, "seconds a departed player's pawn waits for its resume token")
      ->check(CLI::Range(0.0, 3600.0));
  cmd->add_option("--epoch", o.epoch, "the tick stream's epoch to advance to: legacy, canonical or kernel")
      ->check(CLI::IsMember({"legacy", "canonical", "kernel"}));
  cmd->add_option("--resume-key", o.resume_key_path, "key file signing resume tokens (default: the private key)");
  cmd->add_option("--token-life", o.token_life_s, "seconds a resume token is good for")->check(CLI::Range(1.0, 3600.0));
  cmd->add_option("--ops", o.ops, "serve /healthz, /readyz and /metrics on this numeric HOST:PORT (port 0: any free one; listed in the directory)");
  cmd->add_option("--stats-interval", o.stats_interval_s, "seconds between JSON lines")->check(positive_number());
  cmd->add_option("--seconds", o.seconds, "stop (drain) after this long (0: run until SIGINT/SIGTERM)")
      ->check(non_negative_number());
  cmd->add_option("--drain-grace", o.drain_grace_s, "seconds a drain lets seated players play on before they are let go")
      ->check(CLI::Range(0.0, 3600.0));
  cmd->callback([] { set_exit_code(run_host(o)); });
}

}  // namespace tickwire::cli
