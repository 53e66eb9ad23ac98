// Deterministic mode's link layout over the real transport: the welcome and host migration's
// handshake travel on the reliable channel; inputs, relays and checksums on the unreliable one,
// made reliable by redundancy (every message repeats what the other side has not acknowledged), so
// a lost datagram costs nothing. A connection sits at the seat its connect token grants
// (seat_grant), so a peer keeps its seat when the authority moves to another host.
#pragma once

#include <cstdint>
#include <optional>

#include "tickwire/transport/connect_token.h"
#include "tickwire/transport/endpoint_config.h"

namespace tickwire::lockstep {

inline constexpr uint8_t kWelcomeChannel = 0;  // reliable-ordered: the welcome, the handshake (blocks up to 64 KB)
inline constexpr uint8_t kFramesChannel = 1;   // unreliable

// The channel layout both ends of a deterministic match use.
EndpointConfig lockstep_endpoint_config();

// A connect token's user data granting `seat` ("SEAT" and the seat); what a grant names, if any.
netcode::UserData seat_grant(uint8_t seat);
std::optional<uint8_t> granted_seat(const netcode::UserData& user_data);

}  // namespace tickwire::lockstep
