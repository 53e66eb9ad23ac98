// Server-time mode through the whole game (seed 002, "Non-Deterministic Mode"): a room ticking and
// snapshotting at 30 Hz, and clients whose logic runs at 30, 60 and 144 Hz while they render
// uncapped (jittered frames near 240 Hz) on the broadband profile. Every client draws the 30 Hz
// snapshots without one frame held past the newest and without a render snap; each runs its own
// logic rate unbent; every input goes up stamped with a server time close to the server's own and is
// merged into the room's ticks and acked; and the own pawn, predicted at the client's rate, is
// corrected by the snapshots' state (eased, never snapped). The corrections are the mode's price:
// the room integrates a client's inputs on its own tick grid (a tick with nothing new repeats the
// last, the next merges two), so a turning wanderer's prediction is off by up to a tick's walk.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "game_profiles.h"
#include "tickwire/protocol/timed_input_frame.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

GameSimConfig server_time_config(uint32_t max_logic_hz = 240) {
  GameSimConfig config;
  config.tick_rate_hz = 30;
  config.snapshot_rate_hz = 30;
  config.adjust_policy = [max_logic_hz](RoomPolicy& policy) {
    policy.mode.mode = RuntimeMode::server_time;
    policy.mode.server_time.max_logic_hz = max_logic_hz;
  };
  return config;
}

struct StampError {
  std::vector<double> ms;  // the client's reading of the server's time, less the server's own
  double quantile(double q) {
    if (ms.empty()) return 0;
    std::sort(ms.begin(), ms.end());
    return ms[std::min(ms.size() - 1, static_cast<std::size_t>(q * static_cast<double>(ms.size())))];
  }
};

TEST(ServerTimeMode, ClientsAtThirtySixtyAndOneFortyFourHzDrawThirtyHzSnapshotsWithNoHeldFrameNorSnap) {
  const uint64_t seed = test_seed(0x5e77);
  GameSim sim(seed, server_time_config());
  const uint32_t logic_rates[] = {30, 60, 144};
  for (const uint32_t hz : logic_rates) {
    GameClientSetup setup;
    setup.up = setup.down = *link_profile("broadband");
    setup.frame_hz = 240.0;
    setup.frame_jitter = 0.3;
    setup.logic_hz = hz;
    sim.add_client(setup);
  }
  // The server's time at an instant: its last tick's, plus the time since that tick fell due.
  StampError error;
  sim.after_frame = [&](SimGameClient& c) {
    if (!c.client.server_clock().ready()) return;
    const Tick last = sim.room.last_tick();
    const uint64_t tick_us = protocol::server_time_us_of_tick(static_cast<uint64_t>(last.value()), 30);
    const MonoTime due = sim.room.next_due() - Duration::from_seconds(1.0 / 30.0);
    const double server_ms = static_cast<double>(tick_us) / 1000.0 + (sim.world.now - due).milliseconds_f();
    error.ms.push_back(static_cast<double>(c.client.server_clock().at(sim.world.now)) / 1000.0 - server_ms);
  };
  const Duration run = Duration::seconds(60);
  sim.run_for(run);
  std::printf("[ server-time ] seed %llu, room 30 Hz ticks and snapshots, broadband, 60 s\n",
              static_cast<unsigned long long>(seed));
  const QualityReport all = sim.print_reports("[ server-time ]");
  std::printf("[ server-time ] server-time reading less the server's: p1 %.1f ms, p50 %.1f ms, p99 %.1f ms (%zu frames)\n",
              error.quantile(0.01), error.quantile(0.5), error.quantile(0.99), error.ms.size());
  EXPECT_EQ(sim.invariants.total(), 0u);
  for (std::size_t i = 0; i < sim.clients.size(); ++i) {
    const GameClient& client = sim.clients[i]->client;
    const auto report = client.quality_report();
    ASSERT_TRUE(report.has_value()) << "client " << i;
    EXPECT_TRUE(client.server_time());
    EXPECT_EQ(client.logic_hz(), logic_rates[i]);
    const GameClientCounters& counters = client.counters();
    // Its own logic rate, unbent: within 1% of the rate for the time it played.
    const double played_s = run.seconds_f() - 1.0;
    std::printf("[ server-time ] c%zu logic %u Hz: %llu client ticks, %llu inputs sent, %llu frames, last acked %u of %u\n",
                i, logic_rates[i], static_cast<unsigned long long>(counters.client_ticks),
                static_cast<unsigned long long>(counters.inputs_sent), static_cast<unsigned long long>(report->frames),
                client.session().inputs().last_acked().value_or(0), client.session().inputs().next_sequence());
    EXPECT_NEAR(static_cast<double>(counters.client_ticks), logic_rates[i] * played_s, logic_rates[i] * 1.5) << "client " << i;
    EXPECT_EQ(counters.held_ticks, 0u);
    EXPECT_GT(report->frames, 10'000u) << "uncapped: ~240 frames a second";
    EXPECT_EQ(report->held_frames, 0u) << "client " << i;
    EXPECT_EQ(report->render_snaps, 0u) << "client " << i;
    // Inputs flow and are acked: the newest acked is within a round trip's worth of the newest sent.
    ASSERT_TRUE(client.session().inputs().last_acked().has_value());
    EXPECT_LT(client.session().inputs().next_sequence() - *client.session().inputs().last_acked(), logic_rates[i] / 4 + 4);
    // Predicted at the client's rate, corrected by the room's state: within a 30 Hz tick's walk
    // (the reference mover runs at 7 m/s: 0.23 m a tick).
    EXPECT_LE(report->correction_p99_m, 0.3f) << "client " << i;
    EXPECT_EQ(report->prediction_snaps, 0u) << "client " << i;
  }
  EXPECT_EQ(all.render_snaps, 0u);
  // Stamps are the server's time as the client reads it: within 20 ms on broadband (it reads a
  // little ahead: half the measured round trip, whose samples include the peer's ack delay, is a
  // little more than the one-way trip).
  EXPECT_GT(error.quantile(0.01), -20.0);
  EXPECT_LT(error.quantile(0.99), 20.0);
  for (const ClientLink& link : sim.facade->clients()) {
    for (const ReasonCount& r : link.reasons) {
      EXPECT_FALSE(r.name == "input.drop.stamp_ahead" && r.count > 0) << r.name;
      EXPECT_FALSE(r.name == "input.drop.overflow" && r.count > 0) << r.name;
    }
  }
}

// A client asking for more than the contract's ceiling runs at the ceiling; a tick-numbered room
// ignores the ask and runs its own tick rate.
TEST(ServerTimeMode, AClientsLogicRateIsCappedByTheContractAndIgnoredInSnapshotMode) {
  const uint64_t seed = test_seed(0x5e78);
  GameSim capped(seed, server_time_config(60));
  GameClientSetup setup;
  setup.up = setup.down = *link_profile("broadband");
  setup.logic_hz = 144;
  capped.add_client(setup);
  capped.run_for(Duration::seconds(3));
  EXPECT_EQ(capped.clients[0]->client.logic_hz(), 60.0);
  GameSimConfig snapshot_mode;
  GameSim ticked(seed, snapshot_mode);
  ticked.add_client(setup);
  ticked.run_for(Duration::seconds(3));
  EXPECT_FALSE(ticked.clients[0]->client.server_time());
  EXPECT_EQ(ticked.clients[0]->client.logic_hz(), 60.0);  // the room's tick rate
}

}  // namespace
}  // namespace tickwire
