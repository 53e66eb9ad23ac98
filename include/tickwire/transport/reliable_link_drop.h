// What the adaptors joining netcode connections to reliability endpoints (ReliableClient,
// ReliableServer) drop or end at the seam between the two layers, by name, so a run can say why a
// payload went nowhere or a connection was dropped.
#pragma once

#include <cstdint>
#include <string_view>

#include "tickwire/core/reasons.h"
#include "tickwire/core/reason_counters.h"

namespace tickwire {

TW_REASONS(ReliableLinkDrop,
  no_endpoint,       // a payload for a connection that has no endpoint (it ended in this update)
  malformed_payload, // the endpoint refused a payload as undecodable (its own counters say why)
  send_refused,      // netcode refused an outgoing payload (the connection ended mid-write)
  endpoint_failed   // the endpoint reached a fatal reason: the connection was dropped
)

using ReliableLinkCounters = ReasonCounters<ReliableLinkDrop>;

}  // namespace tickwire
