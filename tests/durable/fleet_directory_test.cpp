// The fleet directory on both backends, each a real database: processes register, heartbeat and
// deregister; the listing holds only those heard from within the TTL (time passed in), so a dead
// process leaves it with nobody deleting it, and long-dead rows are swept; the writer's clock
// running ahead or behind shifts that window by its skew, and a clock more than a TTL ahead is not
// believed; a draining process is listed with no open seats; caps, bad names, addresses and seats
// refused by name and counted; each room's seated actors stored and listed, a list that does not
// hold refused (and one written around the directory not believed); and stores at earlier schema
// versions migrate with their data.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "backend_stores.h"
#include "tickwire/durable/fleet_directory.h"
#include "tickwire/durable/seated_list.h"
#include "tickwire/durable/store.h"

namespace tickwire::durable {
namespace {

const WallTime kT0 = WallTime::from_ns(1'700'000'000'000'000'000);
constexpr Duration kTtl = Duration::seconds(9);

DirectoryProcess process_with(std::string id, ProcessState state, uint32_t rooms, uint32_t taken = 0) {
  DirectoryProcess p;
  p.process = std::move(id);
  p.state = state;
  p.ops_address = "127.0.0.1:9100";
  for (uint32_t i = 0; i < rooms; ++i)
    p.rooms.push_back(DirectoryRoom{fmt::format("room.{}", i), fmt::format("127.0.0.1:{}", 40000 + i), 64, taken, {}});
  return p;
}

StoreRefusal refusal(const StoreStatus& s) { return store_failure(s) ? store_failure(s)->reason : StoreRefusal::count_; }

class FleetDirectoryTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    stores_ = std::make_unique<test_support::BackendStores>(GetParam());
    ASSERT_FALSE(stores_->url().empty()) << stores_->why();
    directory_ = open();
    ASSERT_NE(directory_, nullptr);
  }
  std::unique_ptr<FleetDirectory> open(FleetDirectoryConfig config = {kTtl, Duration::seconds(90), 1024}) {
    auto opened = open_fleet_directory(stores_->url(), config);
    const StoreFailure* f = store_failure(opened);
    EXPECT_EQ(f, nullptr) << (f != nullptr ? f->detail : "");
    return f == nullptr ? std::move(std::get<std::unique_ptr<FleetDirectory>>(opened)) : nullptr;
  }
  std::vector<DirectoryProcess> listed(WallTime now) {
    auto r = directory_->list(now);
    EXPECT_TRUE(stored(r));
    return stored(r) ? std::get<DirectoryListing>(r).processes : std::vector<DirectoryProcess>{};
  }
  std::vector<std::string> listed_ids(WallTime now) {
    std::vector<std::string> ids;
    for (const auto& p : listed(now)) ids.push_back(p.process);
    return ids;
  }
  bool ok(const StoreStatus& s) {
    const StoreFailure* f = store_failure(s);
    EXPECT_EQ(f, nullptr) << (f != nullptr ? f->detail : "");
    return f == nullptr;
  }

  std::unique_ptr<test_support::BackendStores> stores_;
  std::unique_ptr<FleetDirectory> directory_;
};

