// libFuzzer target: the server's pre-authentication reading of any datagram. A prefix of 0 goes
// through the connection-request checks and (when they pass) private-token decryption; anything
// else through the encrypted-header checks for both sides and a decryption attempt.
#include <cstddef>
#include <cstdint>
#include <span>

#include "tickwire/transport/connect_token_private.h"
#include "tickwire/transport/netcode_packet.h"

using namespace tickwire::netcode;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  static const Key key = [] {
    Key k{};
    for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<uint8_t>(i * 5 + 1);
    return k;
  }();
  if (!bytes.empty() && bytes[0] == 0) {
    ConnectionRequest request;
    if (read_connection_request(bytes, kDefaultProtocolId, 0, request) == Reject::ok) {
      ConnectTokenPrivate token;
      (void)open_private_token(request.private_data, request.protocol_id, request.expire_timestamp, request.nonce, key,
                               token);
    }
    return 0;
  }
  for (const PacketTypeSet& allowed : {kServerAccepts, kClientAccepts}) {
    EncryptedHeader header;
    if (read_encrypted_header(bytes, allowed, header) != Reject::ok) continue;
    ReplayProtection replay;
    DecodedPacket packet;
    (void)open_encrypted_packet(bytes, header, kDefaultProtocolId, key, &replay, packet);
  }
  return 0;
}
