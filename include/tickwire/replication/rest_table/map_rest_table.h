// MapRestTable: the server's rest table (seed 000, "The rest table"). It takes every map object's
// record, mints a new server-wide revision, holds the records (sliced into mapRestTable chunks for
// each client) and their frame (the delta codec's tick-0 reference), and answers when it must be
// retaken: when an entity it names stops being collected, so a despawn never leaves a ghost.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tickwire/protocol/record_batch.h"
#include "tickwire/protocol/rest_table_chunk.h"
#include "tickwire/replication/frames/replica_kinds.h"
#include "tickwire/replication/frames/replica_state.h"
#include "tickwire/replication/rest_table/rest_table.h"

namespace tickwire {

// The server-wide revision source: one per server process, shared by every room's table, so a
// revision names one table everywhere. Never 0, strictly increasing.
class RestRevisions {
 public:
  uint32_t mint();
  uint32_t last() const { return last_; }  // 0 before the first mint

 private:
  uint32_t last_ = 0;
};

class MapRestTable {
 public:
  // `kinds` (the game's registry) sets the frame's precision; it must outlive the table.
  explicit MapRestTable(const ReplicaKinds& kinds) : kinds_(&kinds) {}

  // Takes the table: `records` are every map object's record whole (object form, any order,
  // unique ids and object indices: a game error otherwise, asserted). Mints a revision.
  void take(std::span<const protocol::Record> records, RestRevisions& revisions);

  bool taken() const { return table_.revision() != 0; }
  uint32_t revision() const { return table_.revision(); }
  const RestTable& table() const { return table_; }
  bool names_entity(uint32_t entity_id) const { return table_.names_entity(entity_id); }
  bool names_object(uint32_t object_index) const { return table_.names_object(object_index); }

  std::size_t chunk_count() const { return table_.chunk_count(); }
  void write_chunk(std::size_t index, protocol::RestTableChunk& out) const { table_.write_chunk(index, out); }

  // The table as the codec's reference: its states quantized at the kinds' precision, tick 0.
  // Built on first use after each take (defined beside the codec's quantizer).
  const ReplicaFrame& frame() const;

  // Whether a retake is due: some entity the table names is missing from this tick's collected
  // ids (any order, duplicates allowed). O(m log n), no allocation (scratch sized at take).
  bool needs_retake(std::span<const uint32_t> collected_ids) const;
  // The same over the tick's records (their entity ids).
  bool needs_retake(std::span<const protocol::Record> collected) const;

  uint64_t takes() const { return takes_; }

 private:
  template <class Ids>
  bool missing_any(const Ids& ids, std::size_t count) const;

  const ReplicaKinds* kinds_;
  RestTable table_;
  mutable std::vector<uint8_t> seen_;  // per record, for needs_retake
  mutable ReplicaFrame frame_;
  mutable uint32_t frame_revision_ = 0;  // the revision frame_ was built for
  uint64_t takes_ = 0;
};

}  // namespace tickwire
