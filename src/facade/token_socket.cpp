// open_token_socket: the token's first server decides the family and scope.
#include "token_socket.h"

#include "tickwire/transport/connect_token.h"
#include "tickwire/transport/udp_socket.h"

namespace tickwire {

std::optional<std::string> open_token_socket(std::span<const uint8_t> token, std::optional<Address> first_server,
                                             std::unique_ptr<DatagramSocket>& out) {
  if (!first_server) {
    netcode::ConnectToken read;
    if (netcode::read_connect_token(token, read).ok() && !read.server_addresses.empty()) first_server = read.server_addresses[0];
  }
  const bool ipv6 = first_server && first_server->family() == Address::Family::ipv6;
  const bool loopback = !first_server || first_server->is_loopback();
  const char* bind = ipv6 ? (loopback ? "[::1]:0" : "[::]:0") : (loopback ? "127.0.0.1:0" : "0.0.0.0:0");
  UdpOpenResult opened = UdpSocket::open(*Address::parse(bind));
  if (!opened) return opened.message;
  out = std::move(opened.socket);
  return std::nullopt;
}

}  // namespace tickwire
