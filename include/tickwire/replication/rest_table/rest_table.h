// RestTable: one revision of the rest table as both ends hold it (seed 000, "The rest table"):
// every map object's record as it stood when taken, object form, ascending entity id. The server
// slices it into mapRestTable chunks; the client's assembler rebuilds the same value from them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "tickwire/protocol/record_batch.h"
#include "tickwire/protocol/rest_table_chunk.h"

namespace tickwire {

// Why a set of records cannot be a rest table (the server asserts on it, the client refuses it).
enum class RestRecordsFault : uint8_t {
  not_object_record,       // an entity-form record: the table names map objects only
  ids_not_ascending,       // entity ids must strictly ascend (unique, in frame order)
  duplicate_object_index,  // two records name one object index
  too_many_objects,        // past MaxRestTableObjects
};

// The first fault of `records`, or nullopt when they form a rest table.
std::optional<RestRecordsFault> rest_records_fault(std::span<const protocol::Record> records);

// How many chunks a table of `object_count` records travels in: ceil(n / 512), and one empty
// chunk for an empty table.
constexpr std::size_t rest_table_chunk_count(std::size_t object_count) {
  return object_count == 0 ? 1 : (object_count + protocol::RestTableChunkRecords - 1) / protocol::RestTableChunkRecords;
}

class RestTable {
 public:
  RestTable() = default;
  // `records` must be a rest table (rest_records_fault is nullopt) and `revision` non-zero: asserted.
  RestTable(uint32_t revision, std::vector<protocol::Record> records);

  uint32_t revision() const { return revision_; }  // 0: no table
  std::span<const protocol::Record> records() const { return records_; }
  std::size_t size() const { return records_.size(); }

  // Whether the table names this entity id / this object index. O(log n).
  bool names_entity(uint32_t entity_id) const;
  bool names_object(uint32_t object_index) const;
  // The record of an entity id, or null.
  const protocol::Record* find(uint32_t entity_id) const;

  std::size_t chunk_count() const { return rest_table_chunk_count(records_.size()); }
  // Chunk `index` (< chunk_count()): its header and at most RestTableChunkRecords records.
  void write_chunk(std::size_t index, protocol::RestTableChunk& out) const;


 private:
  uint32_t revision_ = 0;
  std::vector<protocol::Record> records_;  // ascending entity id
  std::vector<uint32_t> object_indices_;   // ascending
};

}  // namespace tickwire
