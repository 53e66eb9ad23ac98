// Every reason a netcode client or server ignores a datagram or refuses a connection, as one
// enum: readers return it, NetcodeServer/NetcodeClient count it in a ReasonCounters, tests assert
// on it. The request_* block follows the standard's processing order for connection requests.
#pragma once

#include <cstdint>
#include <string_view>

#include "tickwire/core/reasons.h"
#include "tickwire/core/reason_counters.h"

namespace tickwire::netcode {

TW_REASONS(Reject,
  ok = 0,
  // Any datagram, before decryption (the standard's "reading encrypted packets" steps).
  packet_too_large,          // longer than any netcode packet
  packet_too_small,          // shorter than the smallest encrypted packet
  packet_type_invalid,       // low nibble of the prefix >= 7
  packet_type_not_allowed,   // a type this side never accepts (server: challenge, denied; client: request, response)
  sequence_bytes_invalid,    // high nibble of the prefix outside [1, 8]
  body_size_wrong,           // ciphertext length not the expected size for the packet type
  no_key_for_address,        // no slot or pending handshake holds keys for the source address
  replayed,                  // already received, or older than the replay window
  decrypt_failed,            // MAC did not verify
  // Connection request packets, in the standard's exact order.
  request_wrong_size,
  request_wrong_version,
  request_wrong_protocol,
  request_token_expired,
  request_token_decrypt_failed,
  request_token_malformed,
  request_server_not_in_token,
  request_address_connected,
  request_client_id_connected,
  request_token_used_elsewhere,
  request_denied_server_full,  // answered with a denied packet (one of the two replies in this block)
  request_denied_by_server,    // the server's request filter said no (admissions closed): a denied packet
  // Connection response packets, in the standard's order.
  response_challenge_invalid,
  response_address_connected,
  response_client_id_connected,
  response_denied_server_full,  // answered with a denied packet
  response_deferred,            // this update connected its cap: the client waits for a later one
  // State and capacity.
  unexpected_in_state,       // a well-formed packet the receiver's current state does not expect
  from_unknown_address,      // client: a datagram not from the server it is talking to
  receive_queue_full,        // payload dropped: the application is not draining its queue
  send_refused,              // a send the reply budget or socket refused
  sequence_exhausted        // a send stream used up its sequence range (connection closed)
)

using RejectCounters = ReasonCounters<Reject>;

}  // namespace tickwire::netcode
