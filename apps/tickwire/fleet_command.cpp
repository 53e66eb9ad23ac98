// `tickwire fleet`: a whole fleet on one machine, the way seed 003's scale-out runs (issue 21, "A
// fleet"): N `tickwire host` processes sharing one store (postgresql://... for the real thing,
// sqlite:DIR works on one machine), each serving its rooms and standing by to adopt the others',
// one `tickwire match` reading the fleet directory, and bot processes that get their seats from it
// (`tickwire bot --match`), started one after another so they join the line in actor order. With
// --kill-at one host is killed with SIGKILL mid-run; the report says when it left the directory,
// when its rooms were adopted (and that the heir recovered at least as far as the dead keeper's last
// reported journal), and when its players were playing again, resumed through the matchmaker into
// their pawns. With more bots than seats and --stagger, the earlier bot processes leave first and
// the report says whether the queued bots were promoted in the order they joined and whether any
// bot's place ever moved back. The processes' logs are quieted to warnings (SPDLOG_LEVEL).
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "child_process.h"
#include "commands.h"
#include "stop_signals.h"
#include "number_checks.h"
#include "fleet_watch.h"
#include "tickwire/clock/system_clock.h"
#include "tickwire/core/owner_id.h"
#include "tickwire/durable/fleet_directory.h"
#include "tickwire/transport/key_file.h"
#include "tickwire/transport/netcode_crypto.h"

namespace tickwire::cli {
namespace {

struct FleetOptions {
  std::string store_url;
  uint32_t hosts = 3;
  uint32_t rooms_per_host = 2;
  uint32_t seats = 48;
  uint32_t bots = 200;
  uint32_t bots_per_process = 25;
  double seconds = 40;
  double stagger_s = 0;
  double kill_at_s = 15;  // 0: nobody is killed
  uint32_t kill_host = 1;
  double ttl_s = 3;
  double lease_term_s = 3;
  uint32_t link_timeout_s = 5;  // the matchmaker's tokens' timeout: how soon a player notices its host died
  double frame_hz = 20;
  uint32_t snapshot_hz = 0;  // the hosts' world lane (0: the tick rate)
  std::string behaviour = "wander";
  std::string key_path;
  std::string json_path;
};

std::optional<nlohmann::json> parse_line(const std::string& line) {
  auto j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  return j;
}

struct Member {
  std::string name;
  std::unique_ptr<ChildProcess> process = std::make_unique<ChildProcess>();
  std::vector<nlohmann::json> lines;  // every JSON line it printed, in order
  bool dead = false;                  // killed by the run

  // Reads its new lines; each parsed one goes to `seen` too.
  template <class Seen>
  void take(Seen seen) {
    for (const std::string& text : process->read_lines()) {
      if (auto j = parse_line(text)) {
        seen(*j);
        lines.push_back(std::move(*j));
      }
    }
  }
};

std::string room_name(uint32_t host, uint32_t room) { return fmt::format("room-{}-{}", host, room); }

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : ",") + w;
  return out;
}

