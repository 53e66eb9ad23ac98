// `tickwire server`: the dedicated server. The reference game's room on a real UDP socket, paced
// by RoomLoop on the host's clock, with one JSON stats line per interval on stdout (what the demo
// reads) and a final one on exit. SIGINT/SIGTERM stop it cleanly: every client is sent its
// redundant disconnect packets before the process exits.
#include <algorithm>
#include <array>
#include <csignal>
#include <cstdio>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "sample_stats.h"
#include "tickwire/clock/system_clock.h"
#include "tickwire/clock/system_host_timer.h"
#include "tickwire/protocol/session_channels.h"
#include "tickwire/protocol/wire_messages.h"
#include "tickwire/server/room_loop.h"
#include "tickwire/transport/key_file.h"
#include "tickwire/transport/udp_socket.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/reference_game.h"
#include "tickwire/world/reference_map.h"

namespace tickwire::cli {
namespace {

volatile std::sig_atomic_t g_stop = 0;
void request_stop(int) { g_stop = 1; }

struct ServerOptions {
  std::string map_path;  // empty: the built-in reference map
  std::string key_path;
  std::string bind = "127.0.0.1";
  uint16_t port = 40000;
  std::string public_address;  // what tokens list (a conditioner's listen address); empty: the bind
  uint32_t tick_hz = 60;
  double forgiveness = 1.0;
  uint32_t max_clients = 255;
  double stats_interval_s = 1.0;
  double seconds = 0;  // 0: until signalled
};

// Depth-byte histogram buckets: -8 (starved 8+) .. 12.
constexpr int kDepthMin = -8;
constexpr int kDepthMax = 12;

struct Tally {
  SampleStats tick_cost_us;
  std::vector<uint64_t> depth_histogram = std::vector<uint64_t>(kDepthMax - kDepthMin + 1, 0);
  uint64_t starved_ticks = 0;
  uint64_t fresh_ticks = 0;
};

// One pass over the sessions per iteration: each one's depth byte into the histogram, and the
// starved and fresh ticks its queue counted since the previous pass (departed sessions included).
struct TickSources {
  std::array<InputQueueStats, kRoomMaxSessions + 1> seen{};
  std::array<Tick, kRoomMaxSessions + 1> admitted{};
  void add(const Room& room, Tally& tally) {
    for (uint32_t owner = 1; owner <= kRoomMaxSessions; ++owner) {
      const RoomSession* s = room.session(static_cast<OwnerId>(owner));
      if (s == nullptr) continue;
      if (s->inputs.prepared_tick()) {
        const int depth = std::clamp<int>(s->inputs.report().queue_depth, kDepthMin, kDepthMax);
        ++tally.depth_histogram[static_cast<std::size_t>(depth - kDepthMin)];
      }
      if (admitted[owner] != s->admitted_at) {  // a new session in this owner id
        admitted[owner] = s->admitted_at;
        seen[owner] = InputQueueStats{};
      }
      const InputQueueStats& now = s->inputs.queue().stats();
      tally.starved_ticks += (now.repeated_ticks + now.zeroed_ticks) - (seen[owner].repeated_ticks + seen[owner].zeroed_ticks);
      tally.fresh_ticks += now.fresh_ticks - seen[owner].fresh_ticks;
      seen[owner] = now;
    }
  }
};

nlohmann::json stats_line(const char* type, double elapsed_s, const RoomServer& server, const RoomLoop& loop,
                          const Tally& tally, const NetcodeServer& netcode, const std::string& contract_hash) {
  nlohmann::json j;
  j["type"] = type;
  j["t"] = elapsed_s;
  j["clients"] = server.room().session_count();
  j["hz"] = loop.pacer().measured_hz();
  j["sleep_factor"] = loop.pacer().sleep_factor();
  j["ticks"] = server.room().clock().executed_ticks();
  j["declared"] = server.room().clock().declared_ticks();
  j["tick_cost_us"] = {{"p50", tally.tick_cost_us.percentile(0.5)},
                       {"p99", tally.tick_cost_us.percentile(0.99)},
                       {"max", tally.tick_cost_us.max()}};
  j["snapshots"] = server.snapshots_sent();
  j["bytes_out"] = netcode.bytes_sent();
  j["bytes_in"] = netcode.bytes_received();
  j["depth_min"] = kDepthMin;
  j["depth_histogram"] = tally.depth_histogram;
  j["starved_ticks"] = tally.starved_ticks;
  j["fresh_ticks"] = tally.fresh_ticks;
  j["contract_hash"] = contract_hash;
  j["snapshot_drops"] = server.drops()[SessionDrop::snapshot_unsent];
  return j;
}

int run_server(const ServerOptions& o) {
  std::signal(SIGINT, request_stop);
  std::signal(SIGTERM, request_stop);
  std::string error;
  const auto key = netcode::load_server_private_key(o.key_path, error);
  if (!key) {
    std::fprintf(stderr, "tickwire server: %s\n", error.c_str());
    return 2;
  }
  auto loaded = o.map_path.empty() ? world::load_map(world::reference_map_text()) : world::load_map_file(o.map_path);
  if (!loaded) {
    std::fprintf(stderr, "tickwire server: map %s: %s\n", o.map_path.empty() ? "(built-in)" : o.map_path.c_str(),
                 loaded.error().text().c_str());
    return 2;
  }
  const world::Map map = std::move(loaded).value();
  const auto bind = Address::parse(o.bind + ":" + std::to_string(o.port));
  const auto public_address = o.public_address.empty() ? bind : Address::parse(o.public_address);
  if (!bind || !public_address) {
    std::fprintf(stderr, "tickwire server: not a numeric address: %s\n", (o.public_address.empty() ? o.bind : o.public_address).c_str());
    return 2;
  }
  UdpOpenResult opened = UdpSocket::open(*bind);
  if (!opened) {
    std::fprintf(stderr, "tickwire server: %s\n", opened.message.c_str());
    return 2;
  }
  RoomPolicy policy;
  policy.identity = {"room-1", "tickwire-reference", "local", map.content_hash_hex(), "demo", "", ""};
  policy.cadence.tick_rate_hz = o.tick_hz;
  policy.cadence.snapshot_rate_hz = o.tick_hz;
  policy.input.forgiveness = o.forgiveness;
  const ContractResolution contract = resolve_netcode_contract(policy);
  if (!contract.ok()) {
    std::fprintf(stderr, "tickwire server: --tick-hz %u: %s\n", o.tick_hz,
                 std::string(contract_error_name(contract.issue.error)).c_str());
    return 2;
  }
  NetcodeServerConfig config;
  config.private_key = *key;
  config.public_address = *public_address;
  config.max_clients = o.max_clients;
  NetcodeServer netcode(*opened.socket, config);
  ReliableServer reliable(netcode, session_endpoint_config());
  SchemaCache cache(protocol::protocol_messages().schema_text());
  world::ReferenceGame game(map, world::MoverSettings{}, o.forgiveness);
  SystemHostTimer timer;
  const MonoTime start = timer.now();
  const TimeAnchor anchor{start, wall_now()};
  Room room(RoomConfig{*contract.contract, start}, game);
  RoomServer server(reliable, room, cache);
  RoomLoop loop(timer, server, anchor);
  netcode.start(start);
  const std::string contract_hash = room.contract_hash().hex();
  std::printf("{\"type\":\"ready\",\"address\":\"%s\",\"public\":\"%s\",\"map\":\"%s\",\"contract_hash\":\"%s\"}\n",
              opened.socket->local_address().to_string().c_str(), public_address->to_string().c_str(),
              map.content_hash_hex().c_str(), contract_hash.c_str());
  std::fflush(stdout);

  Tally tally;
  TickSources sources;
  MonoTime next_stats = start + Duration::from_seconds(o.stats_interval_s);
  while (g_stop == 0 && (o.seconds <= 0 || (timer.now() - start).seconds_f() < o.seconds)) {
    const MonoTime woke = loop.wait_for_next_tick();
    const RoomUpdate update = loop.iterate(woke);
    const MonoTime done = mono_now();
    if (update.ticks_run > 0) {
      tally.tick_cost_us.add((done - woke).seconds_f() * 1e6 / update.ticks_run);
      sources.add(room, tally);
    }
    if (done >= next_stats) {
      std::printf("%s\n", stats_line("server", (done - start).seconds_f(), server, loop, tally, netcode, contract_hash).dump().c_str());
      std::fflush(stdout);
      next_stats = next_stats + Duration::from_seconds(o.stats_interval_s);
    }
  }
  const MonoTime end = timer.now();
  netcode.stop(end);  // redundant disconnect packets to every client
  std::printf("%s\n", stats_line("server_final", (end - start).seconds_f(), server, loop, tally, netcode, contract_hash).dump().c_str());
  std::fflush(stdout);
  return 0;
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
  cmd->add_option("--tick-hz", o.tick_hz, "simulation ticks per second")->check(CLI::Range(1, 240));
  cmd->add_option("--forgiveness", o.forgiveness, "1.0: the server's answer always stands; below: claims may be adopted")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--max-clients", o.max_clients, "client slots (owner ids are 8 bits; 0 is the authority)")
      ->check(CLI::Range(1, 255));
  cmd->add_option("--stats-interval", o.stats_interval_s, "seconds between JSON stats lines")->check(CLI::PositiveNumber);
  cmd->add_option("--seconds", o.seconds, "stop after this long (0: run until SIGINT/SIGTERM)");
  cmd->callback([] { set_exit_code(run_server(o)); });
}

}  // namespace tickwire::cli
