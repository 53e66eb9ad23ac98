// Lanes in the room: 60 Hz ticks, a 30 Hz world lane and the pose lane at the tick rate (near and
// important transforms every tick, the rest every other). Snapshots still go every tick (the owner
// detail and the pose lane ride them); a world-lane entity between world ticks is carried, not
// resampled, so remote entities are drawn between the samples taken: no held frame, no render snap.
#include <gtest/gtest.h>

#include "game_profiles.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

void expect_smooth(const ProfileRun& run, uint32_t clients) {
  ASSERT_EQ(run.welcomed, clients);
  expect_no_held_or_snapped(run);
}

TEST(GameLanes, A30HzWorldLaneOnBroadbandNeitherHoldsNorSnaps) {
  const uint64_t seed = test_seed(0x1a4e);
  expect_smooth(run_profile("broadband", seed, 8, Duration::seconds(15), false, 30), 8);
}

TEST(GameLanes, A30HzWorldLaneOnTransatlanticNeitherHoldsNorSnaps) {
  const uint64_t seed = test_seed(0x1a4f);
  expect_smooth(run_profile("transatlantic", seed, 8, Duration::seconds(15), false, 30), 8);
}

// The lanes really split the world: a snapshot goes every tick, and between world ticks the
// far entities are carried while the near ones and the own pawn move.
TEST(GameLanes, FarEntitiesRideTheWorldLaneNearOnesThePoseLane) {
  const uint64_t seed = test_seed(0x1a50);
  GameSimConfig config;
  config.snapshot_rate_hz = 30;
  config.map_text = flat_map_json();  // spawns 10 m apart along x: pawns 0..2 near each other, 12+ far
  GameSim sim(seed, config);
  GameClientSetup setup;
  setup.up = setup.down = steady_link(20);
  setup.input = walk_forward();
  for (int i = 0; i < 16; ++i) sim.add_client(setup);
  uint64_t carried = 0, taken = 0;
  sim.after_frame = [&](SimGameClient& c) {
    if (&c != sim.clients.front().get() || c.client.interpolator() == nullptr) return;
    if (c.client.interpolator()->timeline().empty()) return;
    if (const auto* samples = c.client.interpolator()->timeline().at(c.client.interpolator()->timeline().newest())) {
      for (const EntitySample& s : *samples) (s.carried ? carried : taken) += 1;
    }
  };
  sim.run_for(Duration::seconds(6));
  ASSERT_TRUE(sim.all_welcomed()) << "seed " << seed;
  EXPECT_GT(carried, 0u) << "far pawns between world ticks";
  EXPECT_GT(taken, carried) << "near pawns every tick, far ones every other";
  const auto stats = sim.server.stats(0);
  ASSERT_TRUE(stats && stats->replication);
  EXPECT_GT(stats->replication->snapshots_sent, 300u) << "a snapshot every tick: 60 Hz";
}

}  // namespace
}  // namespace tickwire
