// Why a room policy or a received netcode contract is refused: a short list of generic errors
// (a field outside the range its table states, a string or list past its cap) and the cross-field
// rules by name, each found with the dotted path of wire names it was found at.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tickwire/core/reasons.h"

namespace tickwire {

TW_REASONS(ContractError,
  ok,
  // A field against its own table entry (contract_fields.h).
  out_of_range,         // a number outside its range, or an enum value its definition lacks
  not_finite,           // NaN or infinity
  field_empty,          // a required string left empty
  field_too_long,       // a string past its cap
  field_not_printable,  // a string byte outside printable ASCII
  list_too_long,        // a list past its cap
  // The contract as a whole.
  unsupported_version,
  snapshot_rate_above_tick_rate,
  snapshot_rate_not_tick_divisor,
  margin_exceeds_buffer,               // maxMarginTicks > bufferTicks
  interpolation_delay_exceeds_buffer,  // the delay plus the widest margin does not fit the buffer
  snapshot_budget_exceeds_fragments,   // more than MaxPacketBytes x maxSnapshotFragments
  pose_radius_exceeds_radius,
  derived_value_mismatch,  // a received contract whose derived fields disagree with its inputs
  prediction_admission_mismatch,  // a received prediction grant that is not the resolver's for its request
  vocabulary_duplicate,    // an id, bit or name registered twice in one list
  vocabulary_unordered,    // ids or bits not ascending
  // The load ladders (load_policy.h).
  ladder_incomplete,               // a ladder that does not list each of its rungs
  ladder_rung_misplaced,           // a rung listed out of its ladder's fixed order
  ladder_enter_unordered,          // an enter threshold not above the rung below's
  ladder_release_not_below_enter,  // a release threshold at or above its enter threshold: no hysteresis
  ladder_reaches_kill_threshold    // a shard rung entering at or past the shard's tick-lag kill threshold
)

// The first thing wrong with a policy or contract, and the field it was found at: the dotted path
// of wire names, list elements by index ("cadence.tickRateHz", "vocabulary.kinds[2].name").
struct ContractIssue {
  ContractError error = ContractError::ok;
  std::string field;
  bool ok() const { return error == ContractError::ok; }
};

}  // namespace tickwire
