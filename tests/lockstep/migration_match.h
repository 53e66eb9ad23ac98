// Test-only: a listen-server deterministic match on SimNetwork, reproducible from its seed. Each
// "process" is a player: its own listening server, its peer (arena, bot, rollback session) and a
// connection to whichever process hosts the authority; process 0 hosts first. A backend's tokens
// grant every player its seat on every process's server, so any of them can take the authority
// over. A process can be killed (it stops running: its connections time out).
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "lockstep_match.h"
#include "tickwire/lockstep/listen_player.h"

namespace tickwire::test {

struct MigrationOptions {
  uint64_t seed = 1;
  LinkModel link;
  Duration length = Duration::seconds(20);
  lockstep::LockstepSettings settings;
  std::optional<Duration> handover_at = Duration::seconds(8);  // a planned handover from the first host
  std::optional<Duration> kill_host_at;                          // the first host's process dies
  Duration handshake_timeout = Duration::seconds(2);
  int32_t token_timeout_s = 1;
  std::optional<uint32_t> kill_first_candidate_on_offer;  // the first candidate dies as the offer reaches it
};

inline Address process_server_address(uint32_t i) { return Address::ipv4(10, 2, 0, static_cast<uint8_t>(i + 1), 40000); }
inline Address process_client_address(uint32_t i, uint32_t socket) {
  return Address::ipv4(10, 3, static_cast<uint8_t>(i), static_cast<uint8_t>(socket + 1), 50000);
}

class MigrationMatch {
 public:
  explicit MigrationMatch(const MigrationOptions& o) : options_(o), world_(o.seed), key_(fixed_key(29)) {
    world_.net.set_default_link(o.link);
    for (uint32_t i = 0; i < o.settings.policy.seats; ++i) processes_.push_back(std::make_unique<Process>(*this, i));
  }

  struct Report {
    lockstep::HandoverStats handover;
    uint32_t new_host = lockstep::kNoFrame;
    std::vector<lockstep::RollbackStats> peers;
    std::vector<Duration> longest_gap;
    std::vector<uint32_t> moves;
    std::vector<bool> alive;
    uint32_t desync_frame = lockstep::kNoFrame;  // as the new host's relay saw it
    uint64_t new_host_compared = 0;
    uint32_t checksum_disagreement = lockstep::kNoFrame;
    std::vector<uint32_t> host_losses;
    uint32_t taken_over_by = lockstep::kNoFrame;  // the process that rebuilt the authority
    Duration recovered_after;                      // from the kill until the rebuilt authority ended its recovery
    lockstep::RelayStats first_host;               // the first host's relay, as it ended
  };

