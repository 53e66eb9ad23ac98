// The store's schema, versioned: each migration is applied once, in order, in one transaction with
// the row that records it, by whichever process opens the store first (PostgreSQL: under an
// advisory lock, so a fleet starting at once migrates once). A store whose schema is newer than
// this build's is refused rather than written by code that does not know it. The rules the
// database itself enforces live here: the epoch only moves forward, and every durable write must
// carry the room's current fence (a trigger on each table, refusing by name).
#include "store_migrations.h"

#include <array>
#include <string>

#include "tickwire/durable/seated_list.h"

namespace tickwire::durable::detail {
namespace {

struct Migration {
  uint32_t version;
  const char* name;
  const char* sqlite;
  const char* postgresql;
};

constexpr const char* kSqliteV1 = R"sql(
CREATE TABLE tw_rooms (
  room TEXT PRIMARY KEY,
  epoch INTEGER NOT NULL DEFAULT 1 CHECK (epoch BETWEEN 1 AND 3),
  fence INTEGER NOT NULL DEFAULT 0);
CREATE TABLE tw_leases (
  room TEXT PRIMARY KEY REFERENCES tw_rooms (room),
  owner TEXT NOT NULL,
  fence INTEGER NOT NULL,
  expires_at_ns INTEGER NOT NULL);
CREATE TABLE tw_journal (
  room TEXT NOT NULL REFERENCES tw_rooms (room),
  sequence INTEGER NOT NULL,
  epoch INTEGER NOT NULL,
  fence INTEGER NOT NULL,
  kind INTEGER NOT NULL,
  payload BLOB NOT NULL,
  PRIMARY KEY (room, sequence));
CREATE TABLE tw_checkpoints (
  room TEXT NOT NULL REFERENCES tw_rooms (room),
  tick INTEGER NOT NULL,
  journal_sequence INTEGER NOT NULL,
  fence INTEGER NOT NULL,
  payload BLOB NOT NULL,
  PRIMARY KEY (room, tick));
CREATE TRIGGER tw_epoch_ratchet BEFORE UPDATE OF epoch ON tw_rooms WHEN NEW.epoch < OLD.epoch
BEGIN SELECT RAISE(ABORT, 'tw_epoch_downgrade'); END;
CREATE TRIGGER tw_epoch_fence BEFORE UPDATE OF epoch ON tw_rooms
WHEN NEW.fence IS NOT (SELECT fence FROM tw_leases WHERE room = NEW.room)
BEGIN SELECT RAISE(ABORT, 'tw_stale_fence'); END;
CREATE TRIGGER tw_lease_fence BEFORE UPDATE OF fence ON tw_leases WHEN NEW.fence < OLD.fence
BEGIN SELECT RAISE(ABORT, 'tw_stale_fence'); END;
CREATE TRIGGER tw_journal_fence BEFORE INSERT ON tw_journal
WHEN NEW.fence IS NOT (SELECT fence FROM tw_leases WHERE room = NEW.room)
BEGIN SELECT RAISE(ABORT, 'tw_stale_fence'); END;
CREATE TRIGGER tw_journal_epoch BEFORE INSERT ON tw_journal
WHEN NEW.epoch IS NOT (SELECT epoch FROM tw_rooms WHERE room = NEW.room)
BEGIN SELECT RAISE(ABORT, 'tw_wrong_epoch'); END;
CREATE TRIGGER tw_checkpoint_fence BEFORE INSERT ON tw_checkpoints
WHEN NEW.fence IS NOT (SELECT fence FROM tw_leases WHERE room = NEW.room)
BEGIN SELECT RAISE(ABORT, 'tw_stale_fence'); END;
)sql";

// The fence check locks the lease row (FOR SHARE): a takeover's UPDATE of it waits for the write to
// commit, so no write can land under a fence a committed takeover has already replaced.
constexpr const char* kPostgresV1 = R"sql(
CREATE TABLE tw_rooms (
  room TEXT PRIMARY KEY,
  epoch SMALLINT NOT NULL DEFAULT 1 CHECK (epoch BETWEEN 1 AND 3),
  fence BIGINT NOT NULL DEFAULT 0);
CREATE TABLE tw_leases (
  room TEXT PRIMARY KEY REFERENCES tw_rooms (room),
  owner TEXT NOT NULL,
  fence BIGINT NOT NULL,
  expires_at_ns BIGINT NOT NULL);
CREATE TABLE tw_journal (
  room TEXT NOT NULL REFERENCES tw_rooms (room),
  sequence BIGINT NOT NULL,
  epoch SMALLINT NOT NULL,
  fence BIGINT NOT NULL,
  kind BIGINT NOT NULL,
  payload BYTEA NOT NULL,
  PRIMARY KEY (room, sequence));
CREATE TABLE tw_checkpoints (
  room TEXT NOT NULL REFERENCES tw_rooms (room),
  tick BIGINT NOT NULL,
  journal_sequence BIGINT NOT NULL,
  fence BIGINT NOT NULL,
  payload BYTEA NOT NULL,
  PRIMARY KEY (room, tick));
CREATE FUNCTION tw_current_fence(r TEXT) RETURNS BIGINT LANGUAGE sql AS
  $$ SELECT fence FROM tw_leases WHERE room = r FOR SHARE $$;
CREATE FUNCTION tw_epoch_ratchet() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.epoch < OLD.epoch THEN RAISE EXCEPTION 'tw_epoch_downgrade: % to %', OLD.epoch, NEW.epoch; END IF;
  IF NEW.fence IS DISTINCT FROM tw_current_fence(NEW.room) THEN RAISE EXCEPTION 'tw_stale_fence'; END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER tw_epoch_ratchet BEFORE UPDATE OF epoch ON tw_rooms FOR EACH ROW EXECUTE FUNCTION tw_epoch_ratchet();
CREATE FUNCTION tw_lease_fence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.fence < OLD.fence THEN RAISE EXCEPTION 'tw_stale_fence'; END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER tw_lease_fence BEFORE UPDATE OF fence ON tw_leases FOR EACH ROW EXECUTE FUNCTION tw_lease_fence();
CREATE FUNCTION tw_fenced_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.fence IS DISTINCT FROM tw_current_fence(NEW.room) THEN RAISE EXCEPTION 'tw_stale_fence'; END IF;
  IF TG_TABLE_NAME = 'tw_journal' THEN  -- nested: a checkpoint row has no epoch to name
    IF NEW.epoch IS DISTINCT FROM (SELECT epoch FROM tw_rooms WHERE room = NEW.room) THEN
      RAISE EXCEPTION 'tw_wrong_epoch';
    END IF;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER tw_journal_fence BEFORE INSERT ON tw_journal FOR EACH ROW EXECUTE FUNCTION tw_fenced_write();
CREATE TRIGGER tw_checkpoint_fence BEFORE INSERT ON tw_checkpoints FOR EACH ROW EXECUTE FUNCTION tw_fenced_write();
)sql";