TEST_P(FleetDirectoryTest, AProcessRegistersHeartbeatsAndDeregisters) {
  EXPECT_EQ(directory_->schema_version(), 4u);
  DirectoryProcess a = process_with("server-a", ProcessState::ready, 2);
  a.rooms[0].public_address = "[::1]:40000";
  ASSERT_TRUE(ok(directory_->register_process(a, kT0)));
  ASSERT_TRUE(ok(directory_->register_process(process_with("server-b", ProcessState::starting, 0), kT0)));

  auto seen = listed(kT0 + Duration::seconds(1));
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].process, "server-a");
  EXPECT_EQ(seen[0].state, ProcessState::ready);
  EXPECT_EQ(seen[0].ops_address, "127.0.0.1:9100");
  EXPECT_EQ(seen[0].heartbeat_at, kT0);  // the writer's time
  ASSERT_EQ(seen[0].rooms.size(), 2u);
  EXPECT_EQ(seen[0].rooms[0], (DirectoryRoom{"room.0", "[::1]:40000", 64, 0, {}}));
  EXPECT_EQ(seen[0].rooms[1], (DirectoryRoom{"room.1", "127.0.0.1:40001", 64, 0, {}}));
  EXPECT_EQ(seen[0].open_seats(), 128u);
  EXPECT_TRUE(seen[1].rooms.empty());

  // A heartbeat restates state and seats, and the rooms as they are now (room.1 gone, room.2 new).
  DirectoryProcess beat = process_with("server-a", ProcessState::allocated, 3, 10);
  beat.rooms.erase(beat.rooms.begin() + 1);
  const WallTime t1 = kT0 + heartbeat_interval(directory_->config());
  ASSERT_TRUE(ok(directory_->heartbeat(beat, t1)));
  seen = listed(t1);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].state, ProcessState::allocated);
  EXPECT_EQ(seen[0].heartbeat_at, t1);
  ASSERT_EQ(seen[0].rooms.size(), 2u);
  EXPECT_EQ(seen[0].rooms[1], (DirectoryRoom{"room.2", "127.0.0.1:40002", 64, 10, {}}));
  EXPECT_EQ(seen[0].open_seats(), 108u);

  // Draining: still listed (it keeps its players) but offered nobody.
  ASSERT_TRUE(ok(directory_->heartbeat(process_with("server-a", ProcessState::draining, 2, 5), t1)));
  seen = listed(t1);
  EXPECT_EQ(seen[0].state, ProcessState::draining);
  EXPECT_EQ(seen[0].rooms.size(), 2u);
  EXPECT_EQ(seen[0].open_seats(), 0u);

  ASSERT_TRUE(ok(directory_->deregister("server-a")));
  EXPECT_EQ(listed_ids(t1), std::vector<std::string>{"server-b"});
  EXPECT_EQ(refusal(directory_->deregister("server-a")), StoreRefusal::not_registered);
  EXPECT_EQ(refusal(directory_->heartbeat(beat, t1)), StoreRefusal::not_registered);
  EXPECT_EQ(directory_->refusals()[StoreRefusal::not_registered], 2u);
  // Its rooms went with it: registering again starts from nothing but what it says.
  ASSERT_TRUE(ok(directory_->register_process(process_with("server-a", ProcessState::ready, 1), t1)));
  EXPECT_EQ(listed(t1)[0].rooms.size(), 1u);
}

TEST_P(FleetDirectoryTest, ADeadProcessLeavesTheListingWithinTheTtlAndIsSweptLater) {
  ASSERT_TRUE(ok(directory_->register_process(process_with("alive", ProcessState::ready, 1), kT0)));
  ASSERT_TRUE(ok(directory_->register_process(process_with("killed", ProcessState::ready, 1), kT0)));
  // The edge, exactly: listed while its heartbeat is less than a TTL old.
  EXPECT_EQ(listed_ids(kT0 + kTtl - Duration::nanoseconds(1)).size(), 2u);
  EXPECT_EQ(listed_ids(kT0 + kTtl).size(), 0u);
  const Duration every = heartbeat_interval(directory_->config());
  WallTime now = kT0;
  for (int beat = 1; beat <= 6; ++beat) {  // "alive" heartbeats on its cadence; "killed" never again
    now = kT0 + every * beat;
    ASSERT_TRUE(ok(directory_->heartbeat(process_with("alive", ProcessState::ready, 1), now)));
    const auto ids = listed_ids(now);
    if (now - kT0 < kTtl) {
      EXPECT_EQ(ids, (std::vector<std::string>{"alive", "killed"})) << beat;
    } else {
      EXPECT_EQ(ids, std::vector<std::string>{"alive"}) << beat;
    }
  }
  // Nobody deleted it: a sweep long after removes it, and only it.
  const WallTime later = kT0 + directory_->config().sweep_after;
  auto swept = directory_->sweep(later);
  ASSERT_TRUE(stored(swept));
  EXPECT_EQ(std::get<uint32_t>(swept), 1u);
  EXPECT_EQ(refusal(directory_->heartbeat(process_with("killed", ProcessState::ready, 1), later)),
            StoreRefusal::not_registered);
  // A process whose heartbeats were late but whose row was not swept yet is listed again at once.
  ASSERT_TRUE(ok(directory_->heartbeat(process_with("alive", ProcessState::ready, 1), later)));
  EXPECT_EQ(listed_ids(later), std::vector<std::string>{"alive"});
}

