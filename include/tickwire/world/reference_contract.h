// The contract a room of the reference game resolves at a tick rate (snapshots at every tick): its
// vocabulary, reach and pawn (apply_reference_policy) under a room name, for the rigs, benches and
// scenarios that drive the game without a server's command line.
#pragma once

#include <cstdint>
#include <string_view>

#include "tickwire/protocol/netcode_contract.h"

namespace tickwire::world {

// `environment` names the deployment and the environment of the room's identity ("test", "bench").
NetcodeContract reference_contract(std::string_view room, uint32_t tick_rate_hz, std::string_view environment = "test");

}  // namespace tickwire::world
