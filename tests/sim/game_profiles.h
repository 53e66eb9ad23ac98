// The named link profiles through the whole game: N wandering bots on the reference map, each on
// the profile both ways, half rendering at 144 Hz and half at 60 Hz (jittered frames), for a
// stretch of simulated time; the clock, interpolation and figures tests share it and print every
// client's quality report.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "game_sim.h"
#include "support.h"

namespace tickwire::test {

// A profile with stalls, seen from the server across each stall's cycle. A stall's shadow is the
// stall and the link's longest one-way delay after it (the inputs it held land by then).
struct StallFigures {
  uint64_t stalls = 0;                 // stall cycles measured (every client's)
  uint64_t starved_in_shadow = 0;      // starved ticks (after the first input) inside a shadow
  uint64_t starved_outside = 0;        // ... and outside every shadow
  // Client frames that held (drew past the newest snapshot), inside a shadow and outside, and by the
  // 100 ms of the stall cycle they fell in (0: the stall's first 100 ms).
  uint64_t held_in_shadow = 0, held_outside = 0;
  std::vector<uint64_t> held_by_phase;
  // Per client and stall: the queue's mean depth over the second before the stall, and over the
  // rest of the cycle from 2 s after the shadow: how much of the stall was left as lead.
  double depth_left_mean = 0.0, depth_left_worst = 0.0;
};

struct ProfileRun {
  QualityReport all;
  std::vector<QualityReport> clients;
  RoomInvariants invariants;
  uint64_t welcomed = 0;
  std::optional<StallFigures> stalls;
};

// Watches every session's queue through a run on a link with periodic stalls.
class StallWatch {
 public:
  explicit StallWatch(const LinkModel& link)
      : period_ns_(Duration::from_seconds(link.stall_every_ms / 1000.0).ns()),
        shadow_ns_(Duration::from_seconds((link.stall_ms + link.latency_ms + link.jitter_ms) / 1000.0).ns()) {}

  void on_input(const TickInput& input, MonoTime now) {
    if (input.fresh() || !input.has_sequence) return;  // fed, or the join's wait
    ++(phase(now) < shadow_ns_ ? figures_.starved_in_shadow : figures_.starved_outside);
  }
  // After each client frame: its held frames so far (counted by the phase the new ones fell in).
  void on_frame(const void* client, uint64_t held_total, MonoTime now) {
    uint64_t& seen = held_seen_[client];
    if (held_total <= seen) return;
    const int64_t at = phase(now);
    const auto bin = static_cast<std::size_t>(at / kBinNs);
    if (figures_.held_by_phase.size() <= bin) figures_.held_by_phase.resize(bin + 1, 0);
    figures_.held_by_phase[bin] += held_total - seen;
    (at < shadow_ns_ ? figures_.held_in_shadow : figures_.held_outside) += held_total - seen;
    seen = held_total;
  }
  // After each server update: the depth of every session, by where in its cycle the time is.
  void on_update(const Room& room, MonoTime now) {
    const int64_t at = phase(now);
    const int64_t cycle = now.ns() / period_ns_;
    const bool before = at >= period_ns_ - kSecondNs;
    const bool after = at >= shadow_ns_ + 2 * kSecondNs && at < period_ns_ - kSecondNs;
    if (!before && !after) return;
    room.for_each_session([&](const RoomSession& s) {
      if (!s.inputs.queue().ack_sequence()) return;
      // The second before a stall belongs to the next cycle's stall; the rest after a shadow to this one's.
      Cycle& c = cycles_[{s.owner, before ? cycle + 1 : cycle}];
      (before ? c.before : c.after).add(static_cast<double>(s.inputs.queue().waiting_ticks()));
    });
  }
  StallFigures figures() const {
    StallFigures out = figures_;
    double sum = 0.0;
    for (const auto& [key, c] : cycles_) {
      if (c.before.n == 0 || c.after.n == 0) continue;
      const double left = c.after.mean() - c.before.mean();
      sum += left;
      out.depth_left_worst = out.stalls == 0 ? left : std::max(out.depth_left_worst, left);
      ++out.stalls;
    }
    out.depth_left_mean = out.stalls == 0 ? 0.0 : sum / static_cast<double>(out.stalls);
    return out;
  }

 private:
  static constexpr int64_t kSecondNs = 1'000'000'000;
  static constexpr int64_t kBinNs = 100'000'000;
  struct Mean {
    double total = 0.0;
    uint64_t n = 0;
    void add(double v) { total += v, ++n; }
    double mean() const { return total / static_cast<double>(n); }
  };
  struct Cycle {
    Mean before, after;
  };
  int64_t phase(MonoTime now) const { return ((now.ns() % period_ns_) + period_ns_) % period_ns_; }