TEST_P(FleetDirectoryTest, TheWritersClockSkewShiftsTheWindowAndAClockFarAheadIsNotBelieved) {
  const Duration skew = Duration::seconds(3);
  // Writers stamp their own clocks; the reader judges by its own (kT0 is the reader's "true" time).
  ASSERT_TRUE(ok(directory_->register_process(process_with("ahead", ProcessState::ready, 1), kT0 + skew)));
  ASSERT_TRUE(ok(directory_->register_process(process_with("behind", ProcessState::ready, 1), kT0 - skew)));
  ASSERT_TRUE(ok(directory_->register_process(process_with("broken", ProcessState::ready, 1), kT0 + Duration::seconds(3600))));
  auto r = directory_->list(kT0);
  ASSERT_TRUE(stored(r));
  EXPECT_EQ(std::get<DirectoryListing>(r).processes.size(), 2u);
  EXPECT_EQ(std::get<DirectoryListing>(r).from_the_future, 1u);
  // Both die now: one ahead by `skew` is listed `skew` longer than the TTL, one behind `skew` less.
  EXPECT_EQ(listed_ids(kT0 + kTtl - skew - Duration::nanoseconds(1)), (std::vector<std::string>{"ahead", "behind"}));
  EXPECT_EQ(listed_ids(kT0 + kTtl - skew), std::vector<std::string>{"ahead"});
  EXPECT_EQ(listed_ids(kT0 + kTtl + skew - Duration::nanoseconds(1)), std::vector<std::string>{"ahead"});
  EXPECT_TRUE(listed_ids(kT0 + kTtl + skew).empty());
  // Only a reader sweeps, by its own clock: the row from far ahead goes, and a writer whose clock is
  // far ahead never swept the others (it registered after them).
  auto swept = directory_->sweep(kT0 + kTtl);
  ASSERT_TRUE(stored(swept));
  EXPECT_EQ(std::get<uint32_t>(swept), 1u);
  EXPECT_EQ(std::get<DirectoryListing>(directory_->list(kT0)).from_the_future, 0u);
  EXPECT_EQ(listed_ids(kT0).size(), 2u);
}

