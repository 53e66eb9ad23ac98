// The store on both backends, each a real database (SQLite in a temporary directory, PostgreSQL a
// throwaway cluster): the schema migrated at open and once only, the single-writer lease (one
// holder, its fence moving with every new holder, a lapsed holder's renewal and writes refused),
// the epoch ratchet (forward only: a downgrade refused by the database itself, even by SQL that
// goes around the store), the fenced journal and checkpoints, and a race to acquire with exactly
// one winner.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "backend_stores.h"
#include "tickwire/durable/store.h"

namespace tickwire::durable {
namespace {

constexpr Duration kTerm = Duration::seconds(10);
const WallTime kT0 = WallTime::from_ns(1'700'000'000'000'000'000);

// A fresh store of one backend, and the URL it was opened at (for a second connection).
struct Opened {
  std::string url;
  std::unique_ptr<Store> store;
};

class StoreTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    stores_ = std::make_unique<test_support::BackendStores>(GetParam());
    ASSERT_FALSE(stores_->url().empty()) << stores_->why();
    url_ = stores_->url();
    store_ = open();
  }
  void TearDown() override {
    store_.reset();
    stores_.reset();
  }
  std::unique_ptr<Store> open() { return stores_->open(); }
  // SQL straight at the database, around the store: the backend's error message, or empty.
  std::string raw_sql(const std::string& sql) { return stores_->raw_sql(sql); }
  Lease lease(std::string_view room, std::string_view owner, WallTime now = kT0) {
    auto r = store_->acquire(room, owner, now, kTerm);
    const StoreFailure* f = store_failure(r);
    EXPECT_EQ(f, nullptr) << (f != nullptr ? f->detail : "");
    return f == nullptr ? std::get<Lease>(r) : Lease{};
  }
  static StoreRefusal refusal(const StoreStatus& s) { return store_failure(s) ? store_failure(s)->reason : StoreRefusal::count_; }
  template <class T>
  static StoreRefusal refusal_of(const StoreResult<T>& s) {
    return store_failure(s) ? store_failure(s)->reason : StoreRefusal::count_;
  }

  std::unique_ptr<test_support::BackendStores> stores_;
  std::string url_;
  std::unique_ptr<Store> store_;
};

TEST_P(StoreTest, TheSchemaIsMigratedAtOpenAndOnlyOnce) {
  ASSERT_NE(store_, nullptr);
  EXPECT_EQ(store_->backend(), GetParam() == "sqlite" ? "sqlite" : "postgresql");
  EXPECT_EQ(store_->schema_version(), 4u);
  const Lease held = lease("room.a", "server.1");
  store_.reset();
  store_ = open();  // again: nothing re-applied, nothing lost
  ASSERT_NE(store_, nullptr);
  EXPECT_EQ(store_->schema_version(), 4u);
  auto now = store_->lease_of("room.a");
  ASSERT_TRUE(stored(now));
  EXPECT_EQ(std::get<std::optional<Lease>>(now), held);
  // A store a newer build has migrated is refused by this one rather than written.
  EXPECT_EQ(raw_sql("INSERT INTO tw_schema_migrations (version, name) VALUES (99, 'from the future')"), "");
  auto newer = open_store(url_);
  ASSERT_FALSE(stored(newer));
  EXPECT_EQ(store_failure(newer)->reason, StoreRefusal::unavailable);
  EXPECT_NE(store_failure(newer)->detail.find("newer than this build"), std::string::npos);
}

TEST_P(StoreTest, OneHolderAtATimeAndItsFenceMovesWithEveryNewHolder) {
  ASSERT_NE(store_, nullptr);
  const Lease first = lease("room.a", "server.1");
  EXPECT_EQ(first.fence, 1u);
  EXPECT_EQ(first.expires_at, kT0 + kTerm);
  EXPECT_EQ(refusal_of(store_->acquire("room.a", "server.2", kT0 + Duration::seconds(5), kTerm)), StoreRefusal::held_elsewhere);
  const Lease again = lease("room.a", "server.1", kT0 + Duration::seconds(5));
  EXPECT_EQ(again.fence, 1u) << "the holder renewing keeps its fence";
  // The term runs out unrenewed: another server takes the room under the next fence.
  const Lease second = lease("room.a", "server.2", kT0 + Duration::seconds(16));
  EXPECT_EQ(second.fence, 2u);
  EXPECT_EQ(refusal_of(store_->renew(again, kT0 + Duration::seconds(16), kTerm)), StoreRefusal::lease_lost)
      << "the lapsed holder learns it must stop";
  EXPECT_TRUE(stored(store_->renew(second, kT0 + Duration::seconds(20), kTerm)));
  // Released: free at once for the next holder, and the released fence writes nothing more.
  EXPECT_TRUE(stored(store_->release(second)));
  EXPECT_EQ(refusal(store_->release(second)), StoreRefusal::lease_lost);
  const Lease third = lease("room.a", "server.1", kT0 + Duration::seconds(21));
  EXPECT_EQ(third.fence, 3u);
  EXPECT_EQ(refusal_of(store_->acquire("", "server.1", kT0, kTerm)), StoreRefusal::bad_name);
  EXPECT_EQ(refusal_of(store_->acquire("room.a", std::string(kMaxStoreNameBytes + 1, 'o'), kT0, kTerm)), StoreRefusal::bad_name);
}

