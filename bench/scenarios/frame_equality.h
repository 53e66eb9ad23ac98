// Exact equality of what the client holds and what the server coded: the states field by field
// and the owner detail byte for byte through its own field table (its floats travel exactly), so
// the check needs nothing from the protocol's shapes beyond their wire walk.
#pragma once

#include <optional>

#include "tickwire/protocol/snapshot.h"
#include "tickwire/replication/replica_state.h"

namespace tickwire::bench {

bool same_owner(const std::optional<protocol::OwnerDetail>& a, const std::optional<protocol::OwnerDetail>& b);
bool same_frame(const ReplicaFrame& a, const ReplicaFrame& b);

}  // namespace tickwire::bench
