// `tickwire shards`: many rooms in one process (seed 003, "Many rooms per process"). The reference
// game's rooms on worker-thread shards (one thread per shard, each room pinned to one, each room
// its own UDP socket: docs/shards.md says why, with the measurement), the room and shard load
// ladders running over them, and one JSON line per interval saying, per shard, its rung, its busy
// share and lag, and each room's tick rate and rung. `--burn` puts a burner on one shard and walks
// it through a plan of loads, so the shard's rungs can be seen engaging in order and releasing.
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "stop_signals.h"
#include "number_checks.h"
#include "shard_burner.h"
#include "tickwire/clock/system_host_timer.h"
#include "tickwire/fleet/server_shedding.h"
#include "tickwire/fleet/shard_host.h"
#include "tickwire/server.h"
#include "tickwire/server/room_loop.h"
#include "tickwire/server/room_server.h"
#include "tickwire/transport/key_file.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/reference_game.h"
#include "tickwire/world/reference_map.h"

namespace tickwire::cli {
namespace {

constexpr uint32_t kBurnerId = 0;  // rooms are 1..N

struct ShardsOptions {
  uint32_t shards = 4;
  uint32_t rooms_per_shard = 8;
  std::string bind = "127.0.0.1";
  uint16_t first_port = 41000;  // room i (from 1) listens on first_port + i - 1; 0: each on any free port
  std::string key_path;
  uint64_t protocol_id = netcode::kDefaultProtocolId;
  uint32_t max_clients = 32;
  double seconds = 0;
  double stats_interval_s = 1.0;
  uint32_t burn_shard = 0;
  std::string burn_plan;  // "T:P,T:P,...": from T seconds on, the burner spins P% of each tick period
};

// One of the process's rooms: the reference game behind the Server facade, run by a shard.
class GameRoom final : public ShardRoom {
 public:
  GameRoom(std::unique_ptr<world::ReferenceGame> game, std::unique_ptr<Server> server)
      : game_(std::move(game)), server_(std::move(server)) {}
  ~GameRoom() override { server_->stop(); }

  MonoTime next_due() const override { return server_->room().next_due(); }
  uint32_t run(MonoTime now) override { return server_->update(now).ticks_run; }
  void shed(const RoomShedding& shedding) override { apply_shedding(server_->room_server(), shedding); }
  const NetcodeContract& contract() const override { return server_->contract(); }
  double measured_hz() const override { return server_->loop().pacer().measured_hz(); }

 private:
  std::unique_ptr<world::ReferenceGame> game_;
  std::unique_ptr<Server> server_;
};

struct BurnStep {
  double at_s = 0;
  double percent = 0;
};

bool parse_plan(const std::string& text, std::vector<BurnStep>& plan, std::string& error) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, end - at);
    const std::size_t colon = item.find(':');
    BurnStep step;
    try {
      if (colon == std::string::npos) throw std::invalid_argument("no colon");
      step.at_s = std::stod(item.substr(0, colon));
      step.percent = std::stod(item.substr(colon + 1));
    } catch (const std::exception&) {
      error = fmt::format("--burn: '{}' is not SECONDS:PERCENT", item);
      return false;
    }
    if (step.at_s < 0 || step.percent < 0 || step.percent > 100 || (!plan.empty() && step.at_s < plan.back().at_s)) {
      error = fmt::format("--burn: '{}': times ascending from 0, loads 0..100 (% of a tick period)", item);
      return false;
    }
    plan.push_back(step);
    at = end + 1;
  }
  return true;
}

// Each room's fewest ticks a second over any one interval since warm-up, counted between the
// shards' reports (each stamped with the end of the window it reports).
struct RateWatch {
  struct Seen {
    uint64_t ticks = 0;
    MonoTime at;
    uint32_t shard = 0;
  };
  std::map<uint32_t, Seen> last;
  std::map<uint32_t, double> min_hz;
  void add(const std::vector<ShardReport>& reports, bool counted) {
    for (const ShardReport& report : reports) {
      for (const ShardRoomState& room : report.rooms) {
        if (room.id == kBurnerId) continue;
        const auto seen = last.find(room.id);
        // A room that moved shards starts its count over on the new one.
        if (counted && seen != last.end() && seen->second.shard == report.index && report.at > seen->second.at) {
          const double hz = static_cast<double>(room.ticks - seen->second.ticks) / (report.at - seen->second.at).seconds_f();
          const auto low = min_hz.find(room.id);
          min_hz[room.id] = low == min_hz.end() ? hz : std::min(low->second, hz);
        }
        last[room.id] = Seen{room.ticks, report.at, report.index};
      }
    }
  }
};