  int64_t period_ns_, shadow_ns_;
  StallFigures figures_;
  std::map<std::pair<uint32_t, int64_t>, Cycle> cycles_;
  std::map<const void*, uint64_t> held_seen_;
};

inline void print_stall_figures(const std::string& name, const StallFigures& f) {
  std::printf("%s stalls: starved ticks %llu in the stalls' shadows (the stall and the longest one-way delay), "
              "%llu outside; queue depth from 2 s after each shadow less the second before its stall: mean %+.2f, "
              "worst %+.2f ticks over %llu client-stalls\n",
              name.c_str(), static_cast<unsigned long long>(f.starved_in_shadow),
              static_cast<unsigned long long>(f.starved_outside), f.depth_left_mean, f.depth_left_worst,
              static_cast<unsigned long long>(f.stalls));
  std::string held;
  for (std::size_t bin = 0; bin < f.held_by_phase.size(); ++bin)
    if (f.held_by_phase[bin] != 0) held += " " + std::to_string(bin * 100) + ":" + std::to_string(f.held_by_phase[bin]);
  std::printf("%s held frames: %llu in the stalls' shadows, %llu outside; by ms into the stall cycle:%s\n", name.c_str(),
              static_cast<unsigned long long>(f.held_in_shadow), static_cast<unsigned long long>(f.held_outside),
              held.empty() ? " none" : held.c_str());
}

// `burst_host_server`: the server's own host oversleeps to 83 ms as well (5-tick bursts, run at
// most max catch-up per update), on top of the profile's link.
// `snapshot_hz`: the world lane's rate (0: every tick); the pose lane runs every tick.
inline ProfileRun run_profile(std::string_view profile, uint64_t seed, uint32_t clients, Duration run,
                              bool burst_host_server = false, uint32_t snapshot_hz = 0) {
  const std::optional<LinkModel> link = link_profile(profile);
  TW_ASSERT(link.has_value(), "a named profile");
  GameSimConfig config;
  config.snapshot_rate_hz = snapshot_hz;
  if (burst_host_server) config.server_wake_every = Duration::milliseconds(83);
  GameSim sim(seed, config);
  GameClientSetup setup;
  setup.up = setup.down = *link;
  for (uint32_t i = 0; i < clients; ++i) {
    setup.frame_hz = i % 2 == 0 ? 144.0 : 60.0;  // half render at 144 Hz, half at 60 Hz (both jittered)
    sim.add_client(setup);
  }
  std::optional<StallWatch> stall_watch;
  // A stall shorter than its period (burst-host's fill it: there is no calm between them to compare).
  if (link->stall_ms > 0.0 && link->stall_every_ms > link->stall_ms + link->latency_ms + link->jitter_ms + 3000.0) {
    stall_watch.emplace(*link);
    sim.on_input = [&](EntityRef, const TickInput& input) { stall_watch->on_input(input, sim.world.now); };
    sim.after_update = [&](const RoomUpdate&) { stall_watch->on_update(sim.room, sim.world.now); };
    sim.after_frame = [&](SimGameClient& c) { stall_watch->on_frame(&c, c.facade->stats().held_frames, sim.world.now); };
  }
  sim.run_for(run);
  ProfileRun out;
  const std::string name = std::string("[ game ] ") + std::string(profile) + (burst_host_server ? "+server-bursts" : "") +
                           (snapshot_hz != 0 ? "+world-lane-" + std::to_string(snapshot_hz) + "hz" : "");
  std::printf("%s: seed %llu, %u clients, %.0f s\n", name.c_str(), static_cast<unsigned long long>(seed), clients,
              run.seconds_f());
  out.all = sim.print_reports(name);
  if (stall_watch) {
    out.stalls = stall_watch->figures();
    print_stall_figures(name, *out.stalls);
  }
  for (const auto& c : sim.clients) {
    if (auto r = c->client.quality_report()) {
      out.clients.push_back(*r);
      ++out.welcomed;
    }
  }
  out.invariants = sim.invariants;
  return out;
}

// Every client drew smoothly: many frames, none held past the newest snapshot, no render snap.
inline void expect_no_held_or_snapped(const ProfileRun& run) {
  EXPECT_EQ(run.invariants.total(), 0u);
  for (std::size_t i = 0; i < run.clients.size(); ++i) {
    EXPECT_GT(run.clients[i].frames, 500u) << "client " << i;
    EXPECT_EQ(run.clients[i].render_snaps, 0u) << "client " << i;
    EXPECT_EQ(run.clients[i].held_frames, 0u) << "client " << i;
  }
}

}  // namespace tickwire::test
