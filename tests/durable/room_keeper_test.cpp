// RoomKeeper's edges, on each backend, with the wall clock in the test's hands: authority ends with
// the renewed term at once (not at the writer's next look); a holder whose term ran out unseen while
// another process took the room stops before its next write (nothing of it lands, nothing after
// the takeover is acknowledged; the store's fence stands behind this: store_test); a release lets the
// next holder take the room at once; and a recovered room's durable ticks and journal go on from
// where the store left them.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <memory>

#include "backend_stores.h"
#include "tickwire/durable/room_keeper.h"
#include "tickwire/durable/room_records.h"
#include "still_game.h"

namespace tickwire::durable {
namespace {

using test_support::BackendStores;

// A game whose only durable life is the facts a test hands it.
class FactGame final : public test::StillGame {
 public:
  void take_facts(std::vector<DurableFact>& out) override {
    out.insert(out.end(), pending.begin(), pending.end());
    pending.clear();
  }
  void save_state(std::vector<uint8_t>& out) const override { out.push_back(static_cast<uint8_t>(replayed.size())); }
  bool restore_state(std::span<const uint8_t> state) override { return state.size() == 1; }
  bool replay_fact(const DurableFact& fact) override {
    replayed.push_back(fact);
    return true;
  }
  std::vector<DurableFact> pending;
  std::vector<DurableFact> replayed;
};

struct Held {
  std::unique_ptr<Store> store;
  std::unique_ptr<RoomKeeper> keeper;
};

class KeeperEdges : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { ASSERT_FALSE(stores_.url().empty()) << stores_.why(); }
  WallTime now() const { return WallTime::from_ns(now_ns_.load()); }
  // `owner` takes the room at the test's now and keeps it through a keeper (in-lane: each take waits).
  Held hold(const std::string& owner, Simulation& game, Recovery* recovered = nullptr) {
    Held held{stores_.open(), nullptr};
    if (!held.store) return held;
    auto supervisor = std::make_unique<LeaseSupervisor>(*held.store, "edges", owner, LeaseSupervisorConfig{Duration::seconds(10)});
    if (!supervisor->poll(now())) return held;
    RecoveryResult result = recover_room(*held.store, "edges", game);
    EXPECT_TRUE(std::holds_alternative<Recovery>(result));
    const Recovery recovery = std::get<Recovery>(result);
    if (recovered != nullptr) *recovered = recovery;
    RoomKeeperConfig config;
    config.checkpoint_every_ticks = 0;
    held.keeper = std::make_unique<RoomKeeper>(*held.store, std::move(supervisor), recovery, [this] { return now(); }, config);
    return held;
  }
  BackendStores stores_{GetParam()};
  std::atomic<int64_t> now_ns_{1'800'000'000'000'000'000};
};

TEST_P(KeeperEdges, AuthorityEndsWithTheRenewedTermAtOnce) {
  FactGame game;
  Held a = hold("server-a", game);
  ASSERT_NE(a.keeper, nullptr);
  EXPECT_TRUE(a.keeper->authority());
  now_ns_ += Duration::seconds(9).ns();  // past the term less its fifth: authority is over, renewed or not
  EXPECT_FALSE(a.keeper->authority());
}

TEST_P(KeeperEdges, AHolderWhoseTermRanOutStopsBeforeItsNextWriteAndNothingOfItLands) {
  FactGame game;
  Held a = hold("server-a", game);
  ASSERT_NE(a.keeper, nullptr);
  game.pending = {DurableFact{1, {1}}};
  a.keeper->take_facts(game, 1, Tick::from_value(1));
  EXPECT_EQ(a.keeper->durable_through(), 1u);
  // A's term runs out (as if it had stalled): its authority ends at once, its writer stops it at its
  // next look at the lease (giving up even a lease that look took again), and B takes the room.
  now_ns_ += Duration::seconds(11).ns();
  EXPECT_FALSE(a.keeper->authority());
  for (int i = 0; i < 2000 && !a.keeper->stopped(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  FactGame game_b;
  Held b = hold("server-b", game_b);
  ASSERT_NE(b.keeper, nullptr);
  EXPECT_EQ(game_b.replayed.size(), 1u) << "B recovered what A journaled";
  game.pending = {DurableFact{1, {2}}};
  a.keeper->take_facts(game, 2, Tick::from_value(2));
  EXPECT_EQ(a.keeper->stopped(), KeeperStop::lease_ran_out);
  EXPECT_FALSE(a.keeper->authority());
  EXPECT_EQ(a.keeper->durable_through(), 1u) << "nothing after the takeover is acknowledged";
  auto journal = b.store->journal_after("edges", 0);
  ASSERT_TRUE(stored(journal));
  EXPECT_EQ(std::get<std::vector<JournalEntry>>(journal).size(), 1u) << "A's late write did not land";
}

TEST_P(KeeperEdges, AReleaseLetsTheNextHolderTakeTheRoomAtOnceAndItGoesOnFromTheStore) {
  FactGame game;
  Held a = hold("server-a", game);
  ASSERT_NE(a.keeper, nullptr);
  game.pending = {DurableFact{1, {1}}, DurableFact{2, {2}}};
  a.keeper->take_facts(game, 1, Tick::from_value(40));
  ASSERT_TRUE(a.keeper->checkpoint_and_flush(game, Tick::from_value(41)));
  game.pending = {DurableFact{3, {3}}};
  a.keeper->take_facts(game, 2, Tick::from_value(50));
  a.keeper->release();
  EXPECT_EQ(a.keeper->stopped(), KeeperStop::released);
  FactGame game_b;
  Recovery recovered;
  Held b = hold("server-b", game_b, &recovered);  // no time has passed: only the release lets it in
  ASSERT_NE(b.keeper, nullptr);
  EXPECT_EQ(recovered.checkpoint_tick, Tick::from_value(41));
  EXPECT_EQ(recovered.journal_entries, 1u) << "the checkpoint covers the first entry";
  EXPECT_EQ(game_b.replayed, (std::vector<DurableFact>{DurableFact{3, {3}}}));
  EXPECT_EQ(recovered.last_tick, Tick::from_value(50));
  EXPECT_EQ(b.keeper->durable_tick(Tick::from_value(0)), Tick::from_value(51)) << "durable ticks go on counting";
  EXPECT_EQ(recovered.next_sequence, 3u);
}

// A drain (SIGTERM) before the room advanced past its newest checkpoint: that checkpoint already
// holds the room, so none is written again (the store refuses a tick twice) and the drain succeeds.
TEST_P(KeeperEdges, ADrainAtTheNewestCheckpointsTickWritesNothingTwice) {
  FactGame game;
  Held a = hold("server-a", game);
  ASSERT_NE(a.keeper, nullptr);
  ASSERT_TRUE(a.keeper->checkpoint_and_flush(game, Tick::from_value(0)));
  ASSERT_TRUE(a.keeper->checkpoint_and_flush(game, Tick::from_value(0)));
  EXPECT_EQ(a.keeper->stats().checkpoints, 1u);
  EXPECT_FALSE(a.keeper->stopped().has_value());
  a.keeper->release();
  EXPECT_EQ(a.keeper->stopped(), KeeperStop::released);
}

INSTANTIATE_TEST_SUITE_P(Backends, KeeperEdges, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& param_info) { return param_info.param; });

}  // namespace
}  // namespace tickwire::durable
