// Address <-> sockaddr, for every socket the library opens (transport/socket_address.h).
#include "tickwire/transport/socket_address.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <array>
#include <cstring>

namespace tickwire {

bool to_sockaddr(const Address& address, int socket_family, sockaddr_storage& out, socklen_t& length) {
  std::memset(&out, 0, sizeof out);
  if (socket_family == AF_INET6) {
    if (!address.valid()) return false;
    const Address v6 = Address::ipv4_mapped(address);
    auto* sin6 = reinterpret_cast<sockaddr_in6*>(&out);
    sin6->sin6_family = AF_INET6;
    sin6->sin6_port = htons(v6.port());
    std::memcpy(&sin6->sin6_addr, v6.bytes().data(), 16);
    length = sizeof(sockaddr_in6);
    return true;
  }
  const auto v4 = address.family() == Address::Family::ipv4 ? std::optional<Address>(address) : address.unmapped_ipv4();
  if (!v4) return false;
  auto* sin = reinterpret_cast<sockaddr_in*>(&out);
  sin->sin_family = AF_INET;
  sin->sin_port = htons(v4->port());
  std::memcpy(&sin->sin_addr, v4->bytes().data(), 4);
  length = sizeof(sockaddr_in);
  return true;
}

Address from_sockaddr(const sockaddr_storage& in) {
  if (in.ss_family == AF_INET) {
    const auto* sin = reinterpret_cast<const sockaddr_in*>(&in);
    const auto* b = reinterpret_cast<const uint8_t*>(&sin->sin_addr);
    return Address::ipv4(b[0], b[1], b[2], b[3], ntohs(sin->sin_port));
  }
  if (in.ss_family == AF_INET6) {
    const auto* sin6 = reinterpret_cast<const sockaddr_in6*>(&in);
    std::array<uint8_t, 16> bytes{};
    std::memcpy(bytes.data(), &sin6->sin6_addr, 16);
    return Address::ipv6_from_bytes(bytes, ntohs(sin6->sin6_port));
  }
  return Address{};
}

}  // namespace tickwire
