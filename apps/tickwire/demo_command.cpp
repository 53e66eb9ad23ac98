// `tickwire demo`: the main job. Starts a dedicated server, a link conditioner with the chosen
// profile in front of it and the bots, each its own process on loopback, shows a one-line progress
// display while they play, then prints the report (and writes it as JSON with --json, and as a
// self-contained HTML page with plots over time with --html: demo_html.h).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "child_process.h"
#include "commands.h"
#include "stop_signals.h"
#include "number_checks.h"
#include "demo_html.h"
#include "demo_report.h"
#include "demo_series.h"
#include "tickwire/core/owner_id.h"
#include "tickwire/transport/key_file.h"
#include "tickwire/transport/link_model.h"
#include "tickwire/transport/netcode_constants.h"
#include "tickwire/transport/netcode_crypto.h"
#include "tickwire/transport/udp_socket.h"

namespace tickwire::cli {
namespace {

struct DemoOptions {
  int bots = 32;
  double seconds = 30;
  std::string profile = "broadband";
  std::string map_path;
  std::string json_path;
  std::string html_path;
  std::string behaviour = "wander";
  uint32_t tick_hz = 60;
  uint32_t snapshot_hz = 0;  // 0: the tick rate
  double block_mb = 0;       // a reliable block to every bot mid-game (0: none)
  double block_at_s = 0;     // 0: a third into the run
  uint64_t protocol_id = netcode::kDefaultProtocolId;
  double forgiveness = 1.0;
  std::string mode = "snapshot";  // or server-time: the bots run their own logic rates (logic_hz)
  std::string logic_hz;           // server-time: the bots' rates, a comma list going round them
  uint32_t bot_threads = 1;       // the bot process's --threads
};

// A free loopback UDP port right now (the child binds it a moment later).
uint16_t free_port() {
  UdpOpenResult opened = UdpSocket::open(*Address::parse("127.0.0.1:0"));
  return opened ? opened.socket->local_address().port() : 0;
}

std::optional<nlohmann::json> parse_line(const std::string& line) {
  auto j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  return j;
}

struct Progress {
  // Objects from the start, so reading a figure before its first line never throws.
  nlohmann::json server_last = nlohmann::json::object();
  nlohmann::json server_final = nlohmann::json::object();
  nlohmann::json bots_final = nlohmann::json::object();
  uint64_t welcomed = 0;
  uint64_t corrections = 0;
  bool server_ready = false;
  DemoSeries series;  // the figures over time (--html)
  void take(ChildProcess& child) {
    for (const std::string& line : child.read_lines()) {
      auto j = parse_line(line);
      if (!j) continue;
      series.take(*j);
      const std::string type = j->value("type", std::string());
      if (type == "ready") server_ready = true;
      else if (type == "server") server_last = *j;
      else if (type == "server_final") server_final = *j;
      else if (type == "bots") {
        welcomed = j->value("welcomed", uint64_t{0});
        corrections = j->value("corrections", uint64_t{0});
      }
      else if (type == "bots_final") bots_final = *j;
    }
  }
};

void show_progress(const Progress& p, double elapsed_s, int bots, double& last_bytes_out, double& last_t) {
  const double bytes_out = p.server_last.value("bytes_out", 0.0);
  const double t = p.server_last.value("t", 0.0);
  const double mbps = t > last_t ? (bytes_out - last_bytes_out) * 8 / (t - last_t) / 1e6 : 0.0;
  if (t > last_t) {
    last_bytes_out = bytes_out;
    last_t = t;
  }
  const bool tty = isatty(STDERR_FILENO) != 0;
  std::fprintf(stderr, "%s[%5.1f s] clients %llu/%d | server %.1f Hz | down %.2f Mbit/s | corrections %llu%s",
               tty ? "\r" : "", elapsed_s, static_cast<unsigned long long>(p.welcomed), bots,
               p.server_last.value("hz", 0.0), mbps, static_cast<unsigned long long>(p.corrections), tty ? "   " : "\n");
  std::fflush(stderr);
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) std::fprintf(stderr, "tickwire demo: cannot write %s\n", path.c_str());
  return static_cast<bool>(out);
}

int run_demo(const DemoOptions& o) {
  catch_stop_signals();
  if (!link_profile(o.profile)) {
    std::fprintf(stderr, "tickwire demo: unknown profile '%s'\n", o.profile.c_str());
    return 2;
  }
  const std::string exe = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("tickwire-demo-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string key_path = (dir / "demo.key").string();
  std::string error;
  if (!netcode::write_private_key_file(key_path, netcode::random_key(), error)) {
    std::fprintf(stderr, "tickwire demo: %s\n", error.c_str());
    return 2;
  }
  const uint16_t server_port = free_port();
  const uint16_t public_port = free_port();
  const std::string server_at = "127.0.0.1:" + std::to_string(server_port);
  const std::string public_at = "127.0.0.1:" + std::to_string(public_port);
  const std::string clients = std::to_string(o.bots);

  ChildProcess server, conditioner, bots;
  std::vector<std::string> server_args = {"server", "--key", key_path, "--port", std::to_string(server_port), "--public",
                                          public_at, "--max-clients", clients, "--tick-hz", std::to_string(o.tick_hz),
                                          "--forgiveness", std::to_string(o.forgiveness),
                                          "--snapshot-hz", std::to_string(o.snapshot_hz),
                                          "--protocol-id", std::to_string(o.protocol_id),
                                          "--block-mb", std::to_string(o.block_mb),
                                          "--block-at", std::to_string(o.block_at_s > 0 ? o.block_at_s : o.seconds / 3)};
  if (!o.map_path.empty()) server_args.insert(server_args.end(), {"--map", o.map_path});
  server_args.insert(server_args.end(), {"--mode", o.mode});
  Progress progress;
  if (!server.spawn(exe, server_args)) {
    std::fprintf(stderr, "tickwire demo: cannot start the server\n");
    return 2;
  }
  for (int i = 0; i < 500 && !progress.server_ready && server.running(); ++i) {
    progress.take(server);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!progress.server_ready) {
    std::fprintf(stderr, "tickwire demo: the server did not start (see its error above)\n");
    return 2;
  }
  if (!conditioner.spawn(exe, {"conditioner", "--listen", public_at, "--forward", server_at, "--profile", o.profile,
                               "--max-clients", clients})) {
    std::fprintf(stderr, "tickwire demo: cannot start the conditioner\n");
    return 2;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::vector<std::string> bot_args = {"bot", "--server", public_at, "--count", clients, "--key", key_path,
                                       "--seconds", std::to_string(o.seconds), "--behaviour", o.behaviour,
                                       "--protocol-id", std::to_string(o.protocol_id)};
  if (!o.map_path.empty()) bot_args.insert(bot_args.end(), {"--map", o.map_path});
  if (!o.html_path.empty()) bot_args.push_back("--series");  // a per-client line each interval, for the plots
  if (!o.logic_hz.empty()) bot_args.insert(bot_args.end(), {"--logic-hz", o.logic_hz});
  bot_args.insert(bot_args.end(), {"--threads", std::to_string(o.bot_threads)});
  if (!bots.spawn(exe, bot_args)) {
    std::fprintf(stderr, "tickwire demo: cannot start the bots\n");
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  double last_bytes = 0, last_t = 0;
  int frame = 0;
  while (!stop_requested() && bots.running()) {
    progress.take(server);
    progress.take(bots);
    (void)conditioner.read_lines();
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (isatty(STDERR_FILENO) != 0 || frame % 20 == 0) show_progress(progress, elapsed, o.bots, last_bytes, last_t);
    ++frame;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  progress.take(bots);
  if (bots.running()) bots.stop();
  server.request_stop();
  conditioner.request_stop();
  for (int i = 0; i < 300 && (server.running() || progress.server_final.empty()); ++i) {
    progress.take(server);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  progress.take(server);
  server.stop();
  conditioner.stop();
  std::fprintf(stderr, "\n");
  std::filesystem::remove_all(dir);
  if (progress.bots_final.empty() || progress.server_final.empty() || !progress.bots_final.contains("clients")) {
    std::fprintf(stderr, "tickwire demo: the run ended without its final figures\n");
    return 1;
  }
  const DemoRunInfo info{o.profile, o.bots, progress.bots_final.value("t", o.seconds),
                         o.map_path.empty() ? "(built-in reference map)" : o.map_path, o.mode, o.logic_hz};
  const nlohmann::json report = build_demo_report(info, progress.server_final, progress.bots_final["clients"]);
  std::fputs(format_demo_report(report).c_str(), stdout);
  if (!o.json_path.empty() && !write_file(o.json_path, report.dump(2) + "\n")) return 2;
  if (!o.html_path.empty() && !write_file(o.html_path, demo_html_page(report, progress.series))) return 2;
  return 0;
}

}  // namespace

void register_demo(CLI::App& app) {
  auto* cmd = app.add_subcommand("demo", "server + link conditioner + bots on loopback, then a report");
  static DemoOptions o;
  cmd->add_option("--bots", o.bots, "bot clients")->check(CLI::Range(1, int{kMaxClientOwner}));
  cmd->add_option("--bot-threads", o.bot_threads, "threads the bot process runs its bots on (its --threads)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--seconds", o.seconds, "how long the bots play")->check(positive_number());
  cmd->add_option("--profile", o.profile, "link profile: lan, broadband, transatlantic, mobile-bad, burst-host");
  cmd->add_option("--map", o.map_path, "map file (default: the built-in reference map)");
  cmd->add_option("--json", o.json_path, "also write the report as JSON to this file");
  cmd->add_option("--html", o.html_path,
                  "also write the report as a self-contained HTML page with plots over time (bandwidth, input-queue "
                  "depth, RTT, corrections, held frames per client; server tick cost)");
  cmd->add_option("--behaviour", o.behaviour, "bot behaviour: walk, wander, idle, jumpy, use, fire");
  cmd->add_option("--tick-hz", o.tick_hz, "server ticks per second")->check(CLI::Range(1, 240));
  cmd->add_option("--mode", o.mode, "snapshot or server-time (the bots run their own logic rates: --logic-hz)")
      ->check(CLI::IsMember({"snapshot", "server-time"}));
  cmd->add_option("--logic-hz", o.logic_hz, "server-time: the bots' logic rates, a comma list going round them (e.g. 30,60,144)")
      ->check(CLI::Validator(
          [](std::string& rates) {
            std::size_t at = 0;
            while (at <= rates.size()) {
              const std::size_t comma = std::min(rates.find(',', at), rates.size());
              const std::string rate = rates.substr(at, comma - at);
              const bool digits = !rate.empty() && rate.size() <= 4 && rate.find_first_not_of("0123456789") == std::string::npos;
              if (!digits || std::stoi(rate) < 1 || std::stoi(rate) > 1000) return std::string("each rate must be 1..1000: ") + rates;
              at = comma + 1;
            }
            return std::string();
          },
          "HZ[,HZ...]"));
  cmd->add_option("--snapshot-hz", o.snapshot_hz, "world-lane snapshots per second (default: the tick rate)")
      ->check(CLI::Range(0, 240));
  cmd->add_option("--protocol-id", o.protocol_id, "the game's netcode protocol id");
  cmd->add_option("--block-mb", o.block_mb, "the server sends every bot a reliable block of this many MB mid-game")
      ->check(CLI::Range(0.0, 8.0));
  cmd->add_option("--block-at", o.block_at_s, "seconds into the run the block goes (default: a third in)")
      ->check(non_negative_number());
  cmd->add_option("--forgiveness", o.forgiveness, "the room's forgiveness (below 1.0 the bots' claims may be adopted)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->callback([] { set_exit_code(run_demo(o)); });
}

}  // namespace tickwire::cli
