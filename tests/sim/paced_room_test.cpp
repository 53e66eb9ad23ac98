// The room paced by its real loop (RoomLoop: TickPacer + DeadlineWait) on a host whose sleeps
// overshoot 7.8x (sleep(1 ms) takes 7.8 ms, sleep(14 ms) takes 83 ms), with clients connected over
// the simulated network: the loop learns the overshoot and still runs 60 Hz within 1%, and every
// simulated tick produces exactly one snapshot per client.
#include <gtest/gtest.h>

#include <cstdio>

#include "../clock/overshooting_host.h"
#include "room_sim.h"
#include "support.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

TEST(PacedRoom, SixtyHertzWithinOnePercentOnAnOvershootingHostAndOneSnapshotPerTick) {
  const uint64_t seed = test_seed(0x5101);
  RoomSim sim(seed);
  sim.world.net.set_default_link(steady_link(2));
  for (int i = 0; i < 4; ++i) sim.add_client();

  SimHostTimer host(sim.world.now, overshooting_sleep_model(), Duration::microseconds(20));
  RoomLoop loop(host, sim.server, kAnchor);
  const MonoTime start = sim.world.now;
  sim.run_paced(loop, host, Duration::seconds(60), Duration::microseconds(300));
  const double elapsed_s = (sim.world.now - start).seconds_f();
  const double achieved_hz = static_cast<double>(sim.room.clock().executed_ticks()) / elapsed_s;
  std::printf("seed=%llu: achieved %.3f Hz over %.1f s, measured %.3f Hz, sleep factor %.2f, %llu iterations, "
              "deepest update %u, declared %lld\n",
              static_cast<unsigned long long>(seed), achieved_hz, elapsed_s, loop.pacer().measured_hz(),
              loop.pacer().sleep_factor(), static_cast<unsigned long long>(loop.iterations()), sim.deepest_update,
              static_cast<long long>(sim.room.clock().declared_ticks()));

  EXPECT_NEAR(achieved_hz, 60.0, 0.6) << "seed " << seed;
  EXPECT_NEAR(loop.pacer().measured_hz(), 60.0, 0.6);
  EXPECT_GT(loop.pacer().sleep_factor(), 5.0) << "the loop learned the host's overshoot";
  EXPECT_EQ(sim.room.clock().declared_ticks(), 0);
  EXPECT_EQ(sim.invariants.total(), 0u);
  ASSERT_TRUE(sim.all_welcomed());
  for (uint32_t slot = 0; slot < 4; ++slot) {
    SCOPED_TRACE(testing::Message() << "seed " << seed << " slot " << slot);
    const ReplicationClientStats* stats = snapshot_stats(sim.server, slot);
    ASSERT_NE(stats, nullptr);
    EXPECT_EQ(stats->snapshots_sent,
              static_cast<uint64_t>(stats->last_snapshot_tick - stats->first_snapshot_tick + 1));
    const SimSessionClient* client = sim.client_of(RoomServer::owner_of_slot(slot));
    ASSERT_NE(client, nullptr);
    const auto& ticks = client->snapshot_ticks;
    ASSERT_GT(ticks.size(), 3000u);
    for (std::size_t i = 1; i < ticks.size(); ++i) ASSERT_EQ(ticks[i], ticks[i - 1] + 1) << "at " << i;
    const TestPawn* pawn = sim.pawn_of(*client);
    ASSERT_NE(pawn, nullptr);
    EXPECT_EQ(out_of_order_applications(*pawn), 0u);
  }
}

}  // namespace
}  // namespace tickwire
