// Why a session ended, one name per way a client leaves the room, so an operator reads from the
// server's stats ("disconnect.timed_out": 3) and its log line per departure why each client left,
// without a debugger. Counted once per connection, when the room lets it go.
#pragma once

#include <cstdint>

#include "tickwire/core/reasons.h"

namespace tickwire {

TW_REASONS(SessionEnd,
  timed_out,            // nothing heard from the client for its token's timeout
  client_disconnected,  // the client said goodbye (its disconnect packets)
  link_failed,          // the reliability layer gave up on the link (the detail names why)
  peer_failed,          // the connect sequence failed: schemas, plan, or a refused hello (the detail names why)
  kicked,               // its offences emptied the contract's bucket (the detail names the kick)
  superseded,           // its player came back on a new connection, which took the pawn
  admissions_closed,    // a new player while the room's admissions were closed (a drain or the ladder)
  admit_refused,        // the room had no seat for it (owner taken or no entity slot)
  server_stopped,       // the server stopped
  sequence_exhausted,   // its packet sequence ran out (after 2^32 packets)
  server_disconnected   // the transport let it go on the server's word
)

}  // namespace tickwire