TEST_P(FleetDirectoryTest, BadReportsAndCapsAreRefusedByNameAndCounted) {
  const auto refused = [&](DirectoryProcess p) { return refusal(directory_->register_process(p, kT0)); };
  DirectoryProcess p = process_with("ok", ProcessState::ready, 1);
  for (const char* name : {"", "has space", "semi;colon", "quote'"}) {
    p.process = name;
    EXPECT_EQ(refused(p), StoreRefusal::bad_name) << name;
  }
  p.process = std::string(kMaxStoreNameBytes + 1, 'x');
  EXPECT_EQ(refused(p), StoreRefusal::bad_name);
  p = process_with("ok", ProcessState::ready, 2);
  p.rooms[1].room = "bad/room";
  EXPECT_EQ(refused(p), StoreRefusal::bad_name);
  p.rooms[1].room = p.rooms[0].room;
  EXPECT_EQ(refused(p), StoreRefusal::duplicate);
  for (const char* address : {"", "nowhere:40000", "localhost:40000", "1.2.3.4", "1.2.3.4:0", "1.2.3.4:70000"}) {
    p = process_with("ok", ProcessState::ready, 1);
    p.rooms[0].public_address = address;
    EXPECT_EQ(refused(p), StoreRefusal::bad_address) << address;
    p = process_with("ok", ProcessState::ready, 1);
    p.ops_address = address;
    EXPECT_EQ(refused(p), StoreRefusal::bad_address) << address;
  }
  for (const auto& [total, taken] : {std::pair{0u, 0u}, {kMaxDirectoryRoomSeats + 1, 0u}, {8u, 9u}}) {
    p = process_with("ok", ProcessState::ready, 1);
    p.rooms[0].seats_total = total;
    p.rooms[0].seats_taken = taken;
    EXPECT_EQ(refused(p), StoreRefusal::bad_seats) << total << " " << taken;
  }
  EXPECT_EQ(refused(process_with("ok", ProcessState::ready, kMaxRoomsPerProcess + 1)), StoreRefusal::over_cap);
  EXPECT_TRUE(listed(kT0).empty());  // nothing refused was written
  // The heartbeat checks the same report.
  ASSERT_TRUE(ok(directory_->register_process(process_with("ok", ProcessState::ready, kMaxRoomsPerProcess), kT0)));
  p = process_with("ok", ProcessState::ready, 1, 65);
  EXPECT_EQ(refusal(directory_->heartbeat(p, kT0)), StoreRefusal::bad_seats);
  EXPECT_EQ(listed(kT0)[0].rooms.size(), kMaxRoomsPerProcess);

  const auto& counts = directory_->refusals();
  EXPECT_EQ(counts[StoreRefusal::bad_name], 6u);
  EXPECT_EQ(counts[StoreRefusal::duplicate], 1u);
  EXPECT_EQ(counts[StoreRefusal::bad_address], 12u);
  EXPECT_EQ(counts[StoreRefusal::bad_seats], 4u);
  EXPECT_EQ(counts[StoreRefusal::over_cap], 1u);
}

TEST_P(FleetDirectoryTest, TheProcessCapCountsEveryRowUntilTheReaderSweepsTheDead) {
  directory_ = open({kTtl, Duration::seconds(60), 3});
  ASSERT_NE(directory_, nullptr);
  for (const char* id : {"p1", "p2", "p3"}) ASSERT_TRUE(ok(directory_->register_process(process_with(id, ProcessState::ready, 1), kT0)));
  EXPECT_EQ(refusal(directory_->register_process(process_with("p4", ProcessState::ready, 1), kT0)), StoreRefusal::over_cap);
  // Registering again (a restart under the same id) is no new row.
  ASSERT_TRUE(ok(directory_->register_process(process_with("p2", ProcessState::ready, 1), kT0 + Duration::seconds(1))));
  // p1 and p3 die: out of the listing after the TTL, still held (and counted) until swept.
  const WallTime dead = kT0 + kTtl * 2;
  ASSERT_TRUE(ok(directory_->heartbeat(process_with("p2", ProcessState::ready, 1), dead)));
  EXPECT_EQ(listed_ids(dead), std::vector<std::string>{"p2"});
  EXPECT_EQ(refusal(directory_->register_process(process_with("p4", ProcessState::ready, 1), dead)), StoreRefusal::over_cap);
  // The reader sweeps: past sweep_after the dead rows make way.
  const WallTime swept = kT0 + Duration::seconds(60);
  ASSERT_TRUE(ok(directory_->heartbeat(process_with("p2", ProcessState::ready, 1), swept)));
  auto gone = directory_->sweep(swept);
  ASSERT_TRUE(stored(gone));
  EXPECT_EQ(std::get<uint32_t>(gone), 2u);
  ASSERT_TRUE(ok(directory_->register_process(process_with("p4", ProcessState::ready, 1), swept)));
  EXPECT_EQ(listed_ids(swept), (std::vector<std::string>{"p2", "p4"}));
  EXPECT_EQ(directory_->refusals()[StoreRefusal::over_cap], 2u);
}

