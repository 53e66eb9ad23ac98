// A durable room over a whole game (SimNetwork, seeded), on each backend and under each way of
// journaling (in-lane, canonical.v1; behind the cadence, kernel.v1): an editor retunes lamps while
// the server fills voxel cells. A watcher is never told of a revision the journal does not hold
// (with the store cut off, nothing new reaches it; once the store is back, everything does), and a
// fresh game recovered from the store holds exactly the running game's edit set and voxel cells.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <thread>
#include <tuple>

#include "backend_stores.h"
#include "durable_room.h"
#include "game_sim.h"
#include "stalling_store.h"
#include "support.h"

namespace tickwire::durable {
namespace {

using namespace tickwire::test;
using namespace tickwire::durable::test_support;

GameClientSetup standing(bool authority) {
  GameClientSetup setup;
  setup.input = [](uint32_t) { return protocol::InputCmd{}; };
  setup.world_authority = authority;
  return setup;
}

// The simulation runs far faster than the wall, the store's commits take wall time: waits (a real
// wait) until the keeper has written everything queued, then lets the server send what it released.
void settle(GameSim& sim, const RoomKeeper& keeper) {
  for (int i = 0; i < 20000 && keeper.stats().waiting > 0 && !keeper.stopped(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  sim.run_for(Duration::from_seconds(0.5));
}

class KeeperSim : public ::testing::TestWithParam<std::tuple<std::string, TickEpoch>> {};

TEST_P(KeeperSim, NothingIsAcknowledgedBeforeItIsJournaledAndARecoveredGameHoldsEverything) {
  const auto& [backend, epoch] = GetParam();
  const uint64_t seed = test_seed(2111);
  BackendStores stores(backend);
  ASSERT_FALSE(stores.url().empty()) << stores.why();
  GameSimConfig config;
  config.map_text = busy_map_text();
  GameSim sim(seed, config);
  auto stalling = std::make_unique<StallingStore>(stores.open());
  StallingStore& link = *stalling;
  RoomKeeperConfig keeper_config;
  keeper_config.checkpoint_every_ticks = 90;
  DurableRoom room(std::move(stalling), "keeper-sim", "server-a", sim.room, sim.server, epoch, keeper_config);
  ASSERT_NE(room.keeper, nullptr) << room.error;
  SimGameClient& editor = sim.add_client(standing(true));
  SimGameClient& watcher = sim.add_client(standing(false));
  sim.run_for(Duration::from_seconds(1));
  ASSERT_TRUE(sim.all_welcomed()) << "seed=" << seed;

  const std::vector<uint32_t> lamps = busy_lamps(sim.map);
  const uint32_t dig = *sim.map.object_index("dig");
  uint32_t gestures = 0, cells = 0;
  sim.watched.after_tick = [&](Tick tick) {
    if (tick.value() % 6 == 0) (void)editor.facade->edit(busy_gesture(lamps, ++gestures));
    for (int i = 0; i < 3; ++i) EXPECT_FALSE(sim.game.write_voxel(dig, dig_cell(cells++), 1).has_value());
  };
  sim.run_for(Duration::seconds(3));
  if (epoch == TickEpoch::kernel_v1) {
    // The store cut off (behind the cadence, the ticks go on): the watcher hears nothing new.
    // (In-lane, a tick waits for its entry: the room stalls with the store until the lease runs out.)
    settle(sim, *room.keeper);
    ASSERT_NE(watcher.facade->scene_state(), nullptr);
    const uint64_t retries = room.keeper->stats().store_retries;
    link.set_stalled(true);  // a write already in the store's hands may still land: wait for the first refused one
    for (int i = 0; i < 2000 && room.keeper->stats().store_retries == retries; ++i) {
      sim.run_for(Duration::milliseconds(16));  // the game goes on making facts for the writer to try
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    sim.run_for(Duration::from_seconds(0.1));
    const uint32_t told_before = watcher.facade->scene_state()->revision;
    sim.run_for(Duration::from_seconds(1.5));
    EXPECT_GT(sim.game.scene_edits().revision(), told_before + 10);
    EXPECT_EQ(watcher.facade->scene_state()->revision, told_before) << "told of edits the journal does not hold";
    EXPECT_GT(sim.server.held_acknowledgements(), 0u);
    EXPECT_GT(room.keeper->stats().store_retries, 0u);
    link.set_stalled(false);
  }
  // Back: it hears everything.
  sim.watched.after_tick = nullptr;
  settle(sim, *room.keeper);
  // The writer is a real thread: on a loaded host the last entries can still be in its hands after
  // one settle, and the watcher is told once they are journaled. Settle until it has been told
  // (bounded); the check below is unchanged.
  for (int i = 0; i < 40 && watcher.facade->scene_state() != nullptr &&
                  watcher.facade->scene_state()->revision != sim.game.scene_edits().revision();
       ++i) {
    settle(sim, *room.keeper);
  }
  ASSERT_NE(watcher.facade->scene_state(), nullptr);
  EXPECT_EQ(watcher.facade->scene_state()->revision, sim.game.scene_edits().revision()) << "seed=" << seed;
  EXPECT_EQ(sim.server.held_acknowledgements(), 0u);
  EXPECT_EQ(sim.server.drops()[SessionDrop::held_past_cap], 0u);

  ASSERT_TRUE(room.keeper->checkpoint_and_flush(sim.room, sim.room.last_tick()));
  const KeeperStats stats = room.keeper->stats();
  EXPECT_FALSE(stats.stopped.has_value());
  EXPECT_EQ(stats.in_lane, epoch != TickEpoch::kernel_v1);
  EXPECT_GT(stats.checkpoints, 2u);

  // A fresh room recovered from the store: the same edit set, the same cells, both players' pawns
  // held for them where they stood.
  GameSim fresh(seed, config);
  auto store = stores.open();
  RecoveryResult recovered = recover_room(*store, "keeper-sim", fresh.room);
  ASSERT_TRUE(std::holds_alternative<Recovery>(recovered));
  EXPECT_EQ(std::get<Recovery>(recovered).facts_refused, 0u);
  EXPECT_EQ(fresh.game.scene_edits().state(), sim.game.scene_edits().state());
  EXPECT_TRUE(fresh.game.voxels().cells() == sim.game.voxels().cells());
  ASSERT_EQ(fresh.room.held_pawns().size(), 2u);
  for (const HeldPawn& held : fresh.room.held_pawns()) {
    const auto owner = sim.room.owner_of(held.pawn);
    ASSERT_TRUE(owner.has_value());
    EXPECT_EQ(held.player, sim.room.session(*owner)->player);
    EXPECT_EQ(fresh.game.pawn_detail(held.pawn), sim.game.pawn_detail(held.pawn));
  }
  std::printf("[ keeper ] %s %s seed=%llu: %u gestures, %u cells; %llu facts in %llu entries (%llu bytes), %llu checkpoints "
              "(newest %llu bytes, %.2f ms to write), %llu retries while cut off\n",
              backend.c_str(), std::string(epoch_name(epoch)).c_str(), static_cast<unsigned long long>(seed), gestures, cells,
              static_cast<unsigned long long>(stats.facts), static_cast<unsigned long long>(stats.journal_entries),
              static_cast<unsigned long long>(stats.journal_bytes), static_cast<unsigned long long>(stats.checkpoints),
              static_cast<unsigned long long>(stats.checkpoint_bytes), stats.checkpoint_write_ms,
              static_cast<unsigned long long>(stats.store_retries));
}

// The room's own facts are journaled, not only its game's: with the journal alone (no checkpoint
// after the first), the players who joined are in a room recovered from the store, their pawns held
// for them. (A server once kept only the game's facts: a pawn joined after the newest checkpoint was
// lost to a kill -9, and its player's resume token named a pawn nobody had.)
TEST(KeeperSimPawns, PlayersWhoJoinedAfterTheNewestCheckpointAreInTheJournal) {
  const uint64_t seed = test_seed(2113);
  BackendStores stores("sqlite");
  GameSim sim(seed, GameSimConfig{});
  RoomKeeperConfig keeper_config;
  keeper_config.checkpoint_every_ticks = 0;  // the journal alone
  DurableRoom room(stores.open(), "pawns-sim", "server-a", sim.room, sim.server, TickEpoch::kernel_v1, keeper_config);
  ASSERT_NE(room.keeper, nullptr) << room.error;
  sim.add_client(standing(false));
  sim.add_client(standing(false));
  sim.run_for(Duration::from_seconds(1));
  ASSERT_TRUE(sim.all_welcomed()) << "seed=" << seed;
  settle(sim, *room.keeper);
  EXPECT_GE(room.keeper->stats().facts, 2u) << "each pawn joined is a fact";

  GameSim fresh(seed, GameSimConfig{});
  auto store = stores.open();
  RecoveryResult recovered = recover_room(*store, "pawns-sim", fresh.room);
  ASSERT_TRUE(std::holds_alternative<Recovery>(recovered));
  EXPECT_GE(std::get<Recovery>(recovered).facts_replayed, 2u);
  ASSERT_EQ(fresh.room.held_pawns().size(), 2u) << "seed=" << seed;
  for (const HeldPawn& held : fresh.room.held_pawns()) {
    const auto owner = sim.room.owner_of(held.pawn);
    ASSERT_TRUE(owner.has_value());
    EXPECT_EQ(held.player, sim.room.session(*owner)->player);
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, KeeperSim,
                         ::testing::Combine(::testing::Values("sqlite", "postgresql"),
                                            ::testing::Values(TickEpoch::canonical_v1, TickEpoch::kernel_v1)),
                         [](const auto& param_info) {
                           return std::get<0>(param_info.param) + "_" +
                                  (std::get<1>(param_info.param) == TickEpoch::kernel_v1 ? "kernel" : "canonical");
                         });

}  // namespace
}  // namespace tickwire::durable