  Report run() {
    const Duration period = Duration::nanoseconds(1'000'000'000 / options_.settings.logic_hz);
    const MonoTime end = world_.now + options_.length;
    bool begun = false;
    Report report;
    while (world_.now < end) {
      world_.advance(period);
      for (auto& p : processes_) {
        if (p->alive) p->update(world_.now, world_.wall());
      }
      Process& host = *processes_[0];
      if (options_.kill_host_at && host.alive && world_.now >= MonoTime{} + *options_.kill_host_at) host.alive = false;
      note_recovery(report);
      if (options_.handover_at && !begun && world_.now >= MonoTime{} + *options_.handover_at) {
        begun = host.begin_handover(world_.now);
      }
      check_checksums(report);
    }
    const Process& host = *processes_[0];
    report.handover = host.handover()->stats();
    report.first_host = host.first_relay()->stats();
    report.new_host = report.handover.new_host_seat;
    for (const auto& p : processes_) {
      report.peers.push_back(p->session().stats());
      report.longest_gap.push_back(p->link().longest_relay_gap());
      report.moves.push_back(p->link().moves());
      report.alive.push_back(p->alive);
      report.host_losses.push_back(p->link().host_losses());
    }
    const uint32_t serving = report.new_host != lockstep::kNoFrame ? report.new_host : report.taken_over_by;
    if (serving != lockstep::kNoFrame) {
      const lockstep::LockstepRelay* relay = processes_[serving]->candidate().relay();
      if (relay != nullptr) {
        report.desync_frame = relay->stats().desync_frame;
        report.new_host_compared = relay->stats().frames_compared;
      }
    }
    return report;
  }

 private:
  // A process's own parts, made before its player (which takes them by reference).
  struct ProcessParts {
    ProcessParts(MigrationMatch& match, uint32_t i) {
      const uint32_t seats = match.options_.settings.policy.seats;
      server_socket = match.world_.net.bind(process_server_address(i));
      for (uint32_t s = 0; s < 2; ++s) client_sockets[s] = match.world_.net.bind(process_client_address(i, s));
      game = std::make_unique<world::LockstepArena>(seats, static_cast<uint32_t>(match.options_.seed));
      input = std::make_unique<world::ArenaBotInput>(match.options_.seed * 131 + i);
    }
    std::unique_ptr<SimSocket> server_socket;
    std::array<std::unique_ptr<SimSocket>, 2> client_sockets;
    std::unique_ptr<world::LockstepArena> game;
    std::unique_ptr<world::ArenaBotInput> input;
  };

  // A player's process (lockstep::ListenPlayer): the backend's tokens grant its seat on every
  // process's server. It can die with an offer in hand (kill_first_candidate_on_offer).
  struct Process final : ProcessParts, lockstep::ListenPlayer {
    Process(MigrationMatch& owner, uint32_t i)
        : ProcessParts(owner, i),
          lockstep::ListenPlayer(player_config(owner, i), *server_socket, {client_sockets[0].get(), client_sockets[1].get()},
                                 tokens(owner, i), *game, *input, owner.world_.now),
          match(owner) {}

    static lockstep::ListenPlayerConfig player_config(const MigrationMatch& match, uint32_t i) {
      lockstep::ListenPlayerConfig config;
      config.seat = static_cast<uint8_t>(i);
      config.first_host_seat = 0;
      config.settings = match.options_.settings;
      config.server = server_config(match.key_, process_server_address(i), match.options_.settings.policy.seats);
      config.handshake_timeout = match.options_.handshake_timeout;
      return config;
    }
    static lockstep::HostTokenSource tokens(MigrationMatch& match, uint32_t i) {
      return [&match, i](uint8_t host_seat) {
        netcode::ConnectTokenParams params;
        params.client_id = 7000 + i;
        params.server_addresses.add(process_server_address(host_seat));
        params.timeout_seconds = match.options_.token_timeout_s;
        params.expire_seconds = 600;
        params.user_data = lockstep::seat_grant(static_cast<uint8_t>(i));
        netcode::ConnectTokenBytes bytes{};
        netcode::write_connect_token(netcode::generate_connect_token(params, match.key_, match.world_.wall()).value(), bytes);
        return std::vector<uint8_t>(bytes.begin(), bytes.end());
      };
    }

    void on_offer(std::span<const uint8_t> message, MonoTime now, Duration rtt) override {
      const auto& kill = match.options_.kill_first_candidate_on_offer;
      if (kill && !match.killed_one_) {
        match.killed_one_ = true;
        alive = false;  // the process dies with the offer in hand
        return;
      }
      lockstep::ListenPlayer::on_offer(message, now, rtt);
    }

    MigrationMatch& match;
    bool alive = true;
  };

  // Who rebuilt the authority after the host died, and when it had recovered the survivors.
  void note_recovery(Report& report) {
    if (!options_.kill_host_at || report.recovered_after > Duration{}) return;
    for (uint32_t i = 0; i < processes_.size(); ++i) {
      Process& p = *processes_[i];
      if (!p.alive || p.candidate().counters().takeovers == 0) continue;
      report.taken_over_by = i;
      if (!p.candidate().relay()->recovering()) report.recovered_after = world_.now - (MonoTime{} + *options_.kill_host_at);
    }
  }

  // Every two live peers that have confirmed a frame hold one checksum for it.
  void check_checksums(Report& report) {
    uint32_t common = lockstep::kNoFrame;
    for (const auto& p : processes_) {
      if (!p->alive) continue;
      if (!p->session().seated()) return;
      common = std::min(common, p->session().confirmed_frame());
    }
    if (common == lockstep::kNoFrame || common <= last_checked_) return;
    last_checked_ = common;
    std::optional<uint64_t> first;
    for (const auto& p : processes_) {
      if (!p->alive) continue;
      const std::optional<uint64_t> c = p->session().confirmed_checksum(common);
      if (first && c && *first != *c && report.checksum_disagreement == lockstep::kNoFrame) report.checksum_disagreement = common;
      if (!first) first = c;
    }
  }

  MigrationOptions options_;
  SimWorld world_;
  netcode::Key key_;
  std::vector<std::unique_ptr<Process>> processes_;
  bool killed_one_ = false;
  uint32_t last_checked_ = 0;
};

}  // namespace tickwire::test
