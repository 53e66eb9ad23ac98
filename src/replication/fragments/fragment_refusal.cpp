// Names of the snapshot reassembler's refusal reasons, for stats lines and test messages.
#include "tickwire/replication/fragments/fragment_refusal.h"

namespace tickwire {

std::string_view fragment_refusal_name(FragmentRefusal reason) {
  switch (reason) {
    case FragmentRefusal::count_zero: return "count_zero";
    case FragmentRefusal::count_over_max: return "count_over_max";
    case FragmentRefusal::index_out_of_range: return "index_out_of_range";
    case FragmentRefusal::empty_slice: return "empty_slice";
    case FragmentRefusal::slice_too_large: return "slice_too_large";
    case FragmentRefusal::stale_tick: return "stale_tick";
    case FragmentRefusal::tick_closed: return "tick_closed";
    case FragmentRefusal::count_mismatch: return "count_mismatch";
    case FragmentRefusal::duplicate_index: return "duplicate_index";
    case FragmentRefusal::snapshot_too_large: return "snapshot_too_large";
    case FragmentRefusal::count_: break;
  }
  return "unknown";
}

}  // namespace tickwire
