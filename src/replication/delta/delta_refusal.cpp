// The names of the reasons a SnapshotDelta body is refused, for counters, logs and tests, and the
// general error each one reports as.
#include "tickwire/replication/delta/delta_refusal.h"

namespace tickwire {

std::string_view delta_refusal_name(DeltaRefusal reason) {
  switch (reason) {
    case DeltaRefusal::missing_baseline: return "missing_baseline";
    case DeltaRefusal::missing_older: return "missing_older";
    case DeltaRefusal::reference_ticks: return "reference_ticks";
    case DeltaRefusal::corrupt_stream: return "corrupt_stream";
    case DeltaRefusal::trailing_bytes: return "trailing_bytes";
    case DeltaRefusal::too_many_records: return "too_many_records";
    case DeltaRefusal::id_out_of_order: return "id_out_of_order";
    case DeltaRefusal::duplicate_id: return "duplicate_id";
    case DeltaRefusal::bad_form: return "bad_form";
    case DeltaRefusal::too_many_sections: return "too_many_sections";
    case DeltaRefusal::too_many_channels: return "too_many_channels";
    case DeltaRefusal::value_out_of_range: return "value_out_of_range";
    case DeltaRefusal::bad_enum: return "bad_enum";
    case DeltaRefusal::missing_history: return "missing_history";
    case DeltaRefusal::count_: break;
  }
  return "unknown";
}

Error delta_refusal_error(DeltaRefusal reason) {
  switch (reason) {
    case DeltaRefusal::trailing_bytes: return Error::trailing_bytes;
    case DeltaRefusal::too_many_records:
    case DeltaRefusal::too_many_sections:
    case DeltaRefusal::too_many_channels: return Error::count_over_max;
    case DeltaRefusal::bad_form: return Error::unknown_union_tag;
    case DeltaRefusal::bad_enum: return Error::unknown_enum_value;
    case DeltaRefusal::corrupt_stream: return Error::truncated;
    default: return Error::value_out_of_range;
  }
}

}  // namespace tickwire