// Version 2: the resume tokens used, each kept until it would have expired.
constexpr const char* kSqliteV2 = R"sql(
CREATE TABLE tw_resume_used (
  room TEXT NOT NULL,
  token_id BLOB NOT NULL,
  expires_at_ns INTEGER NOT NULL,
  PRIMARY KEY (room, token_id));
)sql";
constexpr const char* kPostgresV2 = R"sql(
CREATE TABLE tw_resume_used (
  room TEXT NOT NULL,
  token_id BYTEA NOT NULL,
  expires_at_ns BIGINT NOT NULL,
  PRIMARY KEY (room, token_id));
)sql";

// Version 3: the fleet's directory (fleet_directory.h): each server process, its lifecycle state and
// last heartbeat (the writer's wall time), and the rooms it serves; a process's rooms go with it.
// The state's names and the seats' bounds are the database's rules too. One text for both backends:
// BIGINT is PostgreSQL's 64-bit integer and, to SQLite, an integer column like any other.
constexpr const char* kFleetDirectoryV3 = R"sql(
CREATE TABLE tw_fleet_processes (
  process TEXT PRIMARY KEY,
  state TEXT NOT NULL CHECK (state IN ('starting', 'ready', 'allocated', 'draining', 'stopped')),
  ops_address TEXT NOT NULL,
  heartbeat_at_ns BIGINT NOT NULL);
