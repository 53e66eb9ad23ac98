// Why the snapshot reassembler refused a fragment. Fragments arrive on an unreliable channel, so
// stragglers and duplicates are ordinary traffic and a hostile peer can send anything: every
// refusal is counted by reason (never an error), for stats and for the tests that pin each rule.
#pragma once

#include <cstdint>
#include <string_view>

#include "tickwire/core/reasons.h"
#include "tickwire/core/reason_counters.h"

namespace tickwire {

TW_REASONS(FragmentRefusal,
  count_zero,          // fragmentCount 0: a set of nothing
  count_over_max,      // fragmentCount above MaxSnapshotFragments (16)
  index_out_of_range,  // fragmentIndex >= fragmentCount
  empty_slice,         // a slice of no bytes
  slice_too_large,     // a slice longer than the budget's max_slice_bytes
  stale_tick,          // older than the set in progress or the last closed tick
  tick_closed,         // the tick already completed (or was refused): a straggler or a duplicate
  count_mismatch,      // fragmentCount differs from the set in progress for the same tick
  duplicate_index,     // this index of the set in progress already arrived
  snapshot_too_large  // the set would complete past max_snapshot_bytes; the tick is refused
)

using FragmentRefusalCounters = ReasonCounters<FragmentRefusal>;

}  // namespace tickwire
