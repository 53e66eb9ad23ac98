// Recovery: the newest checkpoint, then the journal after it, page by page, each entry's facts made
// again in order. Every record is read whole before any of it is applied.
#include "tickwire/durable/room_recovery.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "tickwire/durable/room_records.h"

namespace tickwire::durable {
namespace {

RecoveryError store_error(const StoreFailure& f) { return RecoveryError{RecoveryFailure::store, f.detail}; }

}  // namespace

RecoveryResult recover_room(Store& store, std::string_view room, DurableState& game) {
  Recovery recovery;
  auto newest = store.latest_checkpoint(room);
  if (const StoreFailure* f = store_failure(newest)) return store_error(*f);
  uint64_t after = 0;
  if (const std::optional<Checkpoint>& checkpoint = std::get<std::optional<Checkpoint>>(newest)) {
    const std::optional<CheckpointRecord> record = decode_checkpoint_record(checkpoint->payload);
    if (!record) return RecoveryError{RecoveryFailure::unreadable_checkpoint, "checkpoint at tick " + std::to_string(checkpoint->tick)};
    if (!game.restore_state(record->state)) return RecoveryError{RecoveryFailure::state_refused, "the game refused its saved state"};
    recovery.checkpoint_tick = record->tick;
    recovery.checkpoint_taken_at = record->taken_at;
    recovery.checkpoint_bytes = checkpoint->payload.size();
    recovery.last_tick = record->tick;
    after = checkpoint->journal_sequence;
  }
  recovery.next_sequence = after + 1;
  for (;;) {
    auto page = store.journal_after(room, after);
    if (const StoreFailure* f = store_failure(page)) return store_error(*f);
    const auto& entries = std::get<std::vector<JournalEntry>>(page);
    for (const JournalEntry& entry : entries) {
      const std::optional<FactBatch> batch = decode_fact_batch(entry.payload);
      if (!batch) return RecoveryError{RecoveryFailure::unreadable_journal, "journal entry " + std::to_string(entry.sequence)};
      for (const DurableFact& fact : batch->facts) {
        if (game.replay_fact(fact)) {
          ++recovery.facts_replayed;
        } else {
          ++recovery.facts_refused;
        }
      }
      ++recovery.journal_entries;
      recovery.last_tick = std::max(recovery.last_tick, batch->tick);
      after = entry.sequence;
      recovery.next_sequence = entry.sequence + 1;
    }
    if (entries.size() < kMaxJournalRead) break;
  }
  spdlog::info("recovery: room {} from the checkpoint at tick {} and {} journal entries ({} facts, {} refused)", room,
               recovery.checkpoint_tick ? recovery.checkpoint_tick->value() : 0, recovery.journal_entries,
               recovery.facts_replayed, recovery.facts_refused);
  return recovery;
}

}  // namespace tickwire::durable
