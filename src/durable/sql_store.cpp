// The Store over a SqlDatabase: every operation one statement (or two in a transaction), the same
// text on both backends, the rules the database enforces left to it (the triggers refuse a stale
// fence and a downgraded epoch by name; store_migrations.cpp).
#include <utility>

#include "sql_database.h"

namespace tickwire::durable {
namespace {

using detail::SqlDatabase;
using detail::SqlRows;
using detail::SqlValue;

SqlValue text(std::string_view s) { return SqlValue{std::string(s)}; }
SqlValue number(uint64_t n) { return SqlValue{static_cast<int64_t>(n)}; }
SqlValue number(int64_t n) { return SqlValue{n}; }

StoreFailure refuse(StoreRefusal reason, std::string detail) { return StoreFailure{reason, std::move(detail)}; }

bool good_name(std::string_view name) { return !name.empty() && name.size() <= kMaxStoreNameBytes; }

class SqlStore final : public Store {
 public:
  SqlStore(std::unique_ptr<SqlDatabase> db, uint32_t version) : db_(std::move(db)), version_(version) {}

  std::string_view backend() const override { return db_->dialect(); }
  uint32_t schema_version() const override { return version_; }

  StoreResult<Lease> acquire(std::string_view room, std::string_view owner, WallTime now, Duration term) override {
    if (!good_name(room) || !good_name(owner)) return refuse(StoreRefusal::bad_name, "acquire");
    if (auto f = failure_of(db_->begin())) return *f;
    StoreResult<Lease> out = acquire_in_transaction(room, owner, now, term);
    if (!stored(out)) {
      db_->rollback();
      return out;
    }
    if (auto f = failure_of(db_->commit())) return *f;
    return out;
  }

  StoreResult<Lease> renew(const Lease& lease, WallTime now, Duration term) override {
    const SqlValue p[] = {text(lease.room), text(lease.owner), number(lease.fence), number((now + term).ns()), number(now.ns())};
    auto r = db_->run(
        "UPDATE tw_leases SET expires_at_ns = $4 WHERE room = $1 AND owner = $2 AND fence = $3 AND expires_at_ns > $5", p);
    if (auto* f = store_failure(r)) return *f;
    if (std::get<SqlRows>(r).changed == 0) return refuse(StoreRefusal::lease_lost, lease.room);
    Lease renewed = lease;
    renewed.expires_at = now + term;
    return renewed;
  }

  StoreStatus release(const Lease& lease) override {
    const SqlValue p[] = {text(lease.room), text(lease.owner), number(lease.fence)};
    auto r = db_->run(
        "UPDATE tw_leases SET expires_at_ns = 0 WHERE room = $1 AND owner = $2 AND fence = $3 AND expires_at_ns > 0", p);
    if (auto* f = store_failure(r)) return *f;
    if (std::get<SqlRows>(r).changed == 0) return refuse(StoreRefusal::lease_lost, lease.room);
    return StoreOk{};
  }

  StoreResult<std::optional<Lease>> lease_of(std::string_view room) override {
    const SqlValue p[] = {text(room)};
    auto r = db_->run("SELECT owner, fence, expires_at_ns FROM tw_leases WHERE room = $1", p);
    if (auto* f = store_failure(r)) return *f;
    auto& rows = std::get<SqlRows>(r).rows;
    if (rows.empty()) return std::optional<Lease>{};
    return std::optional<Lease>{Lease{std::string(room), detail::sql_text(rows[0][0]),
                                      static_cast<uint64_t>(detail::sql_int(rows[0][1])),
                                      WallTime::from_ns(detail::sql_int(rows[0][2]))}};
  }

  StoreResult<TickEpoch> epoch(std::string_view room) override {
    const SqlValue p[] = {text(room)};
    auto r = db_->run("SELECT epoch FROM tw_rooms WHERE room = $1", p);
    if (auto* f = store_failure(r)) return *f;
    const auto& rows = std::get<SqlRows>(r).rows;
    if (rows.empty()) return refuse(StoreRefusal::no_room, std::string(room));
    return static_cast<TickEpoch>(detail::sql_int(rows[0][0]));
  }

