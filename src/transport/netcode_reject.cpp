// Names for the netcode reject reasons, for stats output and test failure messages.
#include "tickwire/transport/netcode_reject.h"

#include <array>

namespace tickwire::netcode {

std::string_view reject_name(Reject reason) noexcept {
  static constexpr std::array<std::string_view, static_cast<std::size_t>(Reject::count_)> kNames = {
      "ok",
      "packet_too_large",
      "packet_too_small",
      "packet_type_invalid",
      "packet_type_not_allowed",
      "sequence_bytes_invalid",
      "body_size_wrong",
      "no_key_for_address",
      "replayed",
      "decrypt_failed",
      "request_wrong_size",
      "request_wrong_version",
      "request_wrong_protocol",
      "request_token_expired",
      "request_token_decrypt_failed",
      "request_token_malformed",
      "request_server_not_in_token",
      "request_address_connected",
      "request_client_id_connected",
      "request_token_used_elsewhere",
      "request_denied_server_full",
      "response_challenge_invalid",
      "response_address_connected",
      "response_client_id_connected",
      "response_denied_server_full",
      "unexpected_in_state",
      "from_unknown_address",
      "receive_queue_full",
      "send_refused",
      "sequence_exhausted",
  };
  const auto i = static_cast<std::size_t>(reason);
  return i < kNames.size() ? kNames[i] : std::string_view("unknown");
}

}  // namespace tickwire::netcode
