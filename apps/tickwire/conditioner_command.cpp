// `tickwire conditioner`: runs the library's LinkConditioner between real UDP sockets on the real
// clock, so server and client processes can be tested under the same link models the simulation
// tests use. All relay logic is in transport/link_conditioner; this file parses, opens and loops.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "commands.h"
#include "stop_signals.h"
#include "number_checks.h"
#include "tickwire/clock/system_clock.h"
#include "tickwire/transport/link_conditioner.h"
#include "tickwire/transport/udp_socket.h"

namespace tickwire::cli {
namespace {

constexpr Duration kMaxSleep = Duration::microseconds(500);  // wake granularity: relay timing error <= ~0.5 ms

struct ModelOverride {
  CLI::Option* option = nullptr;
  double value = 0.0;
  double LinkModel::*field = nullptr;
};

struct ConditionerArgs {
  std::string listen;
  std::string forward;
  std::string profile;
  std::vector<ModelOverride> overrides;  // double fields: applied on top of the profile when given
  CLI::Option* rate_option = nullptr;
  uint32_t rate_kbps = 0;
  uint64_t seed = 1;
  double seconds = 0.0;
  std::size_t max_clients = 64;
};

std::optional<LinkModel> build_model(const ConditionerArgs& args) {
  LinkModel model;
  if (!args.profile.empty()) {
    const auto profile = link_profile(args.profile);
    if (!profile) {
      std::fprintf(stderr, "conditioner: unknown profile '%s' (known:", args.profile.c_str());
      for (const LinkProfile& p : link_profiles()) std::fprintf(stderr, " %.*s", static_cast<int>(p.name.size()), p.name.data());
      std::fprintf(stderr, ")\n");
      return std::nullopt;
    }
    model = *profile;
  }
  for (const ModelOverride& o : args.overrides) {
    if (o.option->count() > 0) model.*o.field = o.value;
  }
  if (args.rate_option->count() > 0) model.rate_kbps = args.rate_kbps;
  if (const auto why = model.invalid_reason()) {
    std::fprintf(stderr, "conditioner: %s\n", why->c_str());
    return std::nullopt;
  }
  return model;
}

Address upstream_bind_for(const Address& forward) {
  if (forward.family() == Address::Family::ipv4) {
    return forward.is_loopback() ? Address::ipv4(127, 0, 0, 1, 0) : Address::ipv4(0, 0, 0, 0, 0);
  }
  return forward.is_loopback() ? Address::ipv6({0, 0, 0, 0, 0, 0, 0, 1}, 0) : Address::ipv6({}, 0);
}

void print_stats(const ConditionerStats& s) {
  std::printf("conditioner: from_clients=%llu to_server=%llu from_server=%llu to_clients=%llu duplicated=%llu "
              "sessions_opened=%llu sessions_expired=%llu\n",
              static_cast<unsigned long long>(s.from_clients), static_cast<unsigned long long>(s.to_server),
              static_cast<unsigned long long>(s.from_server), static_cast<unsigned long long>(s.to_clients),
              static_cast<unsigned long long>(s.duplicated), static_cast<unsigned long long>(s.sessions_opened),
              static_cast<unsigned long long>(s.sessions_expired));
  std::printf("conditioner: dropped");
  for (std::size_t i = 0; i < static_cast<std::size_t>(ConditionerDrop::count_); ++i) {
    const auto reason = static_cast<ConditionerDrop>(i);
    const std::string_view name = reason_name(reason);
    std::printf(" %.*s=%llu", static_cast<int>(name.size()), name.data(), static_cast<unsigned long long>(s.dropped[reason]));
  }
  std::printf("\n");
}

void run_loop(LinkConditioner& conditioner, double seconds) {
  const MonoTime start = mono_now();
  const std::optional<MonoTime> end =
      seconds > 0.0 ? std::optional<MonoTime>(start + Duration::from_seconds(seconds)) : std::nullopt;
  while (!stop_requested()) {
    const MonoTime now = mono_now();
    if (end && now >= *end) break;
    conditioner.step(now);
    Duration sleep = kMaxSleep;
    if (const auto next = conditioner.next_release(); next && *next - now < sleep) sleep = *next - now;
    if (sleep > Duration{}) std::this_thread::sleep_for(std::chrono::nanoseconds(sleep.ns()));
  }
}

void run_conditioner(const ConditionerArgs& args) {
  catch_stop_signals();  // first, so a stop request during start-up is not lost
  const auto listen = Address::parse(args.listen);
  const auto forward = Address::parse(args.forward);
  const auto model = build_model(args);
  if (!listen || !forward || !model) {
    if (!listen || !forward) std::fprintf(stderr, "conditioner: --listen and --forward take HOST:PORT\n");
    set_exit_code(2);
    return;
  }
  UdpOpenResult opened = UdpSocket::open(*listen);
  if (!opened) {
    std::fprintf(stderr, "conditioner: %s\n", opened.message.c_str());
    set_exit_code(1);
    return;
  }
  ConditionerConfig config;
  config.forward = *forward;
  config.to_server = *model;
  config.to_client = *model;
  config.seed = args.seed;
  config.max_clients = args.max_clients;
  const Address upstream_bind = upstream_bind_for(*forward);
  LinkConditioner conditioner(config, *opened.socket, [upstream_bind]() -> std::unique_ptr<DatagramSocket> {
    UdpOpenResult upstream = UdpSocket::open(upstream_bind);
    if (!upstream) std::fprintf(stderr, "conditioner: upstream %s\n", upstream.message.c_str());
    return std::move(upstream.socket);
  });
  std::printf("conditioner: %s -> %s (latency %.1f +- %.1f ms, loss %.3f, dup %.3f, reorder %.3f, rate %u kbps, "
              "stall %.0f/%.0f ms, seed %llu)\n",
              opened.socket->local_address().to_string().c_str(), forward->to_string().c_str(), model->latency_ms,
              model->jitter_ms, model->loss, model->duplicate, model->reorder, model->rate_kbps, model->stall_ms,
              model->stall_every_ms, static_cast<unsigned long long>(args.seed));
  std::fflush(stdout);
  run_loop(conditioner, args.seconds);
  print_stats(conditioner.stats());
}

}  // namespace

void register_conditioner(CLI::App& app) {
  auto* cmd = app.add_subcommand("conditioner", "UDP proxy applying a link model (latency, loss, ...) both ways");
  auto args = std::make_shared<ConditionerArgs>();
  cmd->add_option("--listen", args->listen, "HOST:PORT clients send to")->required();
  cmd->add_option("--forward", args->forward, "HOST:PORT of the server")->required();
  cmd->add_option("--profile", args->profile, "lan, broadband, transatlantic, mobile-bad, burst-host");
  const struct {
    const char* flag;
    double LinkModel::*field;
    const char* help;
  } fields[] = {
      {"--latency-ms", &LinkModel::latency_ms, "one-way base latency"},
      {"--jitter-ms", &LinkModel::jitter_ms, "uniform +- jitter"},
      {"--loss", &LinkModel::loss, "loss probability 0..1"},
      {"--dup", &LinkModel::duplicate, "duplicate probability 0..1"},
      {"--reorder", &LinkModel::reorder, "reorder probability 0..1"},
      {"--reorder-delay-ms", &LinkModel::reorder_delay_ms, "extra delay of a reordered datagram"},
      {"--stall-ms", &LinkModel::stall_ms, "burst stall length"},
      {"--stall-every-ms", &LinkModel::stall_every_ms, "burst stall period"},
  };
  args->overrides.reserve(std::size(fields));
  for (const auto& f : fields) {
    args->overrides.push_back(ModelOverride{nullptr, 0.0, f.field});
    args->overrides.back().option = cmd->add_option(f.flag, args->overrides.back().value, f.help);
  }
  args->rate_option = cmd->add_option("--rate-kbps", args->rate_kbps, "bandwidth cap, kbit/s (0 = unlimited)");
  cmd->add_option("--seed", args->seed, "link model seed");
  cmd->add_option("--seconds", args->seconds, "stop after this many seconds (0 = until SIGINT/SIGTERM)")
      ->check(non_negative_number());
  cmd->add_option("--max-clients", args->max_clients, "concurrent client addresses")->check(CLI::Range(1, 4096));
  cmd->callback([args] { run_conditioner(*args); });
}

}  // namespace tickwire::cli