  StoreStatus advance_epoch(const Lease& lease, TickEpoch epoch) override {
    const SqlValue p[] = {text(lease.room), number(int64_t{static_cast<uint8_t>(epoch)}), number(lease.fence)};
    auto r = db_->run("UPDATE tw_rooms SET epoch = $2, fence = $3 WHERE room = $1", p);
    if (auto* f = store_failure(r)) return *f;
    if (std::get<SqlRows>(r).changed == 0) return refuse(StoreRefusal::no_room, lease.room);
    return StoreOk{};
  }

  StoreStatus append(const Lease& lease, const JournalEntry& entry) override {
    if (entry.payload.size() > kMaxStorePayloadBytes) return refuse(StoreRefusal::too_large, "journal entry");
    const SqlValue p[] = {text(lease.room),       number(entry.sequence), number(int64_t{static_cast<uint8_t>(entry.epoch)}),
                          number(lease.fence),    number(uint64_t{entry.kind}), SqlValue{entry.payload}};
    auto r = db_->run("INSERT INTO tw_journal (room, sequence, epoch, fence, kind, payload) VALUES ($1, $2, $3, $4, $5, $6)", p);
    if (auto* f = store_failure(r)) return *f;
    return StoreOk{};
  }

  StoreResult<std::vector<JournalEntry>> journal_after(std::string_view room, uint64_t after_sequence) override {
    const SqlValue p[] = {text(room), number(after_sequence), number(uint64_t{kMaxJournalRead})};
    auto r = db_->run(
        "SELECT sequence, epoch, kind, payload FROM tw_journal WHERE room = $1 AND sequence > $2 ORDER BY sequence LIMIT $3", p);
    if (auto* f = store_failure(r)) return *f;
    std::vector<JournalEntry> out;
    for (auto& row : std::get<SqlRows>(r).rows)
      out.push_back(JournalEntry{static_cast<uint64_t>(detail::sql_int(row[0])), static_cast<TickEpoch>(detail::sql_int(row[1])),
                                 static_cast<uint32_t>(detail::sql_int(row[2])), detail::sql_bytes(std::move(row[3]))});
    return out;
  }

  StoreStatus write_checkpoint(const Lease& lease, const Checkpoint& checkpoint) override {
    if (checkpoint.payload.size() > kMaxStorePayloadBytes) return refuse(StoreRefusal::too_large, "checkpoint");
    const SqlValue p[] = {text(lease.room), number(checkpoint.tick), number(checkpoint.journal_sequence), number(lease.fence),
                          SqlValue{checkpoint.payload}};
    auto r = db_->run(
        "INSERT INTO tw_checkpoints (room, tick, journal_sequence, fence, payload) VALUES ($1, $2, $3, $4, $5)", p);
    if (auto* f = store_failure(r)) return *f;
    return StoreOk{};
  }

  StoreResult<std::optional<Checkpoint>> latest_checkpoint(std::string_view room) override {
    const SqlValue p[] = {text(room)};
    auto r = db_->run(
        "SELECT tick, journal_sequence, payload FROM tw_checkpoints WHERE room = $1 ORDER BY tick DESC LIMIT 1", p);
    if (auto* f = store_failure(r)) return *f;
    auto& rows = std::get<SqlRows>(r).rows;
    if (rows.empty()) return std::optional<Checkpoint>{};
    return std::optional<Checkpoint>{Checkpoint{static_cast<uint64_t>(detail::sql_int(rows[0][0])),
                                                static_cast<uint64_t>(detail::sql_int(rows[0][1])),
                                                detail::sql_bytes(std::move(rows[0][2]))}};
  }

