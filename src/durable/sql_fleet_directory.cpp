// The fleet directory over a SqlDatabase (the store's tables of migrations 3 and 4): one transaction
// per registration or heartbeat (the process row, then its rooms replaced), one statement per
// listing, so a reader never sees a process with half its rooms. A report is checked whole before
// anything is written; the database checks the state's names, the seats' bounds and the seated
// list's characters again, and a seated list read back that does not hold is not believed.
#include <fmt/format.h>

#include <set>
#include <utility>

#include "sql_database.h"
#include "tickwire/core/assert.h"
#include "tickwire/durable/fleet_directory.h"
#include "tickwire/durable/seated_list.h"
#include "tickwire/transport/address.h"

namespace tickwire::durable {
namespace {

using detail::SqlRows;
using detail::SqlValue;

constexpr int64_t kDirectoryLock = 0x74770002;  // PostgreSQL: registrations queue on it, so the cap is exact

SqlValue text(std::string_view s) { return SqlValue{std::string(s)}; }
SqlValue number(int64_t n) { return SqlValue{n}; }

static_assert(kMaxDirectoryNameBytes == kMaxStoreNameBytes, "a directory id is a store name");

// A numeric HOST:PORT with a port (no names: nothing here resolves DNS), as its canonical text.
std::optional<std::string> canonical_address(std::string_view text) {
  if (text.size() > kMaxStoreNameBytes || text.starts_with("localhost")) return std::nullopt;
  const auto address = Address::parse(text);
  if (!address || address->port() == 0) return std::nullopt;
  return address->to_string();
}

// The report checked whole, its addresses in canonical form; or why it is refused.
StoreResult<DirectoryProcess> checked(const DirectoryProcess& report) {
  DirectoryProcess out = report;
  if (!valid_directory_name(report.process)) return StoreFailure{StoreRefusal::bad_name, "process id"};
  const auto ops = canonical_address(report.ops_address);
  if (!ops) return StoreFailure{StoreRefusal::bad_address, fmt::format("{}: ops address", report.process)};
  out.ops_address = *ops;
  if (report.rooms.size() > kMaxRoomsPerProcess)
    return StoreFailure{StoreRefusal::over_cap, fmt::format("{}: {} rooms", report.process, report.rooms.size())};
  std::set<std::string_view> seen;
  for (std::size_t i = 0; i < report.rooms.size(); ++i) {
    const DirectoryRoom& room = report.rooms[i];
    if (!valid_directory_name(room.room)) return StoreFailure{StoreRefusal::bad_name, fmt::format("{}: room id", report.process)};
    if (!seen.insert(room.room).second) return StoreFailure{StoreRefusal::duplicate, fmt::format("room {}", room.room)};
    const auto address = canonical_address(room.public_address);
    if (!address) return StoreFailure{StoreRefusal::bad_address, fmt::format("room {}", room.room)};
    out.rooms[i].public_address = *address;
    if (room.seats_total == 0 || room.seats_total > kMaxDirectoryRoomSeats || room.seats_taken > room.seats_total ||
        !seated_list_fits(room))
      return StoreFailure{StoreRefusal::bad_seats, fmt::format("room {}", room.room)};
  }
  return out;
}

// A listed room's columns (room, address, seats total, taken, seated: row[4..8]) as a room, or
// nullopt when the row holds what no report could have said (a seated list unreadable, or past its
// seats): such a room is left out of the listing rather than believed.
std::optional<DirectoryRoom> room_of(const detail::SqlRow& row) {
  const int64_t total = detail::sql_int(row[6]);
  const int64_t taken = detail::sql_int(row[7]);
  auto seated = parse_seated_list(detail::sql_text(row[8]));
  if (!seated || total <= 0 || total > kMaxDirectoryRoomSeats || taken < 0 || taken > total) return std::nullopt;
  DirectoryRoom room{detail::sql_text(row[4]), detail::sql_text(row[5]), static_cast<uint32_t>(total),
                     static_cast<uint32_t>(taken), std::move(*seated)};
  if (!seated_list_fits(room)) return std::nullopt;
  return room;
}

class SqlFleetDirectory final : public FleetDirectory {
 public:
  SqlFleetDirectory(std::unique_ptr<detail::SqlDatabase> db, uint32_t version, const FleetDirectoryConfig& config)
      : db_(std::move(db)), version_(version), config_(config) {}