nlohmann::json shard_json(const ShardReport& report) {
  nlohmann::json rooms = nlohmann::json::array();
  for (const ShardRoomState& room : report.rooms) {
    rooms.push_back({{"id", room.id},
                     {"hz", room.measured_hz},
                     {"costPercent", room.signals.tick_cost_percent},
                     {"lag", room.signals.lag_ticks},
                     {"own", reason_name(room.own)},
                     {"rung", reason_name(room.in_force)}});
  }
  return {{"index", report.index},
          {"rung", reason_name(report.rung)},
          {"busyPercent", report.signals.busy_percent},
          {"lagTicks", report.signals.lag_ticks},
          {"killWindows", report.windows_at_kill_threshold},
          {"movedOut", report.rooms_moved_out},
          {"rooms", rooms}};
}

nlohmann::json changes_json(const ShardReport& report, MonoTime start) {
  nlohmann::json changes = nlohmann::json::array();
  for (const ShardRungChange& c : report.rung_changes) {
    changes.push_back({{"t", (c.at - start).seconds_f()}, {"from", reason_name(c.from)}, {"to", reason_name(c.to)}});
  }
  nlohmann::json engaged = nlohmann::json::object();
  for (uint32_t r = 1; r < static_cast<uint32_t>(ShardLoadRung::count_); ++r) {
    engaged[std::string(reason_name(static_cast<ShardLoadRung>(r)))] = report.rungs_engaged[static_cast<ShardLoadRung>(r)];
  }
  return {{"index", report.index}, {"changes", changes}, {"engaged", engaged}, {"killWindows", report.windows_at_kill_threshold}};
}

int run_shards(const ShardsOptions& o) {
  catch_stop_signals();
  std::string error;
  std::vector<BurnStep> plan;
  if (!parse_plan(o.burn_plan, plan, error)) {
    std::fprintf(stderr, "tickwire shards: %s\n", error.c_str());
    return 2;
  }
  if (o.burn_shard >= o.shards) {
    std::fprintf(stderr, "tickwire shards: --burn-shard %u: there are %u shards\n", o.burn_shard, o.shards);
    return 2;
  }
  const auto key = netcode::load_server_private_key(o.key_path, error);
  if (!key) {
    std::fprintf(stderr, "tickwire shards: %s\n", error.c_str());
    return 2;
  }
  auto loaded = world::load_map(world::reference_map_text());
  if (!loaded) {
    std::fprintf(stderr, "tickwire shards: map: %s\n", loaded.error().text().c_str());
    return 2;
  }
  const world::Map map = std::move(loaded).value();
  SystemHostTimer timer;
  ShardHostConfig host_config;
  host_config.shards = o.shards;
  ShardHost host(timer, host_config);
  nlohmann::json placed = nlohmann::json::array();
  const uint32_t room_count = o.shards * o.rooms_per_shard;
  if (o.first_port != 0 && uint32_t{o.first_port} + room_count - 1 > 65535) {
    std::fprintf(stderr, "tickwire shards: %u rooms from port %u run past 65535\n", room_count, o.first_port);
    return 2;
  }
  NetcodeContract first_contract;
  for (uint32_t id = 1; id <= room_count; ++id) {
    ServerConfig config;
    config.bind = fmt::format("{}:{}", o.bind, o.first_port == 0 ? 0u : o.first_port + id - 1);
    config.private_key = *key;
    config.protocol_id = o.protocol_id;
    config.max_clients = o.max_clients;
    config.policy.identity = {fmt::format("room-{}", id), "tickwire-reference", "local", map.content_hash_hex(), "shards", "", ""};
    world::apply_reference_policy(config.policy);
    auto game = std::make_unique<world::ReferenceGame>(map);
    ServerOpen opened = Server::open(config, *game);
    if (!opened) {
      std::fprintf(stderr, "tickwire shards: room %u: %s\n", id, opened.error.c_str());
      return 2;
    }
    const std::string address = opened.server->local_address();
    if (id == 1) first_contract = opened.server->contract();
    std::unique_ptr<ShardRoom> room = std::make_unique<GameRoom>(std::move(game), std::move(opened.server));
    const auto shard = host.place(id, room);
    if (!shard) {
      std::fprintf(stderr, "tickwire shards: room %u: no shard open for placement\n", id);
      return 2;
    }
    placed.push_back({{"id", id}, {"address", address}, {"shard", *shard}});
  }
  ShardBurner* burner = nullptr;
  if (!plan.empty()) {
    auto owned = std::make_unique<ShardBurner>(timer, first_contract, timer.now());
    burner = owned.get();
    host.pin(o.burn_shard, kBurnerId, std::move(owned));
  }
  host.start();
  const MonoTime start = timer.now();
  std::printf("%s\n", nlohmann::json({{"type", "ready"}, {"shards", o.shards}, {"rooms", placed}}).dump().c_str());
  std::fflush(stdout);

  RateWatch rates;
  std::size_t next_step = 0;
  MonoTime next_stats = start + Duration::from_seconds(o.stats_interval_s);
  const Duration warm_up = Duration::seconds(2);
  while (!stop_requested()) {
    const MonoTime now = timer.now();
    const double t = (now - start).seconds_f();
    if (o.seconds > 0 && t >= o.seconds) break;
    while (burner != nullptr && next_step < plan.size() && t >= plan[next_step].at_s) {
      burner->set_percent(plan[next_step++].percent);
    }
    host.supervise(now);
    if (now >= next_stats) {
      const std::vector<ShardReport> reports = host.reports();
      rates.add(reports, now - start >= warm_up + Duration::from_seconds(o.stats_interval_s));
      nlohmann::json shards = nlohmann::json::array();
      for (const ShardReport& report : reports) shards.push_back(shard_json(report));
      nlohmann::json line = {{"type", "shards"}, {"t", t}, {"shards", shards}};
      if (burner != nullptr) line["burnPercent"] = burner->percent();
      std::printf("%s\n", line.dump().c_str());
      std::fflush(stdout);
      next_stats = next_stats + Duration::from_seconds(o.stats_interval_s);
    }
    timer.sleep(Duration::milliseconds(20));
  }
  const std::vector<ShardReport> reports = host.reports();
  nlohmann::json final_line = {{"type", "shards_final"}, {"t", (timer.now() - start).seconds_f()}};
  nlohmann::json shards = nlohmann::json::array();
  for (const ShardReport& report : reports) shards.push_back(changes_json(report, start));
  final_line["shards"] = shards;
  double min_hz = rates.min_hz.empty() ? 0.0 : rates.min_hz.begin()->second;
  for (const auto& entry : rates.min_hz) min_hz = std::min(min_hz, entry.second);
  final_line["roomMinHz"] = min_hz;  // the fewest ticks any room ran in one interval, per second
  uint64_t moved = 0;
  for (const ShardReport& report : reports) moved += report.rooms_moved_out;
  final_line["roomsMoved"] = moved;  // carried out (each shard's own count)
  nlohmann::json refusals = nlohmann::json::object();
  for (uint32_t r = 0; r < static_cast<uint32_t>(PlacementRefusal::count_); ++r) {
    refusals[std::string(reason_name(static_cast<PlacementRefusal>(r)))] = host.placement_refusals()[static_cast<PlacementRefusal>(r)];
  }
  final_line["placementRefusals"] = refusals;
  (void)host.stop();  // every room handed back and destroyed here: each server disconnects its clients
  std::printf("%s\n", final_line.dump().c_str());
  return 0;
}

}  // namespace