  StoreStatus trim_journal(const Lease& lease, uint64_t through_sequence) override {
    const SqlValue p[] = {text(lease.room), number(through_sequence), number(lease.fence)};
    auto r = db_->run(
        "DELETE FROM tw_journal WHERE room = $1 AND sequence <= $2 AND "
        "EXISTS (SELECT 1 FROM tw_leases WHERE room = $1 AND fence = $3)",
        p);
    if (auto* f = store_failure(r)) return *f;
    if (std::get<SqlRows>(r).changed > 0) return StoreOk{};
    auto holder = lease_of(lease.room);  // nothing trimmed: nothing there, or not this fence's to trim
    if (auto* f = store_failure(holder)) return *f;
    const auto& now = std::get<std::optional<Lease>>(holder);
    if (!now || now->fence != lease.fence) return refuse(StoreRefusal::stale_fence, lease.room);
    return StoreOk{};
  }

  StoreStatus use_resume_token(std::string_view room, std::span<const uint8_t> token_id, WallTime expires_at,
                               WallTime now) override {
    const SqlValue expired[] = {text(room), number(now.ns())};
    if (auto f = failure_of(db_->run("DELETE FROM tw_resume_used WHERE room = $1 AND expires_at_ns <= $2", expired))) return *f;
    const SqlValue p[] = {text(room), SqlValue{std::vector<uint8_t>(token_id.begin(), token_id.end())}, number(expires_at.ns())};
    if (auto f = failure_of(db_->run("INSERT INTO tw_resume_used (room, token_id, expires_at_ns) VALUES ($1, $2, $3)", p)))
      return *f;
    return StoreOk{};
  }

 private:
  StoreResult<Lease> acquire_in_transaction(std::string_view room, std::string_view owner, WallTime now, Duration term) {
    const SqlValue room_only[] = {text(room)};
    if (auto f = failure_of(db_->run("INSERT INTO tw_rooms (room) VALUES ($1) ON CONFLICT (room) DO NOTHING", room_only)))
      return *f;
    // Free, run out, or this owner's already: granted; a new holder (or a term that ran out) takes
    // the next fence, a holder renewing keeps its own.
    const SqlValue p[] = {text(room), text(owner), number((now + term).ns()), number(now.ns())};
    auto r = db_->run(
        "INSERT INTO tw_leases (room, owner, fence, expires_at_ns) VALUES ($1, $2, 1, $3) "
        "ON CONFLICT (room) DO UPDATE SET "
        "fence = CASE WHEN tw_leases.owner = excluded.owner AND tw_leases.expires_at_ns > $4 "
        "THEN tw_leases.fence ELSE tw_leases.fence + 1 END, "
        "owner = excluded.owner, expires_at_ns = excluded.expires_at_ns "
        "WHERE tw_leases.owner = excluded.owner OR tw_leases.expires_at_ns <= $4 "
        "RETURNING fence, expires_at_ns",
        p);
    if (auto* f = store_failure(r)) return *f;
    const auto& rows = std::get<SqlRows>(r).rows;
    if (rows.empty()) return refuse(StoreRefusal::held_elsewhere, std::string(room));
    return Lease{std::string(room), std::string(owner), static_cast<uint64_t>(detail::sql_int(rows[0][0])),
                 WallTime::from_ns(detail::sql_int(rows[0][1]))};
  }

  std::unique_ptr<SqlDatabase> db_;
  uint32_t version_;
};

}  // namespace

std::string_view epoch_name(TickEpoch epoch) {
  switch (epoch) {
    case TickEpoch::legacy_v1: return "legacy.v1";
    case TickEpoch::canonical_v1: return "canonical.v1";
    case TickEpoch::kernel_v1: return "kernel.v1";
  }
  return "unknown";
}

StoreResult<std::unique_ptr<Store>> open_store(std::string_view url) {
  auto opened = detail::open_migrated(url);
  if (auto* f = store_failure(opened)) return *f;
  auto& database = std::get<detail::MigratedDatabase>(opened);
  return std::unique_ptr<Store>(std::make_unique<SqlStore>(std::move(database.db), database.schema_version));
}

}  // namespace tickwire::durable