TEST_P(StoreTest, EveryDurableWriteUnderAStaleFenceIsRefusedByTheDatabase) {
  ASSERT_NE(store_, nullptr);
  const Lease old = lease("room.a", "server.1");
  EXPECT_TRUE(stored(store_->append(old, JournalEntry{1, TickEpoch::legacy_v1, 25, {1, 2, 3}})));
  const Lease taken = lease("room.a", "server.2", kT0 + Duration::seconds(11));
  // The old holder has not noticed yet: every write it tries is refused.
  EXPECT_EQ(refusal(store_->append(old, JournalEntry{2, TickEpoch::legacy_v1, 25, {4}})), StoreRefusal::stale_fence);
  EXPECT_EQ(refusal(store_->write_checkpoint(old, Checkpoint{100, 1, {9}})), StoreRefusal::stale_fence);
  EXPECT_EQ(refusal(store_->advance_epoch(old, TickEpoch::canonical_v1)), StoreRefusal::stale_fence);
  EXPECT_EQ(refusal(store_->trim_journal(old, 1)), StoreRefusal::stale_fence);
  // The same refusal from SQL that goes around the store: the database holds the rule.
  const std::string bytes = GetParam() == "sqlite" ? "x'00'" : "'\\x00'::bytea";
  const std::string around =
      raw_sql("INSERT INTO tw_journal (room, sequence, epoch, fence, kind, payload) VALUES ('room.a', 7, 1, 1, 0, " + bytes + ")");
  EXPECT_NE(around.find("tw_stale_fence"), std::string::npos) << around;
  EXPECT_NE(raw_sql("UPDATE tw_leases SET fence = 1 WHERE room = 'room.a'").find("tw_stale_fence"), std::string::npos)
      << "a fence never goes back";
  // The new holder writes.
  EXPECT_TRUE(stored(store_->append(taken, JournalEntry{2, TickEpoch::legacy_v1, 25, {4}})));
  auto journal = store_->journal_after("room.a", 0);
  ASSERT_TRUE(stored(journal));
  ASSERT_EQ(std::get<std::vector<JournalEntry>>(journal).size(), 2u);
}

TEST_P(StoreTest, TheEpochOnlyMovesForwardAndTheDatabaseRefusesADowngrade) {
  ASSERT_NE(store_, nullptr);
  const Lease held = lease("room.a", "server.1");
  EXPECT_EQ(std::get<TickEpoch>(store_->epoch("room.a")), TickEpoch::legacy_v1) << "a room starts at legacy.v1";
  EXPECT_TRUE(stored(store_->advance_epoch(held, TickEpoch::canonical_v1)));
  EXPECT_TRUE(stored(store_->advance_epoch(held, TickEpoch::canonical_v1))) << "the same epoch again: a no-op";
  EXPECT_TRUE(stored(store_->advance_epoch(held, TickEpoch::kernel_v1)));
  EXPECT_EQ(refusal(store_->advance_epoch(held, TickEpoch::canonical_v1)), StoreRefusal::epoch_downgrade);
  EXPECT_EQ(refusal(store_->advance_epoch(held, TickEpoch::legacy_v1)), StoreRefusal::epoch_downgrade);
  const std::string around = raw_sql("UPDATE tw_rooms SET epoch = 1 WHERE room = 'room.a'");
  EXPECT_NE(around.find("tw_epoch_downgrade"), std::string::npos) << around;
  EXPECT_EQ(std::get<TickEpoch>(store_->epoch("room.a")), TickEpoch::kernel_v1);
  EXPECT_EQ(epoch_name(TickEpoch::kernel_v1), "kernel.v1");
  // The journal is written under the room's epoch and no other.
  EXPECT_EQ(refusal(store_->append(held, JournalEntry{1, TickEpoch::canonical_v1, 1, {}})), StoreRefusal::wrong_epoch);
  EXPECT_TRUE(stored(store_->append(held, JournalEntry{1, TickEpoch::kernel_v1, 1, {}})));
  EXPECT_EQ(refusal_of(store_->epoch("room.never")), StoreRefusal::no_room);
}

