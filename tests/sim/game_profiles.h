// The named link profiles through the whole game: N wandering bots on the reference map, each on
// the profile both ways, half rendering at 144 Hz and half at 60 Hz (jittered frames), for a
// stretch of simulated time; the clock, interpolation and figures tests share it and print every
// client's quality report.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "game_sim.h"
#include "support.h"

namespace tickwire::test {

struct ProfileRun {
  QualityReport all;
  std::vector<QualityReport> clients;
  RoomInvariants invariants;
  uint64_t welcomed = 0;
};

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
  sim.run_for(run);
  ProfileRun out;
  const std::string name = std::string("[ game ] ") + std::string(profile) + (burst_host_server ? "+server-bursts" : "") +
                           (snapshot_hz != 0 ? "+world-lane-" + std::to_string(snapshot_hz) + "hz" : "");
  std::printf("%s: seed %llu, %u clients, %.0f s\n", name.c_str(), static_cast<unsigned long long>(seed), clients,
              run.seconds_f());
  out.all = sim.print_reports(name);
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
