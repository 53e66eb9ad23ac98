// The seven netcode 1.02 packets on the wire. The connection request is the one plaintext packet;
// every other type is [prefix][sequence, 1-8 bytes, low byte first][ChaCha20-Poly1305 IETF body]
// [MAC], with version info + protocol id + prefix byte as additional data. Readers follow the
// standard's steps in order, never read past the datagram, and name the reason when they refuse.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>

#include "tickwire/transport/challenge_token.h"
#include "tickwire/transport/connect_token_private.h"
#include "tickwire/transport/netcode_reject.h"
#include "tickwire/transport/replay_protection.h"

namespace tickwire::netcode {

enum class PacketType : uint8_t {
  connection_request = 0,
  connection_denied = 1,
  connection_challenge = 2,
  connection_response = 3,
  keep_alive = 4,
  payload = 5,
  disconnect = 6,
};
inline constexpr uint8_t kPacketTypeCount = 7;

class PacketTypeSet {
 public:
  constexpr PacketTypeSet(std::initializer_list<PacketType> types) {
    for (PacketType t : types) bits_ = static_cast<uint8_t>(bits_ | (1u << static_cast<unsigned>(t)));
  }
  constexpr bool contains(PacketType t) const { return (bits_ >> static_cast<unsigned>(t)) & 1u; }

 private:
  uint8_t bits_ = 0;
};
// The standard: the server ignores challenge packets (and never expects denied); the client
// ignores request and response packets.
inline constexpr PacketTypeSet kServerAccepts{PacketType::connection_request, PacketType::connection_response,
                                              PacketType::keep_alive, PacketType::payload, PacketType::disconnect};
inline constexpr PacketTypeSet kClientAccepts{PacketType::connection_denied, PacketType::connection_challenge,
                                              PacketType::keep_alive, PacketType::payload, PacketType::disconnect};

constexpr bool is_replay_protected(PacketType t) {
  return t == PacketType::keep_alive || t == PacketType::payload || t == PacketType::disconnect;
}

// ---- connection request (plaintext) ----
struct ConnectionRequest {
  uint64_t protocol_id = 0;
  uint64_t expire_timestamp = 0;
  TokenNonce nonce{};
  SealedPrivateToken private_data{};
};
// Writes the 1078-byte request; returns 0 when out is too small.
std::size_t write_connection_request(const ConnectionRequest& request, std::span<uint8_t> out);
// The standard's first four request checks, in order (size, version, protocol id, expiry against
// now_unix); the private token is left sealed. Returns Reject::ok or the request_* reason.
Reject read_connection_request(std::span<const uint8_t> packet, uint64_t protocol_id, uint64_t now_unix,
                               ConnectionRequest& out);

// ---- encrypted packets ----
struct ChallengeBody {  // connection challenge and connection response
  uint64_t token_sequence = 0;
  SealedChallengeToken token{};
};
struct KeepAliveBody {
  uint32_t client_index = 0;
  uint32_t max_clients = 0;
};

// Bytes the sequence needs with high zero bytes omitted, in [1, 8].
uint8_t sequence_bytes_needed(uint64_t sequence);
constexpr uint8_t make_prefix(PacketType type, uint8_t sequence_bytes) {
  return static_cast<uint8_t>((sequence_bytes << 4) | static_cast<uint8_t>(type));
}
// The AEAD additional data: version info, protocol id, prefix byte.
using PacketAdditionalData = std::array<uint8_t, kVersionInfoBytes + 8 + 1>;
PacketAdditionalData packet_additional_data(uint64_t protocol_id, uint8_t prefix);

// Writes [prefix][sequence][encrypted body][MAC] into out; returns the size, or 0 when out is too
// small or the type is the (plaintext) connection request.
std::size_t write_encrypted_packet(PacketType type, uint64_t sequence, std::span<const uint8_t> body,
                                   uint64_t protocol_id, const Key& key, std::span<uint8_t> out);
std::size_t write_challenge_packet(PacketType type, const ChallengeBody& body, uint64_t sequence,
                                   uint64_t protocol_id, const Key& key, std::span<uint8_t> out);
std::size_t write_keep_alive_packet(const KeepAliveBody& body, uint64_t sequence, uint64_t protocol_id,
                                    const Key& key, std::span<uint8_t> out);

// What the header says before anything is decrypted.
struct EncryptedHeader {
  PacketType type = PacketType::connection_denied;
  uint64_t sequence = 0;
  std::size_t header_bytes = 0;      // prefix + sequence bytes
  std::size_t ciphertext_bytes = 0;  // body bytes, MAC excluded
};
// The standard's pre-decryption steps in order: minimum size, type < 7, type allowed for this side,
// sequence bytes in [1, 8], room for the MAC, body size right for the type.
Reject read_encrypted_header(std::span<const uint8_t> packet, PacketTypeSet allowed, EncryptedHeader& out);

struct DecodedPacket {
  PacketType type = PacketType::connection_denied;
  uint64_t sequence = 0;
  ChallengeBody challenge;    // connection challenge / response
  KeepAliveBody keep_alive;   // keep-alive
  std::size_t payload_bytes = 0;
  std::array<uint8_t, kMaxPayloadBytes> payload{};
};
// The remaining steps: replay check (replay-protected types, when `replay` is given), decryption,
// body decode, then the replay window advances. `packet` is the whole datagram.
Reject open_encrypted_packet(std::span<const uint8_t> packet, const EncryptedHeader& header, uint64_t protocol_id,
                             const Key& key, ReplayProtection* replay, DecodedPacket& out);

}  // namespace tickwire::netcode