TEST_P(FleetDirectoryTest, TheDatabaseRefusesAStateOrSeatsTheDirectoryWouldNot) {
  ASSERT_TRUE(ok(directory_->register_process(process_with("p1", ProcessState::ready, 1), kT0)));
  EXPECT_NE(stores_->raw_sql("UPDATE tw_fleet_processes SET state = 'sleeping' WHERE process = 'p1'"), "");
  EXPECT_NE(stores_->raw_sql("UPDATE tw_fleet_rooms SET seats_taken = 65 WHERE process = 'p1'"), "");
  EXPECT_EQ(listed(kT0)[0].rooms[0].seats_taken, 0u);
}

TEST_P(FleetDirectoryTest, AStoreFromBeforeTheDirectoryMigratesWithItsData) {
  // The store as the build before the directory left it: a room leased, the schema at version 2.
  directory_.reset();
  auto store = stores_->open();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(stored(store->acquire("room.a", "server-a", kT0, Duration::seconds(10))));
  store.reset();
  ASSERT_EQ(stores_->raw_sql("DROP TABLE tw_fleet_rooms; DROP TABLE tw_fleet_processes; "
                             "DELETE FROM tw_schema_migrations WHERE version >= 3"),
            "");

  directory_ = open();
  ASSERT_NE(directory_, nullptr);
  EXPECT_EQ(directory_->schema_version(), 4u);
  ASSERT_TRUE(ok(directory_->register_process(process_with("server-a", ProcessState::ready, 1), kT0)));
  EXPECT_EQ(listed_ids(kT0), std::vector<std::string>{"server-a"});
  store = stores_->open();
  ASSERT_NE(store, nullptr);
  auto lease = store->lease_of("room.a");
  ASSERT_TRUE(stored(lease));
  ASSERT_TRUE(std::get<std::optional<Lease>>(lease).has_value());
  EXPECT_EQ(std::get<std::optional<Lease>>(lease)->owner, "server-a");
}

TEST_P(FleetDirectoryTest, EachRoomsSeatedActorsAreStoredAndListed) {
  DirectoryProcess a = process_with("server-a", ProcessState::allocated, 2, 3);
  a.rooms[0].seated = {7, 12, 18446744073709551615u};
  a.rooms[1].seated = {4242};  // one of its three sessions is seated by an actor the server does not name
  ASSERT_TRUE(ok(directory_->register_process(a, kT0)));
  auto seen = listed(kT0);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].rooms, a.rooms);
  // A heartbeat restates them: one left, one came; a room emptied lists nobody.
  a.rooms[0].seated = {7, 99};
  a.rooms[1].seats_taken = 0;
  a.rooms[1].seated.clear();
  const WallTime t1 = kT0 + heartbeat_interval(directory_->config());
  ASSERT_TRUE(ok(directory_->heartbeat(a, t1)));
  seen = listed(t1);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].rooms, a.rooms);
  // A full room of the most seats: every id listed back.
  DirectoryProcess full = process_with("server-b", ProcessState::ready, 1, kMaxDirectoryRoomSeats);
  full.rooms[0].seats_total = kMaxDirectoryRoomSeats;
  for (uint64_t id = 0; id < kMaxDirectoryRoomSeats; ++id) full.rooms[0].seated.push_back(18446744073709551615u - 255 + id);
  ASSERT_TRUE(ok(directory_->register_process(full, t1)));
  seen = listed(t1);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[1].rooms, full.rooms);
}

