// RelayRefused: the authority's answer to a client whose addressed message (NetChannel::send_to)
// it did not relay: which target and message type, and why. The payload itself was never read.
#pragma once

#include <cstdint>
#include <string_view>

#include "tickwire/core/reasons.h"
#include "tickwire/wire/describe_walker.h"

namespace tickwire::protocol {

// Why an addressed message was not relayed.
TW_REASONS(RelayRefusal,
           target_absent,  // no admitted client has that owner id
           to_sender,      // addressed to its own sender
           rate_limited,   // past the sender's relay rate (the contract's limits.relaysPerSecond)
           target_full,    // the target's send queue refused it
           not_game_type)  // an engine message type (< kFirstGameMessageType) is never relayed
inline constexpr wire::NamedValue kRelayRefusalMembers[] = {
    {"targetAbsent", 0}, {"toSender", 1}, {"rateLimited", 2}, {"targetFull", 3}, {"notGameType", 4}};
inline constexpr wire::EnumDef kRelayRefusalDef{"RelayRefusal", kRelayRefusalMembers};

struct RelayRefused {
  static constexpr std::string_view wire_name = "RelayRefused";
  static constexpr std::string_view message_name = "relayRefused";
  static constexpr uint8_t wire_id = 21;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;

  uint16_t target = 0;
  uint16_t message_type = 0;
  RelayRefusal reason = RelayRefusal::target_absent;

  template <class W>
  void fields(W& w) {
    w.u16("target", target);
    w.u16("messageType", message_type);
    w.enum8("reason", reason, kRelayRefusalDef);
  }
};

}  // namespace tickwire::protocol
