// The client's side of the rest table: mapRestTable chunks of one revision, in order on the
// reliable channel, are checked and gathered until the table is whole; the whole table (and its
// frame, the delta codec's tick-0 reference) is held until a newer whole table replaces it. A chunk
// of a newer revision abandons a partial one. Every malformed chunk is refused and counted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "tickwire/protocol/rest_table_chunk.h"
#include "tickwire/replication/frames/replica_kinds.h"
#include "tickwire/replication/frames/replica_state.h"
#include "tickwire/replication/rest_table/rest_table.h"
#include "tickwire/replication/rest_table/rest_table_refusal.h"

namespace tickwire {

enum class RestChunkOutcome : uint8_t {
  refused,    // see reason; a refused chunk of the partial (or a newer) revision closes that revision
  stored,     // taken; the table is still incomplete
  completed,  // this chunk completed its table: it is now current()
};

struct RestChunkVerdict {
  RestChunkOutcome outcome = RestChunkOutcome::refused;
  RestTableRefusal reason = RestTableRefusal::count_;  // set when refused
  bool abandoned = false;  // this chunk abandoned a partial table (a newer revision, or a refusal)
  uint32_t revision = 0;
};

class RestTableAssembler {
 public:
  // `kinds` (the game's registry) sets the frame's precision; it must outlive the assembler.
  explicit RestTableAssembler(const ReplicaKinds& kinds) : kinds_(&kinds) {}

  RestChunkVerdict accept(const protocol::RestTableChunk& chunk);

  // The newest whole table (revision 0: none yet) and whether it is the one a snapshot names. A
  // client sets a snapshot aside while holds(its restRevision) is false (revision 0 needs none).
  const RestTable& current() const { return current_; }
  uint32_t revision() const { return current_.revision(); }
  // The map the table in hand is of, as its chunks named it (zero: none named).
  const wire::Hash16& map_identity() const { return map_identity_; }
  bool holds(uint32_t revision) const { return revision != 0 && current_.revision() == revision; }
  // The current table as the codec's reference, tick 0; built on first use after each completion
  // (defined beside the codec's quantizer). Empty (no states) while no table is held.
  const ReplicaFrame& frame() const;

  bool in_progress() const { return partial_revision_ != 0; }
  uint32_t partial_revision() const { return partial_revision_; }
  std::size_t partial_records() const { return partial_.size(); }

  const RestTableRefusalCounters& refusals() const { return refusals_; }
  uint64_t stored_chunks() const { return stored_; }
  uint64_t completed_tables() const { return completed_; }
  uint64_t abandoned_tables() const { return abandoned_; }

 private:
  RestChunkVerdict begin(const protocol::RestTableChunk& chunk);
  std::optional<RestTableRefusal> check_header(const protocol::RestTableChunk& chunk) const;
  std::optional<RestTableRefusal> check_records(const protocol::RestTableChunk& chunk, uint32_t object_count) const;
  RestChunkVerdict refuse(RestTableRefusal reason, uint32_t revision, bool abandoned, bool close);
  RestChunkVerdict take(const protocol::RestTableChunk& chunk, bool abandoned);
  bool abandon_partial();
  void drop_partial();

  const ReplicaKinds* kinds_;
  RestTable current_;
  uint32_t closed_revision_ = 0;  // newest revision completed or refused: older ones are stale
  // The table in progress.
  uint32_t partial_revision_ = 0;
  uint32_t partial_object_count_ = 0;
  uint16_t partial_chunk_count_ = 0;
  uint16_t partial_next_index_ = 0;
  wire::Hash16 partial_map_identity_;
  wire::Hash16 map_identity_;
  std::vector<protocol::Record> partial_;  // grows by what arrived, never past objectCount
  RestTableRefusalCounters refusals_;
  uint64_t stored_ = 0;
  uint64_t completed_ = 0;
  uint64_t abandoned_ = 0;
  mutable ReplicaFrame frame_;
  mutable uint32_t frame_revision_ = 0;
};

}  // namespace tickwire