TEST_P(FleetDirectoryTest, ASeatedListThatDoesNotHoldIsRefusedAndOneWrittenAroundTheDirectoryIsNotBelieved) {
  const std::vector<std::vector<uint64_t>> bad_lists = {
      {2, 1},     // not ascending
      {5, 5},     // an actor twice
      {0, 3},     // client id 0 is nobody's
      {1, 2, 3},  // more than the seats taken (2)
  };
  for (const auto& seated : bad_lists) {
    DirectoryProcess p = process_with("p1", ProcessState::ready, 1, 2);
    p.rooms[0].seated = seated;
    EXPECT_EQ(refusal(directory_->register_process(p, kT0)), StoreRefusal::bad_seats) << seated.size();
  }
  DirectoryProcess over_total = process_with("p1", ProcessState::ready, 1, 2);
  over_total.rooms[0].seats_total = 2;
  over_total.rooms[0].seated = {1, 2};
  ASSERT_TRUE(ok(directory_->register_process(over_total, kT0)));
  over_total.rooms[0].seated = {1, 2, 3};
  over_total.rooms[0].seats_taken = 3;  // past the seats: refused for the seats, whatever the list
  EXPECT_EQ(refusal(directory_->heartbeat(over_total, kT0)), StoreRefusal::bad_seats);
  EXPECT_EQ(directory_->refusals()[StoreRefusal::bad_seats], 5u);
  EXPECT_EQ(listed(kT0)[0].rooms[0].seated, (std::vector<uint64_t>{1, 2}));  // nothing refused was written

  // The database holds the text to its characters; a row it lets through that no report could have
  // written (not ascending, or more ids than seats taken) leaves its room out of the listing, counted.
  EXPECT_NE(stores_->raw_sql("UPDATE tw_fleet_rooms SET seated = '1;2' WHERE process = 'p1'"), "");
  EXPECT_NE(stores_->raw_sql(fmt::format("UPDATE tw_fleet_rooms SET seated = '{}' WHERE process = 'p1'",
                                         std::string(kMaxSeatedTextBytes + 1, '1'))),
            "");
  for (const char* text : {"2,1", "1,2,3", "01", "1,,2", ","}) {
    ASSERT_EQ(stores_->raw_sql(fmt::format("UPDATE tw_fleet_rooms SET seated = '{}' WHERE process = 'p1'", text)), "") << text;
    auto r = directory_->list(kT0);
    ASSERT_TRUE(stored(r));
    const DirectoryListing& listing = std::get<DirectoryListing>(r);
    ASSERT_EQ(listing.processes.size(), 1u) << text;
    EXPECT_TRUE(listing.processes[0].rooms.empty()) << text;
    EXPECT_EQ(listing.unreadable_rooms, 1u) << text;
  }
}

TEST_P(FleetDirectoryTest, ADirectoryWithoutSeatedListsMigratesItsRoomsWithNobodyListed) {
  // The store as the build before seated lists left it: a process registered, the schema at version 3.
  ASSERT_TRUE(ok(directory_->register_process(process_with("server-a", ProcessState::allocated, 1, 5), kT0)));
  directory_.reset();
  ASSERT_EQ(stores_->raw_sql("ALTER TABLE tw_fleet_rooms DROP COLUMN seated; DELETE FROM tw_schema_migrations WHERE version = 4"),
            "");

  directory_ = open();
  ASSERT_NE(directory_, nullptr);
  EXPECT_EQ(directory_->schema_version(), 4u);
  auto seen = listed(kT0);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].rooms, process_with("server-a", ProcessState::allocated, 1, 5).rooms);
  DirectoryProcess beat = process_with("server-a", ProcessState::allocated, 1, 5);
  beat.rooms[0].seated = {3, 4};
  ASSERT_TRUE(ok(directory_->heartbeat(beat, kT0 + Duration::seconds(1))));
  EXPECT_EQ(listed(kT0 + Duration::seconds(1))[0].rooms[0].seated, (std::vector<uint64_t>{3, 4}));
}

INSTANTIATE_TEST_SUITE_P(Backends, FleetDirectoryTest, ::testing::Values("sqlite", "postgresql"),
                         [](const ::testing::TestParamInfo<std::string>& backend) { return backend.param; });

}  // namespace
}  // namespace tickwire::durable