  std::string_view backend() const override { return db_->dialect(); }
  uint32_t schema_version() const override { return version_; }
  const FleetDirectoryConfig& config() const override { return config_; }
  const ReasonCounters<StoreRefusal>& refusals() const override { return refusals_; }

  StoreStatus register_process(const DirectoryProcess& report, WallTime now) override {
    return counted(write(report, now, Write::register_process));
  }
  StoreStatus heartbeat(const DirectoryProcess& report, WallTime now) override {
    return counted(write(report, now, Write::heartbeat));
  }

  StoreStatus deregister(std::string_view process) override {
    const SqlValue p[] = {text(process)};
    auto r = db_->run("DELETE FROM tw_fleet_processes WHERE process = $1", p);
    if (auto* f = store_failure(r)) return counted(*f);
    if (std::get<SqlRows>(r).changed == 0) return counted(StoreFailure{StoreRefusal::not_registered, std::string(process)});
    return StoreOk{};
  }

  StoreResult<DirectoryListing> list(WallTime now) override {
    // One statement: a process and its rooms as of one instant. A process without rooms is one row
    // with NULL room columns.
    const SqlValue p[] = {number((now - config_.ttl).ns()), number((now + config_.ttl).ns())};
    auto r = db_->run(
        "SELECT p.process, p.state, p.ops_address, p.heartbeat_at_ns, r.room, r.public_address, r.seats_total, "
        "r.seats_taken, r.seated, p.heartbeat_at_ns > $2 FROM tw_fleet_processes p "
        "LEFT JOIN tw_fleet_rooms r ON r.process = p.process "
        "WHERE p.heartbeat_at_ns > $1 ORDER BY p.process, r.room",
        p);
    if (auto* f = store_failure(r)) return counted_failure<DirectoryListing>(*f);
    DirectoryListing listing;
    std::string last_future;
    for (auto& row : std::get<SqlRows>(r).rows) {
      std::string process = detail::sql_text(row[0]);
      if (detail::sql_int(row[9]) != 0) {  // a clock more than a TTL ahead of ours: not believed
        if (process != last_future) ++listing.from_the_future;
        last_future = std::move(process);
        continue;
      }
      if (listing.processes.empty() || listing.processes.back().process != process) {
        DirectoryProcess entry;
        entry.process = std::move(process);
        entry.state = process_state_named(detail::sql_text(row[1])).value_or(ProcessState::stopped);
        entry.ops_address = detail::sql_text(row[2]);
        entry.heartbeat_at = WallTime::from_ns(detail::sql_int(row[3]));
        listing.processes.push_back(std::move(entry));
      }
      if (std::holds_alternative<std::monostate>(row[4])) continue;
      std::optional<DirectoryRoom> room = room_of(row);
      if (!room) {
        ++listing.unreadable_rooms;
        continue;
      }
      listing.processes.back().rooms.push_back(std::move(*room));
    }
    return listing;
  }

  StoreResult<uint32_t> sweep(WallTime now) override {
    const SqlValue p[] = {number((now - config_.sweep_after).ns()), number((now + config_.sweep_after).ns())};
    auto r = db_->run("DELETE FROM tw_fleet_processes WHERE heartbeat_at_ns <= $1 OR heartbeat_at_ns >= $2", p);
    if (auto* f = store_failure(r)) return counted_failure<uint32_t>(*f);
    return static_cast<uint32_t>(std::get<SqlRows>(r).changed);
  }

 private:
  enum class Write { register_process, heartbeat };

  StoreStatus write(const DirectoryProcess& report, WallTime now, Write kind) {
    auto good = checked(report);
    if (auto* f = store_failure(good)) return *f;
    if (auto f = failure_of(db_->begin())) return *f;
    StoreStatus out = write_in_transaction(std::get<DirectoryProcess>(good), now, kind);
    if (!stored(out)) {
      db_->rollback();
      return out;
    }
    if (auto f = failure_of(db_->commit())) return *f;
    return out;
  }

