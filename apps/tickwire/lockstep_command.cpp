// `tickwire lockstep`: deterministic mode's demo. In one process, on loopback UDP: a relay (netcode
// 1.02 and the reliability layer), a link conditioner with the chosen profile in front of it, and
// N arena peers, each a rollback session with a bot at its controls, all stepped at the logic rate
// on the real clock. The contract is resolved from a deterministic room policy, so the numbers it
// runs by are the contract's. At the end: each peer's frames, rollbacks, waits and bytes, the
// relay's checksum comparisons, drops and refusals by name, the rollback depth histogram, and the
// verdict (exit 0: no desync; 1: a desync, with its frame). --record writes seat 0's recording
// for `tickwire replay`.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "commands.h"
#include "recording_file.h"
#include "stop_signals.h"
#include "tickwire/clock/system_clock.h"
#include "tickwire/lockstep/peer_link.h"
#include "tickwire/lockstep/relay_host.h"
#include "tickwire/protocol/netcode_contract.h"
#include "tickwire/transport/connect_token.h"
#include "tickwire/transport/link_conditioner.h"
#include "tickwire/transport/link_model.h"
#include "tickwire/transport/netcode_crypto.h"
#include "tickwire/transport/udp_socket.h"
#include "tickwire/world/arena_peer.h"

