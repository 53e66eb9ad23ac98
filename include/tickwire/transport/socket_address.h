// The one place an Address becomes a sockaddr and back: the UDP socket and the operator's TCP
// listener both bind through it, so IPv4 mapping and byte order are decided once.
#pragma once

#include <sys/socket.h>

#include "tickwire/transport/address.h"

namespace tickwire {

// Fills `out` for a socket of `socket_family` (AF_INET or AF_INET6): an IPv4 address is mapped for
// an AF_INET6 socket, an IPv4-mapped one unmapped for an AF_INET socket. False when the address
// cannot be expressed in that family.
bool to_sockaddr(const Address& address, int socket_family, sockaddr_storage& out, socklen_t& length);
// The address in `in` (AF_INET or AF_INET6); an invalid Address for any other family.
Address from_sockaddr(const sockaddr_storage& in);

}  // namespace tickwire
