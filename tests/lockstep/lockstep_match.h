// Test-only: a whole deterministic match on SimNetwork, reproducible from its seed. A relay behind
// a real netcode server and N arena peers behind real netcode clients, each updated at the logic
// rate on its own phase; a peer can be paused (its process stalls) or planted with a divergence.
// Checked every iteration: no peer runs past its window, and every two peers that have confirmed a
// frame hold the same checksum for it (unless a divergence was planted).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <optional>
#include <vector>

#include "netcode_test_support.h"
#include "tickwire/lockstep/peer_link.h"
#include "tickwire/lockstep/relay_host.h"
#include "tickwire/transport/link_model.h"
#include "tickwire/world/arena_peer.h"

namespace tickwire::test {

struct MatchOptions {
  uint64_t seed = 1;
  LinkModel link;
  Duration length = Duration::seconds(60);
  lockstep::LockstepSettings settings;
  // A divergence planted on one peer from a frame on.
  std::optional<uint32_t> diverge_seat;
  uint32_t diverge_frame = 0;
  // A peer whose process stalls for a while.
  std::optional<uint32_t> pause_seat;
  Duration pause_at;
  Duration pause_for;
  // Seat 0's session records the match (a ReplayRecorder).
  bool record = false;
};

struct MatchReport {
  std::vector<lockstep::RollbackStats> peers;
  lockstep::RelayStats relay;
  uint64_t checksum_frames_agreed = 0;  // frames the harness saw every live peer agree on
  uint32_t checksum_disagreement = lockstep::kNoFrame;
  double seconds = 0.0;
  uint64_t relay_bytes = 0;
  std::vector<uint64_t> peer_bytes;
  std::vector<bool> connected;
  std::vector<lockstep::RollbackStats> peers_at_pause_end;
  std::vector<uint8_t> replay;  // seat 0's recording, when asked for

  lockstep::DepthHistogram depth_histogram() const {
    lockstep::DepthHistogram sum{};
    for (const auto& p : peers)
      for (std::size_t d = 0; d < sum.size(); ++d) sum[d] += p.depth_histogram[d];
    return sum;
  }
  uint64_t resimulated() const {
    uint64_t n = 0;
    for (const auto& p : peers) n += p.frames_resimulated;
    return n;
  }
  void print(uint64_t seed, const char* name) const {
    std::printf("%s seed=%llu: %.0f s; relay desync=%s compared=%llu held_at_window_ms=%llu drops(lagged=%llu left=%llu)\n", name,
                static_cast<unsigned long long>(seed), seconds,
                relay.desync_frame == lockstep::kNoFrame ? "none" : std::to_string(relay.desync_frame).c_str(),
                static_cast<unsigned long long>(relay.frames_compared), static_cast<unsigned long long>(relay.held_at_window_ms),
                static_cast<unsigned long long>(relay.drops[lockstep::SeatDrop::lagged]),
                static_cast<unsigned long long>(relay.drops[lockstep::SeatDrop::left]));
    for (std::size_t i = 0; i < peers.size(); ++i) {
      std::printf("  peer %zu: %s\n", i, lockstep::peer_figures(peers[i], seconds, peer_bytes[i]).c_str());
    }
    std::printf("  rollback depth histogram (frames: count): %s", lockstep::depth_figures(depth_histogram()).c_str());
    std::printf("\n  resimulated %.1f frames/s per peer; relay down %.0f B/s per peer\n",
                static_cast<double>(resimulated()) / seconds / static_cast<double>(peers.size()),
                static_cast<double>(relay_bytes) / seconds / static_cast<double>(peers.size()));
  }
};

class LockstepMatch {
 public:
  explicit LockstepMatch(const MatchOptions& options) : options_(options), world_(options.seed) {
    const uint32_t n = options.settings.policy.seats;
    world_.net.set_default_link(options.link);
    const netcode::Key key = fixed_key(23);
    server_socket_ = world_.net.bind(server_address());
    netcode_server_ = std::make_unique<NetcodeServer>(*server_socket_, server_config(key, server_address(), n));
    netcode_server_->start(world_.now);
    reliable_server_ = std::make_unique<ReliableServer>(*netcode_server_, lockstep::lockstep_endpoint_config());
    relay_ = std::make_unique<lockstep::LockstepRelay>(options.settings);
    host_ = std::make_unique<lockstep::RelayHost>(*reliable_server_, *relay_);
    for (uint32_t i = 0; i < n; ++i) {
      auto p = std::make_unique<Peer>();
      p->socket = world_.net.bind(client_address(i));
      p->arena = std::make_unique<world::ArenaPeer>(*p->socket, n, static_cast<uint32_t>(options.seed), options.seed * 131 + i);
      if (options.diverge_seat && *options.diverge_seat == i) p->arena->game.plant_divergence(options.diverge_frame);
      if (options.record && i == 0) {
        std::vector<uint8_t> initial(p->arena->game.max_state_bytes());
        initial.resize(p->arena->game.save(initial));
        recorder_ = std::make_unique<lockstep::ReplayRecorder>("arena", options.settings.logic_hz, n,
                                                               world::kArenaInputBytes, initial);
        p->arena->session.record_to(recorder_.get());
      }
      p->next_update = MonoTime::from_ns(static_cast<int64_t>(i + 1) * 3'100'000);
      p->arena->netcode.connect(mint_token(key, 9000 + i, {server_address()}, world_.wall(), 10, 600), world_.now);
      peers_.push_back(std::move(p));
    }
  }

