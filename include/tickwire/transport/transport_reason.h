// Every way the reliability layer refuses or discards something has a name here: a hostile or
// broken payload, a normal network event (a duplicate, a stale packet), or a fatal condition that
// means "drop this connection". Counted per endpoint with ReasonCounters, readable at any time.
#pragma once

#include <cstdint>
#include <string_view>

#include "tickwire/core/reasons.h"
#include "tickwire/core/reason_counters.h"

namespace tickwire {

TW_REASONS(TransportReason,
  // packets
  malformed_packet,        // the structure did not decode (the core Error is counted too)
  duplicate_packet,        // a packet sequence already received (normal under duplication)
  stale_packet,            // older than the received-packet window (normal after long reorders)
  too_many_entries,        // more entries than kMaxEntriesPerPacket
  // entries
  unknown_channel,         // an entry for a channel this connection did not configure
  wrong_channel_kind,      // e.g. a fragment on an unreliable channel, or a reliable message on one
  message_too_large,       // an entry longer than its channel's max_message_bytes
  duplicate_message,       // a reliable message already held or delivered (normal)
  stale_unreliable,        // an unreliable message further behind the newest received than the window (normal)
  duplicate_unreliable,    // an unreliable message already received (normal under duplication)
  unreliable_receive_full, // the unreliable receive queue was full: its oldest message dropped
  // fragments of large blocks
  fragment_count_over_cap,   // a set declaring more fragments than max_fragments
  fragment_id_out_of_range,  // fragment index >= fragment count (count 0 included)
  fragment_empty,            // a fragment with zero bytes
  block_too_large,           // a set declaring more bytes than max_block_bytes (or zero)
  fragment_overflows_block,  // offset + length past the declared block size
  fragment_overlap,          // a fragment overlapping another of its set, or out of index order
  fragment_set_mismatch,     // a fragment disagreeing with its set's count, size or earlier copy
  fragment_set_busy,         // a fragment of another block while the one reassembly slot is held
  // (the next two are fatal: the set's fragments were acked, so the stream can never complete)
  fragment_set_gap,          // every fragment arrived but they do not cover the block: set discarded
  stale_fragment_set,        // a set that made no progress for fragment_set_timeout: evicted
  // sending
  unreliable_replaced,     // the unreliable send queue was full: its oldest message dropped
  unreliable_expired,      // an unreliable message that did not fit the write it was queued for
  ack_queue_full,          // the acked-packet notification queue was full: notice dropped
  sent_refs_expired,       // an acked packet whose content records were already overwritten
  // fatal: the connection must be dropped
  receive_queue_overflow,  // a reliable message we can never store (the app is not draining)
  reliable_timeout,        // a reliable message unacked for reliable_timeout
  // NetChannel envelopes
  envelope_malformed,      // a NetChannel envelope that does not decode
  misrouted               // an addressed message not for this owner
)

using TransportCounters = ReasonCounters<TransportReason>;

// True for the reasons after which the endpoint stops and the connection must be dropped.
constexpr bool is_fatal(TransportReason reason) {
  return reason == TransportReason::receive_queue_overflow || reason == TransportReason::reliable_timeout ||
         reason == TransportReason::stale_fragment_set || reason == TransportReason::fragment_set_gap;
}

// True for the reasons an honest peer never causes, whatever the network does to its packets (loss,
// duplication, reordering): bytes that do not decode, caps broken, channels misused. They arrive
// inside the link's encryption, so they are the peer's own; the server counts them against it.
constexpr bool is_hostile(TransportReason reason) {
  using R = TransportReason;
  switch (reason) {
    case R::malformed_packet:
    case R::too_many_entries:
    case R::unknown_channel:
    case R::wrong_channel_kind:
    case R::message_too_large:
    case R::fragment_count_over_cap:
    case R::fragment_id_out_of_range:
    case R::fragment_empty:
    case R::block_too_large:
    case R::fragment_overflows_block:
    case R::envelope_malformed:
      return true;
    default:
      return false;
  }
}

}  // namespace tickwire