CREATE INDEX tw_fleet_processes_heartbeat ON tw_fleet_processes (heartbeat_at_ns);
CREATE TABLE tw_fleet_rooms (
  process TEXT NOT NULL REFERENCES tw_fleet_processes (process) ON DELETE CASCADE,
  room TEXT NOT NULL,
  public_address TEXT NOT NULL,
  seats_total BIGINT NOT NULL CHECK (seats_total > 0),
  seats_taken BIGINT NOT NULL CHECK (seats_taken >= 0 AND seats_taken <= seats_total),
  PRIMARY KEY (process, room));
)sql";

// Version 4: each room's seated actors (durable/seated_list.h's text: "7,12,4242"), so a reader of
// the listing learns who claimed a seat and who left. The database holds the text to its characters
// and its longest length (kMaxSeatedTextBytes); the directory checks the rest. SQLite's check is a
// GLOB (it has no regular expressions), PostgreSQL's a regular expression.
constexpr const char* kSqliteV4 = R"sql(
ALTER TABLE tw_fleet_rooms ADD COLUMN seated TEXT NOT NULL DEFAULT ''
  CHECK (seated NOT GLOB '*[^0-9,]*' AND length(seated) <= 5375);
)sql";
constexpr const char* kPostgresV4 = R"sql(
ALTER TABLE tw_fleet_rooms ADD COLUMN seated TEXT NOT NULL DEFAULT ''
  CHECK (seated ~ '^[0-9,]*$' AND length(seated) <= 5375);
)sql";
static_assert(kMaxSeatedTextBytes == 5375, "migration 4's bound on the seated text");

constexpr std::array kMigrations = {Migration{1, "rooms, leases, journal, checkpoints; ratchet and fences", kSqliteV1, kPostgresV1},
                                    Migration{2, "resume tokens used", kSqliteV2, kPostgresV2},
                                    Migration{3, "the fleet directory: processes and their rooms", kFleetDirectoryV3, kFleetDirectoryV3},
                                    Migration{4, "the fleet directory: each room's seated actors", kSqliteV4, kPostgresV4}};

constexpr const char* kSqliteMigrationsTable =
    "CREATE TABLE IF NOT EXISTS tw_schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)";
constexpr const char* kPostgresMigrationsTable =
    "CREATE TABLE IF NOT EXISTS tw_schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL)";
constexpr int64_t kMigrationLock = 0x74770001;  // the advisory lock a fleet's migrators queue on

StoreResult<uint32_t> apply_missing(SqlDatabase& db, bool postgres) {
  if (postgres) {
    const SqlValue lock[] = {SqlValue{kMigrationLock}};
    if (auto f = failure_of(db.run("SELECT pg_advisory_xact_lock($1)", lock))) return *f;
  }
  auto current = db.run("SELECT COALESCE(MAX(version), 0) FROM tw_schema_migrations", {});
  if (auto* f = store_failure(current)) return *f;
  const auto have = static_cast<uint32_t>(sql_int(std::get<SqlRows>(current).rows.at(0).at(0)));
  if (have > latest_schema_version())
    return StoreFailure{StoreRefusal::unavailable, "the store's schema is version " + std::to_string(have) +
                                                       ", newer than this build's " + std::to_string(latest_schema_version())};
  for (const Migration& m : kMigrations) {
    if (m.version <= have) continue;
    if (auto f = failure_of(db.script(postgres ? m.postgresql : m.sqlite))) return *f;
    const SqlValue row[] = {SqlValue{int64_t{m.version}}, SqlValue{std::string(m.name)}};
    if (auto f = failure_of(db.run("INSERT INTO tw_schema_migrations (version, name) VALUES ($1, $2)", row))) return *f;
  }
  return latest_schema_version();
}

}  // namespace

uint32_t latest_schema_version() { return kMigrations.back().version; }

StoreResult<uint32_t> migrate(SqlDatabase& db) {
  const bool postgres = db.dialect() == "postgresql";
  if (auto f = failure_of(db.script(postgres ? kPostgresMigrationsTable : kSqliteMigrationsTable))) return *f;
  if (auto f = failure_of(db.begin())) return *f;
  StoreResult<uint32_t> version = apply_missing(db, postgres);
  if (!stored(version)) {
    db.rollback();
    return version;
  }
  if (auto f = failure_of(db.commit())) return *f;
  return version;
}

}  // namespace tickwire::durable::detail
