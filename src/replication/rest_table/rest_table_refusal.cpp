// Names of the rest-table assembler's refusal reasons, for stats lines and test messages.
#include "tickwire/replication/rest_table/rest_table_refusal.h"

namespace tickwire {

std::string_view rest_table_refusal_name(RestTableRefusal reason) {
  switch (reason) {
    case RestTableRefusal::revision_zero: return "revision_zero";
    case RestTableRefusal::stale_revision: return "stale_revision";
    case RestTableRefusal::object_count_over_max: return "object_count_over_max";
    case RestTableRefusal::chunk_count_over_max: return "chunk_count_over_max";
    case RestTableRefusal::chunk_count_mismatch: return "chunk_count_mismatch";
    case RestTableRefusal::index_out_of_range: return "index_out_of_range";
    case RestTableRefusal::out_of_order: return "out_of_order";
    case RestTableRefusal::header_changed: return "header_changed";
    case RestTableRefusal::chunk_too_large: return "chunk_too_large";
    case RestTableRefusal::records_past_count: return "records_past_count";
    case RestTableRefusal::records_short: return "records_short";
    case RestTableRefusal::not_object_record: return "not_object_record";
    case RestTableRefusal::ids_not_ascending: return "ids_not_ascending";
    case RestTableRefusal::duplicate_object_index: return "duplicate_object_index";
    case RestTableRefusal::count_: break;
  }
  return "unknown";
}

}  // namespace tickwire
