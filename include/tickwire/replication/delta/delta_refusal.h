// Why a SnapshotDelta body was refused. Bodies arrive from the network, so a hostile or damaged
// one is ordinary traffic: the decoder names the rule it broke (counted by the caller), and the
// frame is dropped, never misapplied.
#pragma once

#include <cstdint>
#include <string_view>

#include "tickwire/core/reasons.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/core/status.h"

namespace tickwire {

TW_REASONS(DeltaRefusal,
  missing_baseline,         // the body is coded against a baseline the caller did not give
  missing_older,            // the body predicts from an older frame the caller did not give
  reference_ticks,          // the references' ticks are not older < baseline < the body's tick
  corrupt_stream,           // a range-coded stream no encoder writes
  trailing_bytes,           // bytes after the stream's end
  too_many_records,         // more coded records, or a larger frame, than the caps allow
  id_out_of_order,          // an added id not above the previous id
  duplicate_id,             // an added id the baseline already holds at that place
  bad_form,                 // a record form that is neither entity nor object
  too_many_sections,        // more than MaxComponentSections payloads
  too_many_channels,        // a payload declaring more than MaxKindChannels channels
  value_out_of_range,       // a decoded value outside its type (a position past int32, ...)
  bad_enum,                 // an enum value its type does not have (the claim outcome)
  missing_history          // the body fits over a frame the caller's history does not hold
)

// The general error class a refusal reports through Status.
Error delta_refusal_error(DeltaRefusal reason);

using DeltaRefusalCounters = ReasonCounters<DeltaRefusal>;

}  // namespace tickwire
