// Why the client's rest-table assembler refused a mapRestTable chunk. The chunks ride a reliable
// ordered channel, so a refusal means a broken or hostile server: each is counted by reason (never
// an error) and the table in progress is abandoned when the chunk belonged to it.
#pragma once

#include <cstdint>
#include <string_view>

#include "tickwire/core/reasons.h"
#include "tickwire/core/reason_counters.h"

namespace tickwire {

TW_REASONS(RestTableRefusal,
  revision_zero,           // revision 0 names no table
  stale_revision,          // not newer than the table held or the last one closed
  object_count_over_max,   // objectCount above MaxRestTableObjects
  chunk_count_over_max,    // chunkCount above MaxRestTableChunks
  chunk_count_mismatch,    // chunkCount is not ceil(objectCount / 512) (1 for an empty table)
  index_out_of_range,      // chunkIndex >= chunkCount
  out_of_order,            // not the next chunk of its revision (a gap, a repeat, a table begun mid-way)
  header_changed,          // objectCount or chunkCount differs from the table's earlier chunks
  chunk_too_large,         // more than RestTableChunkRecords records
  records_past_count,      // the chunks carry more records than objectCount
  records_short,           // the last chunk arrived with fewer records than objectCount
  not_object_record,       // an entity-form record
  ids_not_ascending,       // entity ids do not strictly ascend across the table
  duplicate_object_index  // two records name one object index
)

using RestTableRefusalCounters = ReasonCounters<RestTableRefusal>;

}  // namespace tickwire
