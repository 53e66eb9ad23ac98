// `tickwire match`: the fleet's matchmaker as a service (docs/matchmaking.md). It reads the fleet
// directory in the store the servers share (--store), runs one admission queue over every room's
// seats, and answers players over HTTP (--listen): a seat offered with a connect token minted under
// the fleet's key, a place in line, a resumption back into the room holding a player's pawn. One JSON
// line when it serves, one per interval (the seats, the line, refusals and losses by reason), and a
// final one on SIGINT/SIGTERM (or after --seconds). Bad options or a store it cannot open: a message
// on stderr and exit code 2.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "stop_signals.h"
#include "match_desk.h"
#include "match_report.h"
#include "match_routes.h"
#include "match_runner.h"
#include "tickwire/clock/system_clock.h"
#include "tickwire/durable/fleet_directory.h"
#include "tickwire/fleet/http_endpoint.h"
#include "tickwire/transport/key_file.h"

namespace tickwire::cli {
namespace {

constexpr Duration kLongestSleep = Duration::milliseconds(20);  // a signal is seen within this
constexpr uint64_t kTokenOutlivesClaimSeconds = 10;           // a token stays good this long past its seat's claim window

struct MatchOptions {
  std::string store;
  std::string listen = "127.0.0.1:0";
  std::string key_path;
  uint64_t protocol_id = netcode::kDefaultProtocolId;
  double ttl_s = 10;
  double poll_s = 0.25;
  std::string choice = "fill-first";
  uint32_t queue_cap = 1024;
  double claim_window_s = 20;
  double waiter_timeout_s = 30;
  int32_t link_timeout_s = 5;  // the tokens' timeout: how long a silent link lasts before either end drops it
  double stats_interval_s = 1;
  double seconds = 0;  // 0: until signalled
};

std::optional<fleet::RoomChoice> room_choice_named(const std::string& word) {
  if (word == "fill-first") return fleet::RoomChoice::fill_first;
  if (word == "least-loaded") return fleet::RoomChoice::least_loaded;
  return std::nullopt;
}

// The options' own rules, each broken one named; empty when they hold.
std::string bad_option(const MatchOptions& o) {
  if (o.store.empty()) return "--store URL is required (sqlite:DIR, a path, or postgresql://...)";
  if (!room_choice_named(o.choice)) return fmt::format("--choice {}: fill-first or least-loaded", o.choice);
  if (o.queue_cap < 1 || o.queue_cap > fleet::kMaxAdmissionLine)
    return fmt::format("--queue-cap {}: 1..{}", o.queue_cap, fleet::kMaxAdmissionLine);
  const auto positive = [](double s, double most) { return std::isfinite(s) && s > 0 && s <= most; };
  if (!positive(o.ttl_s, 3600)) return fmt::format("--ttl {}: seconds in (0, 3600]", o.ttl_s);
  if (!positive(o.poll_s, o.ttl_s)) return fmt::format("--poll {}: seconds in (0, the ttl]", o.poll_s);
  if (!positive(o.claim_window_s, 3600)) return fmt::format("--claim-window {}: seconds in (0, 3600]", o.claim_window_s);
  if (!positive(o.waiter_timeout_s, 3600)) return fmt::format("--waiter-timeout {}: seconds in (0, 3600]", o.waiter_timeout_s);
  if (o.link_timeout_s < 1 || o.link_timeout_s > 60) return fmt::format("--link-timeout {}: seconds in 1..60", o.link_timeout_s);
  if (!positive(o.stats_interval_s, 3600)) return fmt::format("--stats-interval {}: seconds in (0, 3600]", o.stats_interval_s);
  if (!std::isfinite(o.seconds) || o.seconds < 0) return fmt::format("--seconds {}: 0 or more", o.seconds);
  return {};
}

fleet::MatchmakerConfig matchmaker_config(const MatchOptions& o, const netcode::Key& key) {
  fleet::MatchmakerConfig config;
  config.queue.max_line = o.queue_cap;
  config.queue.claim_window = Duration::from_seconds(o.claim_window_s);
  config.queue.waiter_timeout = Duration::from_seconds(o.waiter_timeout_s);
  config.choice = *room_choice_named(o.choice);
  config.protocol_id = o.protocol_id;
  config.private_key = key;
  config.token_timeout_seconds = o.link_timeout_s;
  config.token_expire_seconds = static_cast<uint64_t>(std::ceil(o.claim_window_s)) + kTokenOutlivesClaimSeconds;
  config.anchor = TimeAnchor{mono_now(), wall_now()};
  return config;
}

int refuse(const std::string& why) {
  std::fprintf(stderr, "tickwire match: %s\n", why.c_str());
  return 2;
}

void print_line(const nlohmann::json& line) {
  std::printf("%s\n", line.dump().c_str());
  std::fflush(stdout);
}

nlohmann::json stats_line(const char* type, MatchDesk& desk, MonoTime start) {
  return desk.with([&](const MatchState& state, MonoTime now) {
    nlohmann::json line = {{"type", type}, {"t", (now - start).seconds_f()}};
    line.update(match_stats_json(state));
    return line;
  });
}

int run_match(const MatchOptions& o) {
  catch_stop_signals();
  if (std::string bad = bad_option(o); !bad.empty()) return refuse(bad);
  std::string error;
  auto key = netcode::load_server_private_key(o.key_path, error);
  if (!key) return refuse(error);
  durable::FleetDirectoryConfig directory_config;
  directory_config.ttl = Duration::from_seconds(o.ttl_s);
  if (directory_config.sweep_after < directory_config.ttl) directory_config.sweep_after = directory_config.ttl;
  auto opened = durable::open_fleet_directory(o.store, directory_config);
  if (const durable::StoreFailure* f = durable::store_failure(opened)) {
    netcode::wipe(*key);
    return refuse(fmt::format("--store {}: {} ({})", o.store, reason_name(f->reason), f->detail));
  }
  const std::unique_ptr<durable::FleetDirectory> directory = std::move(std::get<std::unique_ptr<durable::FleetDirectory>>(opened));
  fleet::MatchmakerConfig config = matchmaker_config(o, *key);
  MatchDesk desk(config, [] { return mono_now(); });
  netcode::wipe(*key);  // the matchmaker holds its copy (wiped when it goes)
  netcode::wipe(config.private_key);
  MatchRunner runner(*directory, desk, MatchRunnerConfig{Duration::from_seconds(o.poll_s), directory_config.ttl});
  runner.run(mono_now());  // the fleet as it stands before the first player is answered

  fleet::HttpEndpointConfig http;
  http.listen = o.listen;
  fleet::HttpEndpointOpen serving = fleet::HttpEndpoint::open(http, match_routes(desk, runner.heartbeat(), [] { return mono_now(); }));
  if (!serving) return refuse(fmt::format("--listen {}", serving.error));
  desk.attach(serving.endpoint.get());
  const MonoTime start = mono_now();
  print_line({{"type", "ready"}, {"address", serving.endpoint->bound_address().to_string()}});

  const Duration stats_every = Duration::from_seconds(o.stats_interval_s);
  MonoTime next_stats = start + stats_every;
  while (!stop_requested()) {
    MonoTime now = mono_now();
    if (o.seconds > 0 && (now - start).seconds_f() >= o.seconds) break;
    runner.run(now);
    // Who was given a seat from the line, in promotion order (join order: docs/admission-queue.md).
    const std::vector<fleet::ActorId> promoted =
        desk.with([](MatchState& state, MonoTime) { return state.matchmaker.take_promoted(); });
    if (!promoted.empty()) print_line({{"type", "promoted"}, {"t", (now - start).seconds_f()}, {"actors", promoted}});
    if (now >= next_stats) {
      print_line(stats_line("match", desk, start));
      next_stats = next_stats + stats_every;
    }
    now = mono_now();
    const MonoTime wake = std::min(runner.next_poll(), next_stats);
    const Duration nap = std::min(wake - now, kLongestSleep);
    if (nap > Duration{}) std::this_thread::sleep_for(std::chrono::nanoseconds(nap.ns()));
  }
  serving.endpoint.reset();  // no handler runs past here
  print_line(stats_line("match_final", desk, start));
  return 0;
}

}  // namespace

void register_match(CLI::App& app) {
  auto* cmd = app.add_subcommand("match", "serve the fleet's matchmaker over HTTP: seats, the line, resumptions");
  static MatchOptions o;
  cmd->add_option("--store", o.store, "the store the fleet's servers share: sqlite:DIR, a path, or postgresql://... (required)");
  cmd->add_option("--listen", o.listen, "numeric HOST:PORT to serve HTTP on (port 0: any free one, printed in the ready line)");
  cmd->add_option("--key", o.key_path, "the fleet servers' private key file (or TICKWIRE_PRIVATE_KEY)");
  cmd->add_option("--protocol-id", o.protocol_id, "the game's netcode protocol id (tokens carry it)");
  cmd->add_option("--ttl", o.ttl_s, "seconds a process stays listed after its last heartbeat (the servers' directory TTL)");
  cmd->add_option("--poll", o.poll_s, "seconds between directory listings");
  cmd->add_option("--choice", o.choice, "which room a seat is offered in: fill-first or least-loaded");
  cmd->add_option("--queue-cap", o.queue_cap, "players waiting in line at most (the next is refused line_full)");
  cmd->add_option("--claim-window", o.claim_window_s, "seconds a seat offered is held for its player to connect");
  cmd->add_option("--link-timeout", o.link_timeout_s,
                  "seconds a seated player's link may go silent before either end drops it (the tokens' timeout): how soon "
                  "players notice a dead server and resume elsewhere");
  cmd->add_option("--waiter-timeout", o.waiter_timeout_s, "seconds a waiting player may go without asking again");
  cmd->add_option("--stats-interval", o.stats_interval_s, "seconds between JSON stats lines");
  cmd->add_option("--seconds", o.seconds, "stop after this long (0: run until SIGINT/SIGTERM)");
  cmd->callback([] { set_exit_code(run_match(o)); });
}

}  // namespace tickwire::cli