  MatchReport run() {
    const Duration period = Duration::nanoseconds(1'000'000'000 / options_.settings.logic_hz);
    const MonoTime end = world_.now + options_.length;
    MonoTime relay_next = world_.now;
    MatchReport report;
    while (world_.now < end) {
      MonoTime next = relay_next;
      for (const auto& p : peers_) next = std::min(next, p->next_update);
      world_.advance(next - world_.now);
      if (world_.now >= relay_next) {
        host_->update(world_.now, world_.wall());
        relay_next += period;
      }
      for (uint32_t i = 0; i < peers_.size(); ++i) {
        Peer& p = *peers_[i];
        if (world_.now < p.next_update) continue;
        p.next_update += period;
        if (paused(i)) continue;
        p.arena->link.update(world_.now);
        check_window(i);
        if (::testing::Test::HasFatalFailure()) return report;
      }
      if (!pause_ended_ && options_.pause_seat && world_.now >= MonoTime{} + options_.pause_at + options_.pause_for) {
        pause_ended_ = true;
        for (const auto& p : peers_) report.peers_at_pause_end.push_back(p->arena->session.stats());
      }
      check_checksums(report);
      if (::testing::Test::HasFatalFailure()) return report;
    }
    report.seconds = options_.length.seconds_f();
    report.relay = relay_->stats();
    report.relay_bytes = host_->counters().relay_bytes;
    if (recorder_) report.replay = recorder_->bytes();
    for (const auto& p : peers_) {
      report.peers.push_back(p->arena->session.stats());
      report.peer_bytes.push_back(p->arena->link.bytes_sent());
      report.connected.push_back(p->arena->reliable.connected());
    }
    return report;
  }

  lockstep::RollbackSession& session(uint32_t i) { return peers_[i]->arena->session; }

 private:
  struct Peer {
    std::unique_ptr<SimSocket> socket;
    std::unique_ptr<world::ArenaPeer> arena;
    MonoTime next_update;
  };

  bool paused(uint32_t i) const {
    if (!options_.pause_seat || *options_.pause_seat != i) return false;
    const MonoTime from = MonoTime{} + options_.pause_at;
    return world_.now >= from && world_.now < from + options_.pause_for;
  }

  void check_window(uint32_t i) {
    const lockstep::RollbackSession& s = peers_[i]->arena->session;
    if (!s.seated()) return;
    ASSERT_LE(s.confirmed_frame(), s.next_frame() - 1) << "seed=" << options_.seed << " peer " << i;
    ASSERT_LE(s.next_frame() - 1, s.confirmed_frame() + options_.settings.policy.rollback_window_frames)
        << "seed=" << options_.seed << " peer " << i << " ran past its rollback window";
  }

  // The newest frame every live peer has confirmed: all of them must hold one checksum for it.
  void check_checksums(MatchReport& report) {
    uint32_t common = lockstep::kNoFrame;
    for (const auto& p : peers_) {
      if (!p->arena->session.seated()) return;
      if (p->arena->reliable.connected()) common = std::min(common, p->arena->session.confirmed_frame());
    }
    if (common == lockstep::kNoFrame || common <= last_checked_) return;
    last_checked_ = common;
    std::optional<uint64_t> first;
    for (const auto& p : peers_) {
      if (!p->arena->reliable.connected()) continue;
      const std::optional<uint64_t> c = p->arena->session.confirmed_checksum(common);
      if (!c) continue;
      if (first && *first != *c && report.checksum_disagreement == lockstep::kNoFrame) report.checksum_disagreement = common;
      if (!first) first = c;
    }
    ++report.checksum_frames_agreed;
  }

  MatchOptions options_;
  SimWorld world_;
  std::unique_ptr<SimSocket> server_socket_;
  std::unique_ptr<NetcodeServer> netcode_server_;
  std::unique_ptr<ReliableServer> reliable_server_;
  std::unique_ptr<lockstep::LockstepRelay> relay_;
  std::unique_ptr<lockstep::RelayHost> host_;
  std::vector<std::unique_ptr<Peer>> peers_;
  std::unique_ptr<lockstep::ReplayRecorder> recorder_;
  uint32_t last_checked_ = 0;
  bool pause_ended_ = false;
};

inline LinkModel transatlantic_lossy(double loss) {
  LinkModel link = *link_profile("transatlantic");
  link.loss = loss;
  return link;
}

// The match: four peers on a transatlantic link with 5% loss each way.
inline MatchOptions four_on_transatlantic(uint64_t seed, Duration length) {
  MatchOptions o;
  o.seed = seed;
  o.link = transatlantic_lossy(0.05);
  o.length = length;
  o.settings.policy.seats = 4;
  return o;
}

}  // namespace tickwire::test
