// A client whose process freezes keeps its session until the timeout, and the server keeps building
// its snapshots; with a crowd too big for one message and nothing held to code against, most are
// never sent, so its sent frames stop rolling. They let go of the shared world frames as they leave
// the baseline window, and the operator sees it in the server's stats; the pool never runs dry, and
// the client, thawed, plays on.
#include <gtest/gtest.h>

#include <cstdio>
#include <string_view>

#include "crowd_records.h"
#include "game_sim.h"
#include "support.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

constexpr uint32_t kCrowd = 240;  // props: a whole snapshot of them passes one message

uint64_t reason(const Server& server, std::string_view name) {
  for (const ReasonCount& r : server.stats().reasons)
    if (r.name == name) return r.count;
  return 0;
}

// The crowd about the spawn point, somewhere new every tick.
void add_crowd(GameSim& sim) {
  const world::Vec3 centre = sim.map.spawn_points()[0].position;
  sim.watched.more_records = [centre](Tick tick, TickRecords& out) { add_crowd_records(tick, centre, kCrowd, out); };
}

TEST(StalledClientFrames, AFrozenClientsFramesAgeOutCountedInTheServersStats) {
  const uint64_t seed = test_seed(0x57a11);
  GameSimConfig config;
  config.map_text = flat_map_json();  // no map objects: no rest table to code against either
  config.adjust_policy = [](RoomPolicy& policy) { policy.budgets.snapshot_budget_bytes = 9000; };
  GameSim sim(seed, config, 4);
  add_crowd(sim);
  for (int i = 0; i < 3; ++i) sim.add_client(GameClientSetup{});
  sim.run_for(Duration::seconds(2));
  ASSERT_TRUE(sim.all_welcomed()) << "seed=" << seed;
  const Server& server = *sim.facade;
  EXPECT_EQ(reason(server, "replication.world_frames.released"), 0u) << "clients served every tick release nothing";
  EXPECT_GT(server.stats().world_frames, 0u);

  sim.freeze_client(0);
  sim.run_for(Duration::seconds(3));  // within the 10 s timeout: its session stays
  const ServerStats frozen = server.stats();
  std::printf("frozen 3 s: %llu sent frames released, %llu newest frames copied, %llu world frames allocated, %llu states copied\n",
              static_cast<unsigned long long>(reason(server, "replication.world_frames.released")),
              static_cast<unsigned long long>(reason(server, "replication.world_frames.newest_copied")),
              static_cast<unsigned long long>(frozen.world_frames), static_cast<unsigned long long>(frozen.frame_states_copied));
  EXPECT_EQ(frozen.clients, 3u);
  EXPECT_GT(reason(server, "replication.world_frames.released"), 0u) << "its frames aged out (seed=" << seed << ")";
  EXPECT_EQ(reason(server, "replication.world_frames.pool_dry"), 0u);
  EXPECT_GT(frozen.world_frames, 0u);
  EXPECT_LE(frozen.world_frames, kMaxHeldWorldFrames);

  const uint64_t snapshots_before = sim.clients[0]->facade->stats().snapshots;
  sim.thaw_client(0);
  sim.run_for(Duration::seconds(2));
  const Client& back = *sim.clients[0]->facade;
  EXPECT_EQ(back.status().phase, ClientPhase::playing) << "seed=" << seed;
  EXPECT_GT(back.stats().snapshots, snapshots_before + 60) << "it takes snapshots again";
  for (const ReasonCount& r : back.stats().reasons) EXPECT_NE(r.name, "session.drop.delta_unresolved") << r.count;
  EXPECT_EQ(reason(server, "replication.world_frames.pool_dry"), 0u);
}

}  // namespace
}  // namespace tickwire
