// Store (seed 003, "Durability and rejoin"; "Authority and prediction admission"): the one seam a
// room's durable life goes through, with two real backends behind it: SQLite (embedded: a file in
// a data directory, nothing to set up) and PostgreSQL (a fleet's shared store). It holds each
// room's single-writer lease (an owner, a term and a fencing counter that moves with every new
// holder), the protocol epoch the room commits its tick stream under (one way only: legacy.v1,
// canonical.v1, kernel.v1), the journal of what the room acknowledged and its checkpoints. Every
// durable write carries the writer's fence and the database itself refuses a stale one, and a
// downgraded epoch, so a second writer or an old build cannot slip past a bug in this code. Times
// are wall times the caller passes in (the only domain a durable record holds).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/core/reasons.h"

namespace tickwire::durable {

// The protocol a room commits its durable tick stream under; it only moves forward.
enum class TickEpoch : uint8_t { legacy_v1 = 1, canonical_v1 = 2, kernel_v1 = 3 };
std::string_view epoch_name(TickEpoch epoch);  // "legacy.v1", "canonical.v1", "kernel.v1"

// Why the store refused (nothing it names was written).
TW_REASONS(StoreRefusal,
           held_elsewhere,    // acquire: another owner holds the room's lease and its term has not run out
           lease_lost,        // renew or release: the lease is no longer this holder's (expired and taken, or released)
           stale_fence,       // a durable write under a fence that is not the room's current one (the database's verdict)
           epoch_downgrade,   // an epoch older than the room's (the database's verdict)
           wrong_epoch,       // a journal entry under another epoch than the room's
           duplicate,         // a journal sequence or checkpoint tick already written (a room named twice in a report)
           no_room,           // the room has never been leased
           bad_name,          // a name empty or past kMaxStoreNameBytes (the directory's: or not [A-Za-z0-9._:-])
           too_large,         // a payload past kMaxStorePayloadBytes
           bad_address,       // the fleet directory: an address that is not a numeric HOST:PORT
           bad_seats,         // the fleet directory: a room's seats out of range (taken past total, total past the cap)
           over_cap,          // the fleet directory: a process past the directory's cap, or rooms past a process's
           not_registered,    // the fleet directory: a heartbeat or deregistration of a process it does not hold
           bad_url,           // open: not a sqlite: path, a directory, or a postgresql:// URL
           unavailable)       // the backend failed (connection, disk, a newer schema than this build knows)

struct StoreFailure {
  StoreRefusal reason = StoreRefusal::unavailable;
  std::string detail;  // the backend's words, for the log
};

// A value or why the store refused.
template <class T>
using StoreResult = std::variant<T, StoreFailure>;
struct StoreOk {};
using StoreStatus = StoreResult<StoreOk>;

template <class T>
bool stored(const StoreResult<T>& r) {
  return std::holds_alternative<T>(r);
}
template <class T>
const StoreFailure* store_failure(const StoreResult<T>& r) {
  return std::get_if<StoreFailure>(&r);
}
template <class T>
const StoreFailure* store_failure(const StoreResult<T>&& r) = delete;  // it would dangle: failure_of
// The failure a result (a temporary, say) carries, as a value.
template <class T>
std::optional<StoreFailure> failure_of(StoreResult<T>&& r) {
  if (auto* f = std::get_if<StoreFailure>(&r)) return std::move(*f);
  return std::nullopt;
}

// A room's single-writer lease as its holder holds it.
struct Lease {
  std::string room;
  std::string owner;
  uint64_t fence = 0;   // moves with every new holder: every durable write carries it
  WallTime expires_at;  // the term's end
  friend bool operator==(const Lease&, const Lease&) = default;
};

// One acknowledged thing a room journaled after its newest checkpoint (a scene edit, a voxel write).
struct JournalEntry {
  uint64_t sequence = 0;  // the room's own, ascending
  TickEpoch epoch = TickEpoch::legacy_v1;
  uint32_t kind = 0;      // the writer's (a message id, a record kind)
  std::vector<uint8_t> payload;
  friend bool operator==(const JournalEntry&, const JournalEntry&) = default;
};

// A room's saved state at a tick, covering its journal up to `journal_sequence`.
struct Checkpoint {
  uint64_t tick = 0;
  uint64_t journal_sequence = 0;
  std::vector<uint8_t> payload;
  friend bool operator==(const Checkpoint&, const Checkpoint&) = default;
};

inline constexpr std::size_t kMaxStoreNameBytes = 128;            // a room's or an owner's name
inline constexpr std::size_t kMaxStorePayloadBytes = 64u << 20;   // one journal entry or checkpoint
inline constexpr std::size_t kMaxJournalRead = 65536;             // entries one journal_after returns

class Store {
 public:
  virtual ~Store() = default;

