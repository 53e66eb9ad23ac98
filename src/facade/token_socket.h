// The socket a facade client opens for its connect token: on the loopback or any address of the
// family of the first server it will reach (the token's first, or a development address), so the
// same code serves Client and DeterministicPeer.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "tickwire/transport/address.h"
#include "tickwire/transport/datagram_socket.h"

namespace tickwire {

// The socket, or why it could not be opened. `first_server` overrides the token's first address.
std::optional<std::string> open_token_socket(std::span<const uint8_t> token, std::optional<Address> first_server,
                                             std::unique_ptr<DatagramSocket>& out);

}  // namespace tickwire
