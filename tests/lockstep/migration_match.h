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
#include "tickwire/lockstep/candidate_host.h"
#include "tickwire/lockstep/host_handover.h"

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
    Process& host = *processes_[0];
    host.relay.emplace(o.settings);
    host.handover.emplace(*host.relay, o.handshake_timeout);
    host.relay_host.emplace(*host.reliable_server, *host.relay, &*host.handover, uint8_t{0});
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
        begun = true;
        const auto ranked = lockstep::rank_candidates(*host.relay, host.relay_host->rtt_ms_by_seat(), 0);
        host.handover->begin(ranked, world_.now);
      }
      check_checksums(report);
    }
    const Process& host = *processes_[0];
    report.handover = host.handover->stats();
    report.first_host = host.relay->stats();
    report.new_host = report.handover.new_host_seat;
    for (const auto& p : processes_) {
      report.peers.push_back(p->session->stats());
      report.longest_gap.push_back(p->link->longest_relay_gap());
      report.moves.push_back(p->link->moves());
      report.alive.push_back(p->alive);
      report.host_losses.push_back(p->link->host_losses());
    }
    const uint32_t serving = report.new_host != lockstep::kNoFrame ? report.new_host : report.taken_over_by;
    if (serving != lockstep::kNoFrame) {
      const lockstep::LockstepRelay* relay = processes_[serving]->candidate->relay();
      if (relay != nullptr) {
        report.desync_frame = relay->stats().desync_frame;
        report.new_host_compared = relay->stats().frames_compared;
      }
    }
    return report;
  }

 private:
  struct Process final : lockstep::PeerMigration {
    Process(MigrationMatch& owner, uint32_t i) : match(owner), index(i) {
      const uint32_t seats = match.options_.settings.policy.seats;
      server_socket = match.world_.net.bind(process_server_address(i));
      NetcodeServerConfig config = server_config(match.key_, process_server_address(i), seats);
      netcode_server = std::make_unique<NetcodeServer>(*server_socket, config);
      netcode_server->start(match.world_.now);
      reliable_server = std::make_unique<ReliableServer>(*netcode_server, lockstep::lockstep_endpoint_config());
      for (uint32_t s = 0; s < 2; ++s) client_sockets[s] = match.world_.net.bind(process_client_address(i, s));
      game = std::make_unique<world::LockstepArena>(seats, static_cast<uint32_t>(match.options_.seed));
      input = std::make_unique<world::ArenaBotInput>(match.options_.seed * 131 + i);
      session = std::make_unique<lockstep::RollbackSession>(*game, *input);
      ReliableClient* first = open_connection(0, 0, match.world_.now);
      link = std::make_unique<lockstep::PeerLink>(*first, *session, this);
      candidate.emplace(*reliable_server, *session, *link);
    }

    ReliableClient* open_connection(uint32_t socket, uint32_t host_seat, MonoTime now) {
      clients[socket].reset();
      netcodes[socket] = std::make_unique<NetcodeClient>(*client_sockets[socket]);
      clients[socket] = std::make_unique<ReliableClient>(*netcodes[socket], lockstep::lockstep_endpoint_config());
      netcode::ConnectTokenParams params;
      params.client_id = 7000 + index;
      params.server_addresses.add(process_server_address(host_seat));
      params.timeout_seconds = match.options_.token_timeout_s;
      params.expire_seconds = 600;
      params.user_data = lockstep::seat_grant(static_cast<uint8_t>(index));
      netcodes[socket]->connect(netcode::generate_connect_token(params, match.key_, match.world_.wall()).value(), now);
      current_socket = socket;
      return clients[socket].get();
    }

    ReliableClient* connect_to_host(uint8_t seat, MonoTime now) override {
      const uint32_t spare = &link->host_connection() == clients[0].get() ? 1 : 0;
      return open_connection(spare, seat, now);
    }
    void release(ReliableClient& client, MonoTime now) override {
      for (uint32_t s = 0; s < 2; ++s) {
        if (clients[s].get() == &client) netcodes[s]->disconnect(now);
      }
    }
    void on_offer(std::span<const uint8_t> message, MonoTime now, Duration rtt) override {
      const auto& kill = match.options_.kill_first_candidate_on_offer;
      if (kill && !match.killed_one_) {
        match.killed_one_ = true;
        alive = false;  // the process dies with the offer in hand
        return;
      }
      candidate->offer(message, now, rtt);
    }
    void on_stay(MonoTime) override { candidate->stay(); }
    void take_over(uint8_t dead_seat, MonoTime now) override { candidate->take_over(dead_seat, now); }

    void update(MonoTime now, WallTime wall) {
      if (relay_host) relay_host->update(now, wall);
      else candidate->update(now, wall);
      link->update(now);
    }

    MigrationMatch& match;
    uint32_t index;
    bool alive = true;
    std::unique_ptr<SimSocket> server_socket;
    std::unique_ptr<NetcodeServer> netcode_server;
    std::unique_ptr<ReliableServer> reliable_server;
    std::array<std::unique_ptr<SimSocket>, 2> client_sockets;
    std::array<std::unique_ptr<NetcodeClient>, 2> netcodes;
    std::array<std::unique_ptr<ReliableClient>, 2> clients;
    uint32_t current_socket = 0;
    std::unique_ptr<world::LockstepArena> game;
    std::unique_ptr<world::ArenaBotInput> input;
    std::unique_ptr<lockstep::RollbackSession> session;
    std::unique_ptr<lockstep::PeerLink> link;
    std::optional<lockstep::CandidateHost> candidate;
    // The first host's authority.
    std::optional<lockstep::LockstepRelay> relay;
    std::optional<lockstep::HostHandover> handover;
    std::optional<lockstep::RelayHost> relay_host;
  };

  // Who rebuilt the authority after the host died, and when it had recovered the survivors.
  void note_recovery(Report& report) {
    if (!options_.kill_host_at || report.recovered_after > Duration{}) return;
    for (uint32_t i = 0; i < processes_.size(); ++i) {
      Process& p = *processes_[i];
      if (!p.alive || p.candidate->counters().takeovers == 0) continue;
      report.taken_over_by = i;
      if (!p.candidate->relay()->recovering()) report.recovered_after = world_.now - (MonoTime{} + *options_.kill_host_at);
    }
  }

  // Every two live peers that have confirmed a frame hold one checksum for it.
  void check_checksums(Report& report) {
    uint32_t common = lockstep::kNoFrame;
    for (const auto& p : processes_) {
      if (!p->alive) continue;
      if (!p->session->seated()) return;
      common = std::min(common, p->session->confirmed_frame());
    }
    if (common == lockstep::kNoFrame || common <= last_checked_) return;
    last_checked_ = common;
    std::optional<uint64_t> first;
    for (const auto& p : processes_) {
      if (!p->alive) continue;
      const std::optional<uint64_t> c = p->session->confirmed_checksum(common);
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