TEST_P(StoreTest, TheJournalAndCheckpointsReadBackAsWritten) {
  ASSERT_NE(store_, nullptr);
  const Lease held = lease("room.a", "server.1");
  std::vector<uint8_t> big(1 << 20);
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<uint8_t>(i * 7);
  const std::vector<JournalEntry> written = {{1, TickEpoch::legacy_v1, 25, {}}, {2, TickEpoch::legacy_v1, 26, {0, 255, 0}},
                                             {3, TickEpoch::legacy_v1, 25, big}};
  for (const JournalEntry& e : written) EXPECT_TRUE(stored(store_->append(held, e)));
  EXPECT_EQ(refusal(store_->append(held, written[1])), StoreRefusal::duplicate);
  auto after_one = store_->journal_after("room.a", 1);
  ASSERT_TRUE(stored(after_one));
  EXPECT_EQ(std::get<std::vector<JournalEntry>>(after_one), std::vector<JournalEntry>(written.begin() + 1, written.end()));
  EXPECT_EQ(std::get<std::optional<Checkpoint>>(store_->latest_checkpoint("room.a")), std::nullopt);
  EXPECT_TRUE(stored(store_->write_checkpoint(held, Checkpoint{600, 2, {1, 2}})));
  EXPECT_TRUE(stored(store_->write_checkpoint(held, Checkpoint{1200, 3, big})));
  EXPECT_EQ(refusal(store_->write_checkpoint(held, Checkpoint{1200, 3, {}})), StoreRefusal::duplicate);
  EXPECT_EQ(std::get<std::optional<Checkpoint>>(store_->latest_checkpoint("room.a")), (Checkpoint{1200, 3, big}));
  EXPECT_TRUE(stored(store_->trim_journal(held, 2)));
  auto left = store_->journal_after("room.a", 0);
  ASSERT_TRUE(stored(left));
  ASSERT_EQ(std::get<std::vector<JournalEntry>>(left).size(), 1u);
  EXPECT_EQ(std::get<std::vector<JournalEntry>>(left)[0].sequence, 3u);
}

// Eight connections race for one room at the same instant: exactly one wins, whatever the order.
TEST_P(StoreTest, ARaceToAcquireHasExactlyOneWinner) {
  ASSERT_NE(store_, nullptr);
  constexpr int kRacers = 8;
  std::vector<std::unique_ptr<Store>> stores;
  for (int i = 0; i < kRacers; ++i) stores.push_back(open());
  std::atomic<int> granted{0}, held_elsewhere{0}, other{0};
  std::vector<std::thread> racers;
  for (int i = 0; i < kRacers; ++i) {
    racers.emplace_back([&, i] {
      auto r = stores[static_cast<std::size_t>(i)]->acquire("room.race", "server." + std::to_string(i), kT0, kTerm);
      if (stored(r)) {
        ++granted;
      } else if (store_failure(r)->reason == StoreRefusal::held_elsewhere) {
        ++held_elsewhere;
      } else {
        ++other;
        ADD_FAILURE() << store_failure(r)->detail;
      }
    });
  }
  for (std::thread& t : racers) t.join();
  EXPECT_EQ(granted.load(), 1);
  EXPECT_EQ(held_elsewhere.load(), kRacers - 1);
  EXPECT_EQ(other.load(), 0);
}

TEST(StoreOpen, AUrlItCannotReadIsRefusedByName) {
  auto bad = open_store("mysql://localhost/x");
  ASSERT_FALSE(stored(bad));
  EXPECT_EQ(store_failure(bad)->reason, StoreRefusal::bad_url);
  auto empty = open_store("sqlite:");
  ASSERT_FALSE(stored(empty));
  EXPECT_EQ(store_failure(empty)->reason, StoreRefusal::bad_url);
  auto nowhere = open_store("postgresql:///none?host=/nonexistent-socket-dir&connect_timeout=2");
  ASSERT_FALSE(stored(nowhere));
  EXPECT_EQ(store_failure(nowhere)->reason, StoreRefusal::unavailable);
}

INSTANTIATE_TEST_SUITE_P(Backends, StoreTest, ::testing::Values("sqlite", "postgresql"),
                         [](const ::testing::TestParamInfo<std::string>& backend) { return backend.param; });

}  // namespace
}  // namespace tickwire::durable
