// A figure more than a test: what the reference map costs each client per tick with its logic
// running: every door cycling (its button pressed every 1.5 s, so doors open, close and open
// again), the light chain toggling behind the south door, the flickering lights, three pawns
// walking. Snapshots carry only what differs from the rest table, so the cost follows what moves:
// the bytes per snapshot are printed (sent over the snapshots of 20 s, transatlantic, fixed seed),
// and held to the snapshot budget and to every object record matching the server's.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "game_profiles.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

TEST(LogicBandwidth, TheReferenceMapWithItsLogicRunningCostsWhatMoves) {
  const std::optional<LinkModel> link = link_profile("transatlantic");
  ASSERT_TRUE(link.has_value());
  GameSim sim(5150, GameSimConfig{});
  GameClientSetup setup;
  setup.up = setup.down = *link;
  for (int i = 0; i < 3; ++i) sim.add_client(setup);
  sim.run_for(Duration::seconds(3));
  ASSERT_TRUE(sim.all_welcomed());
  ASSERT_NE(sim.game.logic(), nullptr);

  std::vector<uint32_t> buttons;
  for (const char* key : {"button.n", "button.s", "button.e", "button.w"}) buttons.push_back(*sim.map.object_index(key));
  const auto sent = [&] {
    uint64_t bytes = 0, snapshots = 0;
    for (const ClientLink& client : sim.facade->clients()) {
      bytes += client.snapshot_bytes;
      snapshots += client.snapshots_sent;
    }
    return std::pair{bytes, snapshots};
  };
  const auto [bytes_before, snapshots_before] = sent();
  uint64_t presses = 0;
  for (int beat = 0; beat < 20 * 2 / 3; ++beat) {  // 20 s: every button every 1.5 s
    for (uint32_t button : buttons) presses += sim.game.logic()->use(button, LogicActivator::none()) ? 1 : 0;
    sim.run_for(Duration::milliseconds(1500));
  }
  const auto [bytes_after, snapshots_after] = sent();
  const uint64_t snapshots = snapshots_after - snapshots_before;
  ASSERT_GT(snapshots, 3u * 60u * 19u);
  const double per_snapshot = static_cast<double>(bytes_after - bytes_before) / static_cast<double>(snapshots);
  std::printf("[ logic bandwidth ] reference map, 4 doors cycling, the light chain and flicker, 3 pawns: %.1f bytes "
              "per snapshot (%.0f bytes/s per client at 60 Hz) over %llu snapshots, %llu presses, %zu objects differing "
              "from the map at the end\n",
              per_snapshot, per_snapshot * 60.0, static_cast<unsigned long long>(snapshots),
              static_cast<unsigned long long>(presses), sim.game.changed_objects());
  EXPECT_GT(presses, 0u);
  EXPECT_LT(per_snapshot, 1200.0) << "one datagram";
  EXPECT_EQ(sim.invariants.total(), 0u);
}

}  // namespace
}  // namespace tickwire
