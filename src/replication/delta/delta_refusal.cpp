// The general error each reason a SnapshotDelta body is refused for reports as.
#include "tickwire/replication/delta/delta_refusal.h"

namespace tickwire {

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