  // "sqlite" or "postgresql", and the schema version it runs (migrations applied at open).
  virtual std::string_view backend() const = 0;
  virtual uint32_t schema_version() const = 0;

  // --- the lease --------------------------------------------------------------------------------
  // Takes the room's lease for `owner` until now + term: granted when nobody holds it, its term has
  // run out, or `owner` holds it already (a renewal then, the fence kept); a new holder gets the
  // next fence. A room first leased starts at the legacy.v1 epoch.
  virtual StoreResult<Lease> acquire(std::string_view room, std::string_view owner, WallTime now, Duration term) = 0;
  // Extends the holder's term to now + term: refused (lease_lost) once its term has run out (taken
  // by another or not), so a holder that cannot renew knows it must stop advancing the room.
  virtual StoreResult<Lease> renew(const Lease& lease, WallTime now, Duration term) = 0;
  // Gives the lease up (its term ends now): another may take it at once, and from then on (the
  // next fence) the released holder's late writes are refused.
  virtual StoreStatus release(const Lease& lease) = 0;
  // The room's lease as the store holds it (any holder), or none.
  virtual StoreResult<std::optional<Lease>> lease_of(std::string_view room) = 0;

  // --- the epoch ratchet ------------------------------------------------------------------------
  virtual StoreResult<TickEpoch> epoch(std::string_view room) = 0;
  // Moves the room's epoch forward (the same epoch again is a no-op); a downgrade is refused by the
  // database (epoch_downgrade), a stale fence too.
  virtual StoreStatus advance_epoch(const Lease& lease, TickEpoch epoch) = 0;

  // --- the journal and checkpoints (every write fenced) ---------------------------------------------
  virtual StoreStatus append(const Lease& lease, const JournalEntry& entry) = 0;
  // The room's entries past `after_sequence`, ascending, at most kMaxJournalRead.
  virtual StoreResult<std::vector<JournalEntry>> journal_after(std::string_view room, uint64_t after_sequence) = 0;
  virtual StoreStatus write_checkpoint(const Lease& lease, const Checkpoint& checkpoint) = 0;
  // The room's newest checkpoint (by tick), or none.
  virtual StoreResult<std::optional<Checkpoint>> latest_checkpoint(std::string_view room) = 0;
  // Forgets the room's journal up to and including `through_sequence` (a checkpoint covers it).
  virtual StoreStatus trim_journal(const Lease& lease, uint64_t through_sequence) = 0;

  // --- resume tokens --------------------------------------------------------------------------------
  // Uses a resume token up: refused `duplicate` when it was used already. The record is kept until
  // `expires_at` (the token's own end) and forgotten after, so the table holds only live tokens.
  virtual StoreStatus use_resume_token(std::string_view room, std::span<const uint8_t> token_id, WallTime expires_at,
                                       WallTime now) = 0;
};

// Opens (creating and migrating as needed) the store a URL names:
//   sqlite:PATH or a bare PATH   the SQLite file PATH (a directory: PATH/tickwire.sqlite3)
//   postgresql://... postgres://...  a PostgreSQL database, libpq's URI form
StoreResult<std::unique_ptr<Store>> open_store(std::string_view url);

}  // namespace tickwire::durable
