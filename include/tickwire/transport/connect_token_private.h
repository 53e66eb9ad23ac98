// The private half of a connect token: what the backend tells the dedicated server about a client
// (id, timeout, allowed server addresses, the two session keys, user data), sealed with
// XChaCha20-Poly1305 under the private key the backend and servers share. Only they can read it.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "tickwire/transport/netcode_crypto.h"
#include "tickwire/transport/netcode_reject.h"
#include "tickwire/transport/server_address_list.h"

namespace tickwire::netcode {

using SealedPrivateToken = std::array<uint8_t, kConnectTokenPrivateBytes>;
using UserData = std::array<uint8_t, kUserDataBytes>;

struct ConnectTokenPrivate {
  uint64_t client_id = 0;
  int32_t timeout_seconds = 0;  // negative: no timeout (development only)
  ServerAddressList server_addresses;
  Key client_to_server_key{};
  Key server_to_client_key{};
  UserData user_data{};
};

// The additional data that binds the sealed token to its public fields:
// version info (13) + protocol id (8) + expire timestamp (8).
using PrivateTokenAdditionalData = std::array<uint8_t, kVersionInfoBytes + 8 + 8>;
PrivateTokenAdditionalData private_token_additional_data(uint64_t protocol_id, uint64_t expire_timestamp);

// Writes the plaintext layout into the first 1008 bytes of `out` (zero padded) and seals it in
// place; the last 16 bytes become the MAC. Asserts on an address list outside [1, 32].
void seal_private_token(const ConnectTokenPrivate& token, uint64_t protocol_id, uint64_t expire_timestamp,
                        const TokenNonce& nonce, const Key& private_key, SealedPrivateToken& out);

// Opens a sealed token: Reject::request_token_decrypt_failed when the MAC (and so the version,
// protocol id or expire timestamp) does not verify, Reject::request_token_malformed when the
// plaintext does not read (address count outside [1, 32], unknown address type).
Reject open_private_token(std::span<const uint8_t, kConnectTokenPrivateBytes> sealed, uint64_t protocol_id,
                          uint64_t expire_timestamp, const TokenNonce& nonce, const Key& private_key,
                          ConnectTokenPrivate& out);

// The plaintext codec alone (for tests and the fuzz target): 1008 bytes in, strict.
void write_private_token_plain(const ConnectTokenPrivate& token, std::span<uint8_t> out);
[[nodiscard]] bool read_private_token_plain(std::span<const uint8_t> in, ConnectTokenPrivate& out);

// The MAC of a sealed token: the key of the server's "token already used" table.
Mac sealed_token_mac(std::span<const uint8_t, kConnectTokenPrivateBytes> sealed);

}  // namespace tickwire::netcode
