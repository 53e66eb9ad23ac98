// Room recovery (seed 003, "Durability and rejoin"): a room brought back in a fresh process from
// what its store holds: the newest checkpoint's state put back into the game, then every journal
// entry written after it made again over that state, in order. Run by the room's new lease holder
// (so nothing writes the room meanwhile) before any session joins.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "tickwire/clock/tick.h"
#include "tickwire/clock/time.h"
#include "tickwire/core/reasons.h"
#include "tickwire/durable/store.h"
#include "tickwire/server/durable_state.h"

namespace tickwire::durable {

// Why a room could not be recovered (the game may be half-restored: discard it).
TW_REASONS(RecoveryFailure,
           store,                 // the store could not be read
           unreadable_checkpoint,  // the newest checkpoint's bytes do not read as a checkpoint
           state_refused,          // the game's restore_state refused the checkpoint's state
           unreadable_journal)     // a journal entry's bytes do not read as a fact batch

struct RecoveryError {
  RecoveryFailure reason = RecoveryFailure::store;
  std::string detail;
};

// What a recovery found and made again.
struct Recovery {
  std::optional<Tick> checkpoint_tick;  // none: the room had no checkpoint (a fresh room, or one
  WallTime checkpoint_taken_at;         //   that crashed before its first)
  uint64_t checkpoint_bytes = 0;
  uint64_t journal_entries = 0;  // read and replayed, after the checkpoint
  uint64_t facts_replayed = 0;
  uint64_t facts_refused = 0;    // replay_fact said no (counted, skipped)
  uint64_t next_sequence = 1;    // the journal's next entry
  Tick last_tick;                // the newest tick the checkpoint or the journal reached
};

using RecoveryResult = std::variant<Recovery, RecoveryError>;

RecoveryResult recover_room(Store& store, std::string_view room, DurableState& game);

}  // namespace tickwire::durable