  StoreStatus write_in_transaction(const DirectoryProcess& report, WallTime now, Write kind) {
    const SqlValue row[] = {text(report.process), text(reason_name(report.state)), text(report.ops_address),
                            number(now.ns())};
    if (kind == Write::heartbeat) {
      auto r = db_->run(
          "UPDATE tw_fleet_processes SET state = $2, ops_address = $3, heartbeat_at_ns = $4 WHERE process = $1", row);
      if (auto* f = store_failure(r)) return *f;
      if (std::get<SqlRows>(r).changed == 0) return StoreFailure{StoreRefusal::not_registered, report.process};
    } else {
      if (auto f = admit_new_row(report.process)) return *f;
      auto r = db_->run(
          "INSERT INTO tw_fleet_processes (process, state, ops_address, heartbeat_at_ns) VALUES ($1, $2, $3, $4) "
          "ON CONFLICT (process) DO UPDATE SET state = excluded.state, ops_address = excluded.ops_address, "
          "heartbeat_at_ns = excluded.heartbeat_at_ns",
          row);
      if (auto* f = store_failure(r)) return *f;
    }
    const SqlValue process_only[] = {text(report.process)};
    if (auto f = failure_of(db_->run("DELETE FROM tw_fleet_rooms WHERE process = $1", process_only))) return *f;
    for (const DirectoryRoom& room : report.rooms) {
      const SqlValue p[] = {text(report.process), text(room.room), text(room.public_address), number(room.seats_total),
                            number(room.seats_taken), text(format_seated_list(room.seated))};
      if (auto f = failure_of(db_->run("INSERT INTO tw_fleet_rooms (process, room, public_address, seats_total, seats_taken, "
                                       "seated) VALUES ($1, $2, $3, $4, $5, $6)",
                                       p)))
        return *f;
    }
    return StoreOk{};
  }

  // Registering: the cap counts every other row the directory holds. Nothing is swept here: a
  // writer judging others' rows by its own clock would let one clock far ahead empty the fleet.
  std::optional<StoreFailure> admit_new_row(const std::string& process) {
    if (db_->dialect() == "postgresql") {
      const SqlValue lock[] = {SqlValue{kDirectoryLock}};
      if (auto f = failure_of(db_->run("SELECT pg_advisory_xact_lock($1)", lock))) return f;
    }
    const SqlValue p[] = {text(process)};
    auto others = db_->run("SELECT COUNT(*) FROM tw_fleet_processes WHERE process <> $1", p);
    if (auto* f = store_failure(others)) return *f;
    const int64_t held = detail::sql_int(std::get<SqlRows>(others).rows.at(0).at(0));
    if (held >= int64_t{config_.max_processes})
      return StoreFailure{StoreRefusal::over_cap, fmt::format("{} processes held", held)};
    return std::nullopt;
  }

  StoreStatus counted(StoreStatus status) {
    if (const auto* f = store_failure(status)) refusals_.add(f->reason);
    return status;
  }
  template <class T>
  StoreResult<T> counted_failure(const StoreFailure& failure) {
    refusals_.add(failure.reason);
    return failure;
  }

  std::unique_ptr<detail::SqlDatabase> db_;
  uint32_t version_;
  FleetDirectoryConfig config_;
  ReasonCounters<StoreRefusal> refusals_;
};

}  // namespace

StoreResult<std::unique_ptr<FleetDirectory>> open_fleet_directory(std::string_view url, const FleetDirectoryConfig& config) {
  TW_ASSERT(config.max_processes > 0 && config.max_processes <= kMaxDirectoryProcesses, "max_processes within its cap");
  TW_ASSERT(config.ttl > Duration{}, "a positive TTL");
  TW_ASSERT(config.sweep_after >= config.ttl, "rows are swept no sooner than they leave the listing");
  auto opened = detail::open_migrated(url);
  if (auto* f = store_failure(opened)) return *f;
  auto& database = std::get<detail::MigratedDatabase>(opened);
  return std::unique_ptr<FleetDirectory>(
      std::make_unique<SqlFleetDirectory>(std::move(database.db), database.schema_version, config));
}

}  // namespace tickwire::durable
