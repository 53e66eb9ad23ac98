// Records as the game states them (floats) to replica states at each kind's precision, and back:
// the quantization happens once, here, so the delta codec codes integers both ends hold exactly.
#pragma once

#include <span>
#include <vector>

#include "tickwire/protocol/record_batch.h"
#include "tickwire/replication/frames/replica_kinds.h"
#include "tickwire/replication/frames/replica_state.h"

namespace tickwire {

// Records to states, sorted by ascending id (ids must be unique). Positions round to the kind's
// quantum (clamped to int32), rotations to smallest-three steps at its rotation bits, look angles
// to 12-bit steps; eye height, scale and payload channels stay exact. An object section's fields
// whose dirty bit is clear read as zero; channels past channel_count are zeroed.
void quantize_records(std::span<const protocol::Record> records, const ReplicaKinds& kinds,
                      std::vector<ReplicaState>& out);
// One state back to a record (object sections come back with every field present).
void dequantize_state(const ReplicaState& state, const ReplicaKinds& kinds, protocol::Record& out);

}  // namespace tickwire