namespace tickwire::cli {
namespace {

struct LockstepOptions {
  uint32_t peers = 4;
  double seconds = 20;
  std::string profile = "transatlantic";
  double loss = -1;  // < 0: the profile's
  std::string lag_policy = "stall";
  uint32_t window = 8;
  uint32_t delay = 2;
  uint64_t seed = 1;
  std::string record;
};

// A player: its socket and the arena peer on it.
struct Peer {
  std::unique_ptr<DatagramSocket> socket;
  std::unique_ptr<world::ArenaPeer> arena;
};

// The room policy a deterministic arena match is resolved from.
std::optional<NetcodeContract> arena_contract(const LockstepOptions& o, std::string& error) {
  RoomPolicy policy;
  policy.identity = {"arena-1", "arena", "local", "1", "dev", "", ""};
  policy.mode.mode = RuntimeMode::deterministic;
  policy.mode.deterministic.seats = o.peers;
  policy.mode.deterministic.input_bytes = world::kArenaInputBytes;
  policy.mode.deterministic.rollback_window_frames = o.window;
  policy.mode.deterministic.input_delay_frames = o.delay;
  policy.mode.deterministic.lag_policy = o.lag_policy == "disconnect" ? LagPolicy::disconnect : LagPolicy::stall;
  const ContractResolution resolved = resolve_netcode_contract(policy);
  if (!resolved.ok()) error = "policy refused: " + resolved.issue.field + ": " + std::string(reason_name(resolved.issue.error));
  return resolved.contract;
}

std::unique_ptr<DatagramSocket> open_loopback(std::string& error) {
  UdpOpenResult opened = UdpSocket::open(Address::ipv4(127, 0, 0, 1, 0));
  if (!opened) error = opened.message;
  return std::move(opened.socket);
}

void print_report(const std::vector<Peer>& peers, const lockstep::LockstepRelay& relay, double seconds) {
  lockstep::DepthHistogram depth{};
  for (std::size_t i = 0; i < peers.size(); ++i) {
    const lockstep::RollbackStats& s = peers[i].arena->session.stats();
    for (std::size_t d = 0; d < depth.size(); ++d) depth[d] += s.depth_histogram[d];
    std::printf("peer %zu: %s%s\n", i, lockstep::peer_figures(s, seconds, peers[i].arena->link.bytes_sent()).c_str(),
                peers[i].arena->reliable.connected() ? "" : "  (disconnected)");
  }
  const lockstep::RelayStats& r = relay.stats();
  std::printf("relay: frames compared %llu  held at the window %llu ms  inputs too early %llu  refused %llu  drops",
              static_cast<unsigned long long>(r.frames_compared), static_cast<unsigned long long>(r.held_at_window_ms),
              static_cast<unsigned long long>(r.inputs_too_early), static_cast<unsigned long long>(r.refused.total()));
  for (std::size_t i = 0; i < static_cast<std::size_t>(lockstep::SeatDrop::count_); ++i) {
    const auto reason = static_cast<lockstep::SeatDrop>(i);
    std::printf(" %s=%llu", std::string(reason_name(reason)).c_str(), static_cast<unsigned long long>(r.drops[reason]));
  }
  std::printf("\nrollback depth (frames: count): %s\n", lockstep::depth_figures(depth).c_str());
  if (r.desync_frame == lockstep::kNoFrame) {
    std::printf("desyncs: 0\n");
  } else {
    std::printf("desync at frame %u (found at frame %u)\n", r.desync_frame, r.desync_found_frame);
  }
}

int run_lockstep(const LockstepOptions& o) {
  catch_stop_signals();
  std::string error;
  const std::optional<NetcodeContract> contract = arena_contract(o, error);
  std::optional<LinkModel> link = link_profile(o.profile);
  if (!contract || !link) {
    std::fprintf(stderr, "lockstep: %s\n", contract ? ("unknown profile '" + o.profile + "'").c_str() : error.c_str());
    return 2;
  }
  if (o.loss >= 0) link->loss = o.loss;
  const lockstep::LockstepSettings settings = lockstep::lockstep_settings(*contract);
  // The recording's file is opened before the match (a regular file: a FIFO is refused at once, not
  // waited on) and written when it ends.
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> record_file(nullptr, &std::fclose);
  if (!o.record.empty()) {
    record_file.reset(open_regular_for_writing(o.record));
    if (!record_file) {
      std::fprintf(stderr, "lockstep: --record: cannot write %s (a regular file)\n", o.record.c_str());
      return 2;
    }
  }

  const netcode::Key key = netcode::random_key();
  std::unique_ptr<DatagramSocket> relay_socket = open_loopback(error);
  std::unique_ptr<DatagramSocket> conditioner_socket = relay_socket ? open_loopback(error) : nullptr;
  if (!conditioner_socket) {
    std::fprintf(stderr, "lockstep: %s\n", error.c_str());
    return 1;
  }
  NetcodeServerConfig server_config;
  server_config.private_key = key;
  server_config.public_address = conditioner_socket->local_address();
  server_config.max_clients = settings.policy.seats;
  NetcodeServer server(*relay_socket, server_config);
  server.start(mono_now());
  ReliableServer reliable_server(server, lockstep::lockstep_endpoint_config());
  lockstep::LockstepRelay relay(settings);
  lockstep::RelayHost host(reliable_server, relay);

  ConditionerConfig conditioner_config;
  conditioner_config.forward = relay_socket->local_address();
  conditioner_config.to_server = *link;
  conditioner_config.to_client = *link;
  conditioner_config.seed = o.seed;
  LinkConditioner conditioner(conditioner_config, *conditioner_socket, [] {
    UdpOpenResult upstream = UdpSocket::open(Address::ipv4(127, 0, 0, 1, 0));
    return std::move(upstream.socket);
  });

  std::vector<Peer> peers(settings.policy.seats);
  std::unique_ptr<lockstep::ReplayRecorder> recorder;
  for (uint32_t i = 0; i < peers.size(); ++i) {
    Peer& p = peers[i];
    p.socket = open_loopback(error);
    if (!p.socket) {
      std::fprintf(stderr, "lockstep: %s\n", error.c_str());
      return 1;
    }
    p.arena = std::make_unique<world::ArenaPeer>(*p.socket, settings.policy.seats, static_cast<uint32_t>(o.seed), o.seed * 131 + i);
    if (i == 0 && !o.record.empty()) {
      std::vector<uint8_t> initial(p.arena->game.max_state_bytes());
      initial.resize(p.arena->game.save(initial));
      recorder = std::make_unique<lockstep::ReplayRecorder>("arena", settings.logic_hz, settings.policy.seats,
                                                            world::kArenaInputBytes, initial);
      p.arena->session.record_to(recorder.get());
    }
    netcode::ConnectTokenParams params;
    params.client_id = 1000 + i;
    params.server_addresses.add(conditioner_socket->local_address());
    params.timeout_seconds = 10;
    const auto token = netcode::generate_connect_token(params, key, wall_now());
    p.arena->netcode.connect(token.value(), mono_now());
  }

  std::printf("lockstep: %u arena peers at %u Hz through a '%s' link (loss %.3f), window %u, delay %u, lag policy %s, %.0f s\n",
              settings.policy.seats, settings.logic_hz, o.profile.c_str(), link->loss, settings.policy.rollback_window_frames,
              settings.policy.input_delay_frames, o.lag_policy.c_str(), o.seconds);
  std::fflush(stdout);
  const Duration period = Duration::nanoseconds(1'000'000'000 / settings.logic_hz);
  const MonoTime start = mono_now();
  const MonoTime end = start + Duration::from_seconds(o.seconds);
  MonoTime next_update = start;
  while (!stop_requested() && mono_now() < end) {
    const MonoTime now = mono_now();
    conditioner.step(now);
    if (now >= next_update) {
      host.update(now, wall_now());
      for (Peer& p : peers) p.arena->link.update(now);
      next_update += period;
      if (now - next_update > period * 4) next_update = now;  // a host stall: do not replay it at once
    }
    std::this_thread::sleep_for(std::chrono::microseconds(300));
  }
  const double seconds = (mono_now() - start).seconds_f();
  print_report(peers, relay, seconds);
  if (recorder) {
    const std::vector<uint8_t>& bytes = recorder->bytes();
    if (std::fwrite(bytes.data(), 1, bytes.size(), record_file.get()) != bytes.size() || std::fflush(record_file.get()) != 0) {
      std::fprintf(stderr, "lockstep: cannot write %s\n", o.record.c_str());
      return 1;
    }
    std::printf("recorded %u frames to %s (%zu bytes): tickwire replay %s\n", recorder->frames(), o.record.c_str(),
                recorder->bytes().size(), o.record.c_str());
  }
  return relay.stats().desync_frame == lockstep::kNoFrame ? 0 : 1;
}

}  // namespace

void register_lockstep(CLI::App& app) {
  auto* cmd = app.add_subcommand("lockstep", "deterministic mode's demo: a relay and arena peers over loopback UDP through a link conditioner");
  auto o = std::make_shared<LockstepOptions>();
  cmd->add_option("--peers", o->peers, "seats in the match")->check(CLI::Range(1u, kContractMaxSeats));
  cmd->add_option("--seconds", o->seconds, "how long to play")->check(CLI::Range(0.1, 86400.0));
  cmd->add_option("--profile", o->profile, "the link profile (lan, broadband, transatlantic, mobile-bad, burst-host)");
  cmd->add_option("--loss", o->loss, "loss on each direction, replacing the profile's")->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--lag-policy", o->lag_policy, "stall or disconnect")->check(CLI::IsMember({"stall", "disconnect"}));
  cmd->add_option("--window", o->window, "rollback window, frames")->check(CLI::Range(1u, kContractMaxRollbackWindowFrames));
  cmd->add_option("--delay", o->delay, "input delay, frames")->check(CLI::Range(0u, kContractMaxInputDelayFrames));
  cmd->add_option("--seed", o->seed, "the bots' and the conditioner's seed");
  cmd->add_option("--record", o->record, "write seat 0's recording here (for tickwire replay)");
  cmd->callback([o] { set_exit_code(run_lockstep(*o)); });
}

}  // namespace tickwire::cli
