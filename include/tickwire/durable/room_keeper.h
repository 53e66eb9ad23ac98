// RoomKeeper (seed 003, "Durability and rejoin"): keeps one room durable while this process holds
// its lease. It is the server's DurabilityGate: every update's durable facts become one journal
// entry, every so many ticks the game's state becomes a checkpoint (taken on the tick thread, a
// copy; written behind it), and the server acknowledges nothing until the update that made it is
// journaled. Under the newest epoch (kernel.v1) the journal is written by the keeper's own thread,
// behind the tick cadence (the durability inversion: a tick never waits for the disk; an
// acknowledgement does); under the older epochs every entry commits in-lane, the tick waiting for
// it. The same thread renews the lease; a lost lease, a refused fence or a store that cannot keep
// up stops the keeper for good: authority() goes false and the room must stop advancing.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <variant>
#include <vector>

#include "tickwire/core/reasons.h"
#include "tickwire/durable/lease_supervisor.h"
#include "tickwire/durable/room_recovery.h"
#include "tickwire/durable/store.h"
#include "tickwire/server/durability_gate.h"

namespace tickwire::durable {

struct RoomKeeperConfig {
  uint32_t checkpoint_every_ticks = 600;  // 10 s at 60 Hz; 0: never (the journal alone)
  std::size_t max_waiting_writes = 4096;  // journal entries and checkpoints queued for the writer
  Duration retry_after = Duration::milliseconds(20);  // a write the store could not take, tried again
};

// Why a keeper stopped (for good: the room stops advancing here).
TW_REASONS(KeeperStop,
           lease_lost,      // a renewal was refused: another process holds the room now
           lease_ran_out,   // no renewal landed before the term (less its margin) ran out
           fence_refused,   // the store refused a write's fence (a newer holder wrote)
           store_refused,   // the store refused a write for another reason (its detail is logged)
           backlog_full,    // max_waiting_writes were queued: the store cannot keep up
           released)        // the lease was given up on purpose (a drain)

struct KeeperStats {
  TickEpoch epoch = TickEpoch::legacy_v1;
  bool in_lane = true;              // entries commit on the tick thread (the epochs before kernel.v1)
  uint64_t facts = 0;               // taken from the game
  uint64_t journal_entries = 0;     // written
  uint64_t journal_bytes = 0;
  uint64_t checkpoints = 0;         // written
  uint64_t checkpoint_bytes = 0;    // the newest one's
  double checkpoint_write_ms = 0;   // the newest one's write and journal trim, on the writer
  uint64_t store_retries = 0;       // writes the store could not take at once, tried again
  uint64_t waiting = 0;             // queued for the writer now
  uint64_t durable_update = 0;      // durable_through()
  uint64_t journaled_through = 0;   // the newest journal sequence the store has taken (at first: the recovered journal's end)
  std::optional<KeeperStop> stopped;
};

using WallClock = std::function<WallTime()>;

class RoomKeeper final : public DurabilityGate {
 public:
  // `supervisor` holds the room's lease already (the recovery ran under it); `store` is the
  // supervisor's and is used by the keeper's thread alone from now on. `recovered` says where the
  // room's durable ticks and journal go on from. `wall` is the apps' wall clock (lease terms and
  // checkpoint times); the room's epoch is read from the store (advance it before, if wanted).
  RoomKeeper(Store& store, std::unique_ptr<LeaseSupervisor> supervisor, const Recovery& recovered, WallClock wall,
             const RoomKeeperConfig& config = {});
  ~RoomKeeper() override;  // writes what is queued (unless stopped), then ends its thread
  RoomKeeper(const RoomKeeper&) = delete;
  RoomKeeper& operator=(const RoomKeeper&) = delete;

  void take_facts(DurableState& game, uint64_t update, Tick last_tick) override;
  uint64_t durable_through() const override;

  // Whether this process may still advance the room at the wall clock's now: not stopped, and
  // within the authority its last renewal gave (so a writer stuck in a store call stops it too).
  bool authority() const;
  std::optional<KeeperStop> stopped() const;
  // A checkpoint of the game as it stands, then waits until everything queued is written (a
  // drain's last word before release()). False when the keeper stopped before it all landed. When
  // the newest checkpoint already holds this tick and every fact since (a drain before the room
  // advanced past it), none is written again: the store would refuse the same tick twice.
  bool checkpoint_and_flush(DurableState& game, Tick last_tick);
  // Gives the lease up once everything queued is written: another process may take the room now.
  void release();
  KeeperStats stats() const;
  // The tick durable records name for the room's `local` tick (a recovered room goes on counting).
  Tick durable_tick(Tick local) const;

 private:
  struct Append {
    JournalEntry entry;
  };
  struct WriteCheckpoint {
    Checkpoint checkpoint;
  };
  struct Release {};
  using Job = std::variant<Append, WriteCheckpoint, Release>;

  void submit(Job job);
  void checkpoint(DurableState& game, Tick last_tick);
  // Waits until every job submitted so far is written (or the keeper stopped).
  void wait_until_all_written();
  void run();
  // One job against the store: true when done (written, or the keeper stopped).
  bool write(const Job& job);
  void stop(KeeperStop why);

  Store& store_;
  std::unique_ptr<LeaseSupervisor> supervisor_;
  WallClock wall_;
  RoomKeeperConfig config_;
  TickEpoch epoch_ = TickEpoch::legacy_v1;
  bool in_lane_ = true;    // the epochs before kernel.v1: the tick thread waits for its entries
  uint64_t fence_ = 0;     // the lease's when the keeper started: any other means it was lost
  int64_t tick_base_ = 0;  // added to the room's local ticks

  // The tick thread's side.
  uint64_t next_sequence_ = 1;
  uint64_t last_update_ = 0;
  std::optional<Tick> last_checkpoint_tick_;
  uint64_t last_checkpoint_sequence_ = 0;  // the journal sequence the newest checkpoint covers
  mutable std::deque<std::pair<uint64_t, uint64_t>> pending_;  // (journal sequence, update) not yet written
  std::vector<DurableFact> facts_;                             // scratch: one take
  std::size_t last_checkpoint_bytes_ = 0;                      // the next one's reserve

  // Shared with the writer (under mutex_).
  mutable std::mutex mutex_;
  std::condition_variable wake_;     // the writer: a job queued, or quitting
  std::condition_variable written_;  // the tick thread: a job done
  std::deque<Job> jobs_;
  uint64_t jobs_submitted_ = 0;
  uint64_t jobs_done_ = 0;
  uint64_t written_sequence_ = 0;  // the newest journal sequence written
  WallTime authority_until_;       // the lease's, as last renewed
  bool quitting_ = false;
  KeeperStats stats_;
  std::thread writer_;
};

}  // namespace tickwire::durable
