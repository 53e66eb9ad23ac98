// Public connect token layout (2048 bytes) and minting. The client reads the public copy of the
// keys and addresses; the server only ever sees the sealed private part, inside requests.
#include "tickwire/transport/connect_token.h"

#include <algorithm>

#include "tickwire/core/assert.h"

namespace tickwire::netcode {

uint64_t unix_seconds(WallTime t) { return t.ns() <= 0 ? 0 : static_cast<uint64_t>(t.ns() / 1000000000); }

void write_connect_token(const ConnectToken& token, ConnectTokenBytes& out) {
  ByteWriter w(out);
  w.bytes(kVersionInfo);
  w.u64(token.protocol_id);
  w.u64(token.create_timestamp);
  w.u64(token.expire_timestamp);
  w.bytes(token.nonce);
  w.bytes(token.private_data);
  w.u32(static_cast<uint32_t>(token.timeout_seconds));
  token.server_addresses.write(w);
  w.bytes(token.client_to_server_key);
  w.bytes(token.server_to_client_key);
  w.pad_to(kConnectTokenBytes);
  TW_ASSERT(w.ok(), "connect token layout overflowed 2048 bytes");
}

Status read_connect_token(std::span<const uint8_t> in, ConnectToken& out) {
  if (in.size() < kConnectTokenBytes) return Error::truncated;
  if (in.size() > kConnectTokenBytes) return Error::trailing_bytes;
  ByteReader r(in);
  std::array<uint8_t, kVersionInfoBytes> version{};
  r.bytes(version);
  if (version != kVersionInfo) return Error::value_out_of_range;
  out.protocol_id = r.u64();
  out.create_timestamp = r.u64();
  out.expire_timestamp = r.u64();
  r.bytes(out.nonce);
  r.bytes(out.private_data);
  out.timeout_seconds = static_cast<int32_t>(r.u32());
  if (!out.server_addresses.read(r)) return Error::value_out_of_range;
  r.bytes(out.client_to_server_key);
  r.bytes(out.server_to_client_key);
  return r.ok() ? Status{} : Status{Error::truncated};
}

Result<ConnectToken> generate_connect_token(const ConnectTokenParams& params, const Key& private_key, WallTime now) {
  if (params.server_addresses.empty()) return Error::count_under_min;
  ConnectToken token;
  token.protocol_id = params.protocol_id;
  token.create_timestamp = unix_seconds(now);
  token.expire_timestamp = token.create_timestamp + params.expire_seconds;
  token.timeout_seconds = params.timeout_seconds;
  token.server_addresses = params.server_addresses;
  random_bytes(token.nonce);
  token.client_to_server_key = random_key();
  token.server_to_client_key = random_key();

  ConnectTokenPrivate secret;
  secret.client_id = params.client_id;
  secret.timeout_seconds = params.timeout_seconds;
  secret.server_addresses = params.server_addresses;
  secret.client_to_server_key = token.client_to_server_key;
  secret.server_to_client_key = token.server_to_client_key;
  secret.user_data = params.user_data;
  seal_private_token(secret, token.protocol_id, token.expire_timestamp, token.nonce, private_key, token.private_data);
  wipe(secret.client_to_server_key);
  wipe(secret.server_to_client_key);
  return token;
}

}  // namespace tickwire::netcode
