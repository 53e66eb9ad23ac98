// Names for the transport drop reasons, as they appear in stats, logs and test output.
#include "tickwire/transport/transport_reason.h"

namespace tickwire {

std::string_view transport_reason_name(TransportReason reason) noexcept {
  using R = TransportReason;
  switch (reason) {
    case R::malformed_packet: return "malformed_packet";
    case R::duplicate_packet: return "duplicate_packet";
    case R::stale_packet: return "stale_packet";
    case R::too_many_entries: return "too_many_entries";
    case R::unknown_channel: return "unknown_channel";
    case R::wrong_channel_kind: return "wrong_channel_kind";
    case R::message_too_large: return "message_too_large";
    case R::duplicate_message: return "duplicate_message";
    case R::stale_unreliable: return "stale_unreliable";
    case R::unreliable_receive_full: return "unreliable_receive_full";
    case R::fragment_count_over_cap: return "fragment_count_over_cap";
    case R::fragment_id_out_of_range: return "fragment_id_out_of_range";
    case R::fragment_empty: return "fragment_empty";
    case R::block_too_large: return "block_too_large";
    case R::fragment_overflows_block: return "fragment_overflows_block";
    case R::fragment_overlap: return "fragment_overlap";
    case R::fragment_set_mismatch: return "fragment_set_mismatch";
    case R::fragment_set_busy: return "fragment_set_busy";
    case R::fragment_set_gap: return "fragment_set_gap";
    case R::stale_fragment_set: return "stale_fragment_set";
    case R::unreliable_replaced: return "unreliable_replaced";
    case R::unreliable_expired: return "unreliable_expired";
    case R::ack_queue_full: return "ack_queue_full";
    case R::sent_refs_expired: return "sent_refs_expired";
    case R::receive_queue_overflow: return "receive_queue_overflow";
    case R::reliable_timeout: return "reliable_timeout";
    case R::envelope_malformed: return "envelope_malformed";
    case R::misrouted: return "misrouted";
    case R::count_: break;
  }
  return "unknown_reason";
}

}  // namespace tickwire
