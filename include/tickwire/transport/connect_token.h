// The connect token a backend hands a client over HTTPS: public fields the client reads (server
// addresses, session keys, timeout, timestamps) around the sealed private part it cannot read.
// Also minting: generate_connect_token is what `tickwire token` and a game backend call.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "tickwire/clock/time.h"
#include "tickwire/core/status.h"
#include "tickwire/transport/connect_token_private.h"

namespace tickwire::netcode {

using ConnectTokenBytes = std::array<uint8_t, kConnectTokenBytes>;

struct ConnectToken {
  uint64_t protocol_id = 0;
  uint64_t create_timestamp = 0;  // Unix seconds
  uint64_t expire_timestamp = 0;  // Unix seconds
  TokenNonce nonce{};
  SealedPrivateToken private_data{};
  int32_t timeout_seconds = 0;
  ServerAddressList server_addresses;
  Key client_to_server_key{};
  Key server_to_client_key{};
};

// 2048 bytes, zero padded.
void write_connect_token(const ConnectToken& token, ConnectTokenBytes& out);
// Strict: exactly 2048 bytes, version "NETCODE 1.02", 1..32 addresses of type 1 or 2.
// Error::truncated / trailing_bytes for a wrong size, value_out_of_range for anything else.
Status read_connect_token(std::span<const uint8_t> in, ConnectToken& out);

struct ConnectTokenParams {
  uint64_t protocol_id = kDefaultProtocolId;
  uint64_t client_id = 0;
  ServerAddressList server_addresses;
  int32_t timeout_seconds = 5;
  uint64_t expire_seconds = 30;
  UserData user_data{};
};

// Mints a token: fresh random session keys and nonce, create = now, expire = now + expire_seconds.
// Error::count_under_min when there is no server address.
Result<ConnectToken> generate_connect_token(const ConnectTokenParams& params, const Key& private_key, WallTime now);

// Whole Unix seconds of a wall time (the unit of every netcode timestamp).
uint64_t unix_seconds(WallTime t);

}  // namespace tickwire::netcode
