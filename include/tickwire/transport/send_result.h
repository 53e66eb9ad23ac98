// What a send returns: the message id it was given, or the named reason it was refused. A refused
// send is always explicit (and counted by the endpoint); nothing the caller hands over is dropped
// silently. Reliable refusals leave the queue untouched, so the caller may retry later.
#pragma once

#include <cstdint>
#include <string_view>

#include "tickwire/core/reasons.h"
#include "tickwire/core/reason_counters.h"

namespace tickwire {

TW_REASONS(SendError,
  ok = 0,
  unknown_channel,    // the channel index is not configured on this connection
  message_too_large,  // over the channel's max_message_bytes (unreliable) or max_block_bytes (reliable)
  send_queue_full,    // the reliable send queue is at its message or byte cap (the peer is not acking)
  endpoint_failed,   // the endpoint hit a fatal reason; the connection must be dropped
  no_such_owner      // an addressed send's target is past the owner id space: nobody to relay to
)

struct [[nodiscard]] SendResult {
  SendError error = SendError::ok;
  uint16_t message_id = 0;  // per-channel id, valid when ok()

  bool ok() const { return error == SendError::ok; }
  explicit operator bool() const { return ok(); }
};

using SendCounters = ReasonCounters<SendError>;

}  // namespace tickwire