void register_shards(CLI::App& app) {
  auto* cmd = app.add_subcommand("shards", "run many reference-game rooms on worker-thread shards with load ladders");
  static ShardsOptions o;
  cmd->add_option("--shards", o.shards, "worker threads, each running its pinned rooms")->check(CLI::Range(1u, kShardHostMaxShards));
  cmd->add_option("--rooms-per-shard", o.rooms_per_shard, "rooms placed per shard")->check(CLI::Range(1, 64));
  cmd->add_option("--key", o.key_path, "private key file (or TICKWIRE_PRIVATE_KEY)");
  cmd->add_option("--bind", o.bind, "address to bind (numeric IPv4)");
  cmd->add_option("--first-port", o.first_port, "room 1's UDP port; room i listens on first-port + i - 1 (0: any free port each)")
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--protocol-id", o.protocol_id, "the game's netcode protocol id (tokens must carry it)");
  cmd->add_option("--max-clients", o.max_clients, "client slots per room")
      ->check(CLI::Range(uint32_t{1}, kRoomMaxSessions));
  cmd->add_option("--seconds", o.seconds, "stop after this long (0: run until SIGINT/SIGTERM)")->check(non_negative_number());
  cmd->add_option("--stats-interval", o.stats_interval_s, "seconds between JSON lines")->check(positive_number());
  cmd->add_option("--burn-shard", o.burn_shard, "the shard the burner is pinned to");
  cmd->add_option("--burn", o.burn_plan,
                  "a burner's plan, SECONDS:PERCENT,...: from each time on it spins that share of every tick period");
  cmd->callback([] { set_exit_code(run_shards(o)); });
}

}  // namespace tickwire::cli
