// RestTable: the rules a rest table's records keep, lookups by id and index, and chunk slicing.
#include "tickwire/replication/rest_table/rest_table.h"

#include <algorithm>

#include "tickwire/core/assert.h"

namespace tickwire {
namespace {

uint32_t object_index_of(const protocol::Record& record) {
  return std::get<protocol::ObjectRecord>(record.body).object_index;
}

}  // namespace

std::optional<RestRecordsFault> rest_records_fault(std::span<const protocol::Record> records) {
  if (records.size() > protocol::MaxRestTableObjects) return RestRecordsFault::too_many_objects;
  std::vector<uint32_t> indices;
  indices.reserve(records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (!std::holds_alternative<protocol::ObjectRecord>(records[i].body)) return RestRecordsFault::not_object_record;
    if (i > 0 && records[i].entity_id <= records[i - 1].entity_id) return RestRecordsFault::ids_not_ascending;
    indices.push_back(object_index_of(records[i]));
  }
  std::sort(indices.begin(), indices.end());
  if (std::adjacent_find(indices.begin(), indices.end()) != indices.end()) return RestRecordsFault::duplicate_object_index;
  return std::nullopt;
}

RestTable::RestTable(uint32_t revision, std::vector<protocol::Record> records)
    : revision_(revision), records_(std::move(records)) {
  TW_ASSERT(revision_ != 0, "a rest table's revision is never 0");
  TW_ASSERT(!rest_records_fault(records_).has_value(), "a rest table holds object records, ascending unique ids");
  object_indices_.reserve(records_.size());
  for (const protocol::Record& record : records_) object_indices_.push_back(object_index_of(record));
  std::sort(object_indices_.begin(), object_indices_.end());
}

const protocol::Record* RestTable::find(uint32_t entity_id) const {
  auto it = std::lower_bound(records_.begin(), records_.end(), entity_id,
                             [](const protocol::Record& r, uint32_t id) { return r.entity_id < id; });
  return it != records_.end() && it->entity_id == entity_id ? &*it : nullptr;
}

bool RestTable::names_entity(uint32_t entity_id) const { return find(entity_id) != nullptr; }

bool RestTable::names_object(uint32_t object_index) const {
  return std::binary_search(object_indices_.begin(), object_indices_.end(), object_index);
}

void RestTable::write_chunk(std::size_t index, protocol::RestTableChunk& out) const {
  const std::size_t count = chunk_count();
  TW_ASSERT(index < count, "rest table chunk index past the chunk count");
  TW_ASSERT(count <= protocol::MaxRestTableChunks, "a rest table past MaxRestTableChunks");
  const std::size_t begin = index * protocol::RestTableChunkRecords;
  const std::size_t end = std::min(records_.size(), begin + protocol::RestTableChunkRecords);
  out.revision = revision_;
  out.object_count = static_cast<uint32_t>(records_.size());
  out.chunk_index = static_cast<uint16_t>(index);
  out.chunk_count = static_cast<uint16_t>(count);
  out.records.assign(records_.begin() + static_cast<std::ptrdiff_t>(begin),
                     records_.begin() + static_cast<std::ptrdiff_t>(end));
}

}  // namespace tickwire
