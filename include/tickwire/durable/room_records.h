// Room records: the two payloads a durable room writes through the Store. A journal entry holds the
// durable facts one server update made (DurableFact, the game's), under the tick the room had run
// through; a checkpoint holds the game's whole saved state with the tick it was taken at and the
// wall time then (the only time domain a durable record holds: a recovered room's clock starts
// afresh, its world time is the game's own, inside the state). Both are versioned and read with
// every length bounds-checked: a record that does not read is refused whole, never half-applied.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "tickwire/clock/tick.h"
#include "tickwire/clock/time.h"
#include "tickwire/server/durable_fact.h"

namespace tickwire::durable {

// The facts of one server update, as journaled.
struct FactBatch {
  Tick tick;  // the room's last tick run when they were taken
  std::vector<DurableFact> facts;
  friend bool operator==(const FactBatch&, const FactBatch&) = default;
};
std::vector<uint8_t> encode_fact_batch(Tick tick, std::span<const DurableFact> facts);
// Nullopt when the bytes are not one whole batch (a wrong version, a count or length past its cap,
// cut short, bytes left over).
std::optional<FactBatch> decode_fact_batch(std::span<const uint8_t> bytes);

// A checkpoint as read: where it was taken and the game's state (a view into the bytes given).
struct CheckpointRecord {
  Tick tick;
  WallTime taken_at;
  std::span<const uint8_t> state;
};
// A checkpoint record's head, written into `out`; the game's state follows it, to the record's end
// (DurableState::save_state appends it in place: the state is never copied).
void write_checkpoint_head(std::vector<uint8_t>& out, Tick tick, WallTime taken_at);
// Nullopt when the bytes do not hold a whole head of a version this build reads.
std::optional<CheckpointRecord> decode_checkpoint_record(std::span<const uint8_t> bytes);

}  // namespace tickwire::durable