int run_fleet(const FleetOptions& o) {
  catch_stop_signals();
  const std::string exe = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::filesystem::path scratch = std::filesystem::temp_directory_path() / fmt::format("tickwire-fleet-{}", getpid());
  std::filesystem::create_directories(scratch);
  struct Cleanup {
    std::filesystem::path dir;
    ~Cleanup() { std::filesystem::remove_all(dir); }
  } cleanup{scratch};
  std::string key_path = o.key_path;
  std::string error;
  if (key_path.empty()) {
    key_path = (scratch / "fleet.key").string();
    if (!netcode::write_private_key_file(key_path, netcode::random_key(), error)) {
      std::fprintf(stderr, "tickwire fleet: %s\n", error.c_str());
      return 2;
    }
  }
  if (o.kill_at_s > 0 && (o.kill_host < 1 || o.kill_host > o.hosts)) {
    std::fprintf(stderr, "tickwire fleet: --kill-host %u: the hosts are 1..%u\n", o.kill_host, o.hosts);
    return 2;
  }
  durable::FleetDirectoryConfig directory_config;
  directory_config.ttl = Duration::from_seconds(o.ttl_s);
  auto opened = durable::open_fleet_directory(o.store_url, directory_config);
  if (const durable::StoreFailure* f = durable::store_failure(opened)) {
    std::fprintf(stderr, "tickwire fleet: store %s: %s\n", o.store_url.c_str(), f->detail.c_str());
    return 2;
  }
  durable::FleetDirectory& directory = *std::get<std::unique_ptr<durable::FleetDirectory>>(opened);
  setenv("SPDLOG_LEVEL", "warn", 0);  // the processes' info logs would bury the run's own lines

  const auto began = std::chrono::steady_clock::now();
  const auto now_s = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count(); };
  FleetWatch watch;
  const auto say = [](const nlohmann::json& j) {
    std::printf("%s\n", j.dump().c_str());
    std::fflush(stdout);
  };

  // The hosts, each with its own rooms and every other room to adopt.
  std::vector<Member> hosts(o.hosts);
  for (uint32_t h = 1; h <= o.hosts; ++h) {
    std::vector<std::string> own, adopt;
    for (uint32_t other = 1; other <= o.hosts; ++other)
      for (uint32_t r = 1; r <= o.rooms_per_host; ++r) (other == h ? own : adopt).push_back(room_name(other, r));
    Member& m = hosts[h - 1];
    m.name = fmt::format("host-{}", h);
    std::vector<std::string> args = {"host", "--store", o.store_url, "--process", m.name, "--rooms", joined(own),
                                     "--key", key_path, "--max-clients", std::to_string(o.seats),
                                     "--ttl", fmt::format("{}", o.ttl_s), "--lease-term", fmt::format("{}", o.lease_term_s),
                                     "--snapshot-hz", std::to_string(o.snapshot_hz), "--stats-interval", "0.5"};
    if (!adopt.empty()) args.insert(args.end(), {"--adopt", joined(adopt)});
    if (!m.process->spawn(exe, args)) {
      std::fprintf(stderr, "tickwire fleet: cannot start %s\n", m.name.c_str());
      return 2;
    }
  }
  const auto take_hosts = [&] {
    for (Member& m : hosts)
      if (!m.dead) m.take([&](const nlohmann::json& j) { watch.host_line(m.name, j, now_s()); });
  };
  const auto all_serving = [&] {
    for (const Member& m : hosts) {
      uint32_t serving = 0;
      for (const nlohmann::json& j : m.lines) serving += j.value("type", "") == "room_serving" ? 1 : 0;
      if (serving < o.rooms_per_host) return false;
    }
    return true;
  };
  while (!all_serving() && now_s() < 60 && !stop_requested()) {
    take_hosts();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!all_serving()) {
    std::fprintf(stderr, "tickwire fleet: the hosts did not all serve their rooms within 60 s (see their errors above)\n");
    return 3;
  }
  say({{"type", "hosts_ready"}, {"t", now_s()}, {"hosts", o.hosts}, {"rooms", o.hosts * o.rooms_per_host}});

  Member match;
  match.name = "match";
  if (!match.process->spawn(exe, {"match", "--store", o.store_url, "--key", key_path, "--ttl", fmt::format("{}", o.ttl_s),
                                  "--poll", "0.1", "--stats-interval", "1",
                                  "--link-timeout", std::to_string(o.link_timeout_s)})) {
    std::fprintf(stderr, "tickwire fleet: cannot start the matchmaker\n");
    return 2;
  }
  std::string match_address;
  while (match_address.empty() && now_s() < 90 && match.process->running() && !stop_requested()) {
    match.take([&](const nlohmann::json& j) {
      if (j.value("type", "") == "ready") match_address = j.value("address", "");
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (match_address.empty()) {
    std::fprintf(stderr, "tickwire fleet: the matchmaker did not start (see its error above)\n");
    return 3;
  }
  const auto take_match = [&] { match.take([&](const nlohmann::json& j) { watch.match_line(j, now_s()); }); };

  // The bots, a process at a time: each process's bots have all had an answer (a seat or a place)
  // before the next process starts, so the line holds them in actor order.
  std::vector<Member> bots;
  const uint32_t per = std::max<uint32_t>(1, std::min<uint32_t>(o.bots_per_process, 255));
  double next_look = 0;
  const auto look = [&] {
    if (now_s() < next_look) return;
    next_look = now_s() + 0.25;
    auto listed = directory.list(wall_now());
    if (durable::stored(listed)) watch.listing(std::get<durable::DirectoryListing>(listed).processes, now_s());
  };
  const auto take_bots = [&] {
    for (Member& b : bots) b.take([&](const nlohmann::json& j) { watch.bot_line(j, now_s()); });
  };
  const auto pump = [&] {
    take_hosts();
    take_match();
    take_bots();
    look();
  };
  for (uint32_t first = 0, k = 0; first < o.bots && !stop_requested(); first += per, ++k) {
    const uint32_t count = std::min(per, o.bots - first);
    const double plays = o.seconds + o.stagger_s * k;
    Member& b = bots.emplace_back();
    b.name = fmt::format("bots-{}", k + 1);
    if (!b.process->spawn(exe, {"bot", "--match", match_address, "--count", std::to_string(count), "--first-client-id",
                                std::to_string(1 + first), "--seconds", fmt::format("{}", plays), "--frame-hz",
                                fmt::format("{}", o.frame_hz), "--behaviour", o.behaviour, "--stats-interval", "5"})) {
      std::fprintf(stderr, "tickwire fleet: cannot start %s\n", b.name.c_str());
      return 2;
    }
    const double deadline = now_s() + 15;
    const auto answered = [&] {
      std::set<uint64_t> actors;
      for (const nlohmann::json& j : b.lines) {
        const std::string type = j.value("type", "");
        if (type == "matched" || type == "queued") actors.insert(j.value("actor", uint64_t{0}));
      }
      return actors.size() >= count;
    };
    while (!answered() && now_s() < deadline && !stop_requested()) {
      pump();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  say({{"type", "bots_started"}, {"t", now_s()}, {"processes", bots.size()}, {"bots", o.bots}, {"matched", watch.matched()}});

  const double play_began = now_s();
  bool killed = false;
  double next_progress = now_s() + 5;
  const auto bots_running = [&] {
    for (Member& b : bots)
      if (b.process->running()) return true;
    return false;
  };
  while (!stop_requested() && bots_running()) {
    pump();
    if (!killed && o.kill_at_s > 0 && now_s() - play_began >= o.kill_at_s) {
      Member& victim = hosts[o.kill_host - 1];
      look();
      (void)victim.process->kill_now();
      victim.dead = true;
      killed = true;
      watch.killed(victim.name, now_s());
      say({{"type", "killed"}, {"t", now_s()}, {"host", victim.name}, {"stranded", watch.stranded()}});
    }
    if (now_s() >= next_progress) {
      next_progress += 5;
      say({{"type", "fleet"}, {"t", now_s()}, {"matched", watch.matched()}, {"resumed", watch.resumed()}});
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  pump();
  for (Member& b : bots) b.process->stop();
  match.process->request_stop();
  for (Member& h : hosts)
    if (!h.dead) h.process->request_stop();
  for (int i = 0; i < 500; ++i) {
    bool done = !match.process->running();
    for (Member& h : hosts) done = done && (h.dead || !h.process->running());
    take_hosts();
    take_match();
    if (done) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  take_hosts();
  take_match();
  match.process->stop();
  for (Member& h : hosts) h.process->stop();

  nlohmann::json report = watch.report();
  report["type"] = "fleet_report";
  report["t"] = now_s();
  report["hosts"] = o.hosts;
  report["rooms"] = o.hosts * o.rooms_per_host;
  report["seats"] = o.hosts * o.rooms_per_host * o.seats;
  report["bots"] = o.bots;
  report["backend"] = directory.backend();
  say(report);
  if (!o.json_path.empty()) std::ofstream(o.json_path) << report.dump(2) << "\n";
  return 0;
}

}  // namespace

void register_fleet(CLI::App& app) {
  auto* cmd = app.add_subcommand("fleet", "run a fleet on this machine: host processes on one store, the matchmaker, bots; kill a host mid-run");
  static FleetOptions o;
  cmd->add_option("--store", o.store_url, "the fleet's store: postgresql://... or sqlite:DIR")->required();
  cmd->add_option("--hosts", o.hosts, "host processes")->check(CLI::Range(1, 16));
  cmd->add_option("--rooms-per-host", o.rooms_per_host, "rooms each host serves")->check(CLI::Range(1, 16));
  cmd->add_option("--seats", o.seats, "seats per room")->check(CLI::Range(uint32_t{1}, uint32_t{kMaxClientOwner}));
  cmd->add_option("--bots", o.bots, "bots in all")->check(CLI::Range(1, 4096));
  cmd->add_option("--bots-per-process", o.bots_per_process, "bots per bot process")->check(CLI::Range(1, 255));
  cmd->add_option("--seconds", o.seconds, "how long the first bot process runs (waiting in line included)")->check(positive_number());
  cmd->add_option("--stagger", o.stagger_s, "each later bot process plays this much longer (the first leave first, freeing seats for the line)")
      ->check(non_negative_number());
  cmd->add_option("--kill-at", o.kill_at_s, "seconds after the bots started that a host is killed with SIGKILL (0: none)")
      ->check(non_negative_number());
  cmd->add_option("--kill-host", o.kill_host, "which host (1..hosts)");
  cmd->add_option("--ttl", o.ttl_s, "the directory's TTL, seconds")->check(CLI::Range(0.5, 600.0));
  cmd->add_option("--lease-term", o.lease_term_s, "a room's lease term, seconds")->check(CLI::Range(1.0, 600.0));
  cmd->add_option("--link-timeout", o.link_timeout_s, "seconds a player's silent link lasts (how soon it notices a dead host)")
      ->check(CLI::Range(1, 60));
  cmd->add_option("--frame-hz", o.frame_hz, "frames per second each bot runs")->check(CLI::Range(10.0, 1000.0));
  cmd->add_option("--snapshot-hz", o.snapshot_hz, "the rooms' world-lane snapshots per second (0: the tick rate)")
      ->check(CLI::Range(0, 240));
  cmd->add_option("--behaviour", o.behaviour, "the bots' behaviour (tickwire bot --behaviour)");
  cmd->add_option("--key", o.key_path, "the fleet's private key file (default: a fresh one for the run)");
  cmd->add_option("--json", o.json_path, "also write the report to this file");
  cmd->callback([] { set_exit_code(run_fleet(o)); });
}

}  // namespace tickwire::cli
