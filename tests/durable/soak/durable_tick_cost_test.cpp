// What durability costs a tick (seed 003: "the tick p99 with checkpoints on vs off", "with the
// journal on vs off"), measured, not asserted: one busy room of the reference game (an editor
// retuning lamps every 6 ticks, the server filling 3 voxel cells a tick, a watcher) for 20 s of game
// time, in the same process one after the other: no store; the journal behind the cadence
// (kernel.v1) without checkpoints; with a checkpoint every second; and in-lane (canonical.v1) with a
// checkpoint every second. Printed: each server update's real time (p50, p99, max, over the updates
// that ran a tick), the checkpoints' bytes and write time, and what saving the state costs the tick
// thread. Figures only: this machine's speed drifts, so read the columns side by side.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "../durable_room.h"
#include "../backend_stores.h"
#include "game_sim.h"
#include "support.h"

namespace tickwire::durable {
namespace {

using namespace tickwire::test;
using namespace tickwire::durable::test_support;

struct Costs {
  double p50_ms = 0, p99_ms = 0, max_ms = 0;
  std::size_t updates = 0;
  KeeperStats keeper;
  double save_us = 0;  // one save_state of the final state, on the tick thread
};

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

// `epoch` nullopt: no store at all.
Costs run_busy_room(const BackendStores& stores, const std::string& room_name, std::optional<TickEpoch> epoch,
                    uint32_t checkpoint_every_ticks, uint64_t seed) {
  GameSimConfig config;
  config.map_text = busy_map_text();
  GameSim sim(seed, config);
  std::optional<DurableRoom> room;
  if (epoch) {
    RoomKeeperConfig keeper;
    keeper.checkpoint_every_ticks = checkpoint_every_ticks;
    room.emplace(stores.open(), room_name, "cost", sim.room, sim.server, *epoch, keeper);
    EXPECT_NE(room->keeper, nullptr) << room->error;
  }
  GameClientSetup setup;
  setup.input = [](uint32_t) { return protocol::InputCmd{}; };
  setup.world_authority = true;
  SimGameClient& editor = sim.add_client(setup);
  setup.world_authority = false;
  sim.add_client(setup);
  sim.run_for(Duration::seconds(1));
  const std::vector<uint32_t> lamps = busy_lamps(sim.map);
  const uint32_t dig = *sim.map.object_index("dig");
  uint32_t gestures = 0, cells = 0;
  sim.watched.after_tick = [&](Tick tick) {
    if (tick.value() % 6 == 0) (void)editor.facade->edit(busy_gesture(lamps, ++gestures));
    for (int i = 0; i < 3; ++i) (void)sim.game.write_voxel(dig, dig_cell(cells++), 1);
  };
  std::vector<double> update_ms;
  update_ms.reserve(4096);
  sim.update_wall_ms = &update_ms;
  sim.run_for(Duration::seconds(20));
  sim.update_wall_ms = nullptr;
  Costs costs;
  costs.updates = update_ms.size();
  costs.p50_ms = percentile(update_ms, 0.50);
  costs.p99_ms = percentile(update_ms, 0.99);
  costs.max_ms = update_ms.empty() ? 0 : *std::max_element(update_ms.begin(), update_ms.end());
  if (room && room->keeper) {
    EXPECT_TRUE(room->keeper->checkpoint_and_flush(sim.room, sim.room.last_tick()));
    costs.keeper = room->keeper->stats();
  }
  std::vector<uint8_t> state;
  const auto began = std::chrono::steady_clock::now();
  constexpr int kSaves = 100;
  for (int i = 0; i < kSaves; ++i) {
    state.clear();
    sim.game.save_state(state);
  }
  costs.save_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - began).count() / kSaves;
  return costs;
}

class DurableTickCost : public ::testing::TestWithParam<std::string> {};

TEST_P(DurableTickCost, TheTickWithTheJournalAndCheckpointsOnAndOff) {
  const uint64_t seed = test_seed(2141);
  BackendStores stores(GetParam());
  ASSERT_FALSE(stores.url().empty()) << stores.why();
  struct Row {
    const char* name;
    std::optional<TickEpoch> epoch;
    uint32_t every;
  };
  const Row rows[] = {{"no store", std::nullopt, 0},
                      {"kernel.v1, no checkpoints", TickEpoch::kernel_v1, 0},
                      {"kernel.v1, checkpoint every 60 ticks", TickEpoch::kernel_v1, 60},
                      {"canonical.v1 (in-lane), checkpoint every 60 ticks", TickEpoch::canonical_v1, 60}};
  std::printf("[ tick cost ] %s seed=%llu, 20 s of a busy room a row:\n", GetParam().c_str(), static_cast<unsigned long long>(seed));
  int n = 0;
  for (const Row& row : rows) {
    const Costs c = run_busy_room(stores, fmt::format("cost-{}", n++), row.epoch, row.every, seed);
    EXPECT_GT(c.updates, 1000u);
    std::printf("  %-50s update p50 %.3f ms, p99 %.3f ms, max %.2f ms (%zu updates); journal %llu entries; checkpoints %llu "
                "(newest %llu bytes, written in %.2f ms); save_state %.1f us\n",
                row.name, c.p50_ms, c.p99_ms, c.max_ms, c.updates, static_cast<unsigned long long>(c.keeper.journal_entries),
                static_cast<unsigned long long>(c.keeper.checkpoints), static_cast<unsigned long long>(c.keeper.checkpoint_bytes),
                c.keeper.checkpoint_write_ms, c.save_us);
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, DurableTickCost, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& param_info) { return param_info.param; });

}  // namespace
}  // namespace tickwire::durable
