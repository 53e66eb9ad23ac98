// RestTableAssembler: the order and header rules per chunk, the record rules across the table,
// and the hand-over of a whole table. A chunk is checked whole before any of it is kept.
#include "tickwire/replication/rest_table/rest_table_assembler.h"

#include <utility>

namespace tickwire {
namespace {

RestTableRefusal fault_refusal(RestRecordsFault fault) {
  switch (fault) {
    case RestRecordsFault::not_object_record: return RestTableRefusal::not_object_record;
    case RestRecordsFault::ids_not_ascending: return RestTableRefusal::ids_not_ascending;
    case RestRecordsFault::duplicate_object_index: return RestTableRefusal::duplicate_object_index;
    case RestRecordsFault::too_many_objects: return RestTableRefusal::object_count_over_max;
  }
  return RestTableRefusal::count_;
}

}  // namespace

RestChunkVerdict RestTableAssembler::accept(const protocol::RestTableChunk& chunk) {
  if (chunk.revision == 0) return refuse(RestTableRefusal::revision_zero, 0, false, false);
  if (chunk.revision <= closed_revision_ || chunk.revision < partial_revision_) {
    return refuse(RestTableRefusal::stale_revision, chunk.revision, false, false);
  }
  if (chunk.revision != partial_revision_) return begin(chunk);
  if (chunk.object_count != partial_object_count_ || chunk.chunk_count != partial_chunk_count_ ||
      chunk.map_identity != partial_map_identity_) {
    return refuse(RestTableRefusal::header_changed, chunk.revision, abandon_partial(), true);
  }
  if (chunk.chunk_index != partial_next_index_) {
    const RestTableRefusal reason = chunk.chunk_index >= chunk.chunk_count ? RestTableRefusal::index_out_of_range
                                                                           : RestTableRefusal::out_of_order;
    return refuse(reason, chunk.revision, abandon_partial(), true);
  }
  if (auto reason = check_records(chunk, partial_object_count_)) {
    return refuse(*reason, chunk.revision, abandon_partial(), true);
  }
  return take(chunk, false);
}

// The first chunk of a newer revision: whatever was in progress is abandoned (the server moved on).
RestChunkVerdict RestTableAssembler::begin(const protocol::RestTableChunk& chunk) {
  const bool abandoned = abandon_partial();
  if (auto reason = check_header(chunk)) return refuse(*reason, chunk.revision, abandoned, true);
  if (chunk.chunk_index != 0) return refuse(RestTableRefusal::out_of_order, chunk.revision, abandoned, true);
  if (auto reason = check_records(chunk, chunk.object_count)) return refuse(*reason, chunk.revision, abandoned, true);
  partial_revision_ = chunk.revision;
  partial_object_count_ = chunk.object_count;
  partial_chunk_count_ = chunk.chunk_count;
  partial_next_index_ = 0;
  partial_map_identity_ = chunk.map_identity;
  return take(chunk, abandoned);
}

std::optional<RestTableRefusal> RestTableAssembler::check_header(const protocol::RestTableChunk& chunk) const {
  if (chunk.object_count > protocol::MaxRestTableObjects) return RestTableRefusal::object_count_over_max;
  if (chunk.chunk_count > protocol::MaxRestTableChunks) return RestTableRefusal::chunk_count_over_max;
  if (chunk.chunk_count != rest_table_chunk_count(chunk.object_count)) return RestTableRefusal::chunk_count_mismatch;
  if (chunk.chunk_index >= chunk.chunk_count) return RestTableRefusal::index_out_of_range;
  return std::nullopt;
}

// The chunk's records against the table so far (partial_ holds the earlier chunks, checked; it is
// empty for a table's first chunk). The rule spanning the whole table is checked at completion.
std::optional<RestTableRefusal> RestTableAssembler::check_records(const protocol::RestTableChunk& chunk,
                                                                  uint32_t object_count) const {
  const auto& records = chunk.records;
  if (records.size() > protocol::RestTableChunkRecords) return RestTableRefusal::chunk_too_large;
  const std::size_t total = partial_.size() + records.size();
  if (total > object_count) return RestTableRefusal::records_past_count;
  const bool last = chunk.chunk_index + 1u == chunk.chunk_count;
  if (last && total != object_count) return RestTableRefusal::records_short;
  uint32_t previous_id = partial_.empty() ? 0 : partial_.back().entity_id;
  bool first = partial_.empty();
  for (const protocol::Record& record : records) {
    if (!std::holds_alternative<protocol::ObjectRecord>(record.body)) return RestTableRefusal::not_object_record;
    if (!first && record.entity_id <= previous_id) return RestTableRefusal::ids_not_ascending;
    previous_id = record.entity_id;
    first = false;
  }
  return std::nullopt;
}

RestChunkVerdict RestTableAssembler::take(const protocol::RestTableChunk& chunk, bool abandoned) {
  partial_.insert(partial_.end(), chunk.records.begin(), chunk.records.end());
  ++partial_next_index_;
  if (partial_next_index_ < partial_chunk_count_) {
    ++stored_;
    return RestChunkVerdict{RestChunkOutcome::stored, RestTableRefusal::count_, abandoned, chunk.revision};
  }
  // Whole: the rules that span the table (ids were checked across chunks as they came).
  if (auto fault = rest_records_fault(partial_)) {
    const bool had_stored = partial_next_index_ > 1;  // earlier chunks of this table were stored
    drop_partial();
    abandoned_ += had_stored ? 1 : 0;
    return refuse(fault_refusal(*fault), chunk.revision, abandoned || had_stored, true);
  }
  ++stored_;
  current_ = RestTable(partial_revision_, std::exchange(partial_, {}));
  map_identity_ = partial_map_identity_;
  closed_revision_ = partial_revision_;
  partial_revision_ = 0;
  ++completed_;
  return RestChunkVerdict{RestChunkOutcome::completed, RestTableRefusal::count_, abandoned, chunk.revision};
}

RestChunkVerdict RestTableAssembler::refuse(RestTableRefusal reason, uint32_t revision, bool abandoned, bool close) {
  refusals_.add(reason);
  if (close && revision > closed_revision_) closed_revision_ = revision;
  return RestChunkVerdict{RestChunkOutcome::refused, reason, abandoned, revision};
}

// Drops the table in progress, if any; true when one was dropped.
bool RestTableAssembler::abandon_partial() {
  if (partial_revision_ == 0) return false;
  drop_partial();
  ++abandoned_;
  return true;
}

void RestTableAssembler::drop_partial() {
  partial_revision_ = 0;
  partial_next_index_ = 0;
  partial_.clear();
  partial_.shrink_to_fit();
}

}  // namespace tickwire
