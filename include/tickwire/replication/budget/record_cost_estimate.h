// What one record is expected to cost in a delta body, before it is encoded: budget fitting must
// choose what to send without encoding every candidate for every client. The estimate follows the
// fields that differ from the client's reference (or a whole record when it holds none) and errs
// high; the encoder's real sizes are what the snapshot diagnostics report.
#pragma once

#include <cstdint>

#include "tickwire/replication/frames/replica_state.h"

namespace tickwire {

// Bytes `current` is expected to take coded against `reference` (null: an added record). A record
// equal to its reference costs 0 here (the codec spends at most a bit on it).
uint32_t estimate_record_bytes(const ReplicaState& current, const ReplicaState* reference);

}  // namespace tickwire
