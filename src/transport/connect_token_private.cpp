// Plaintext layout and sealing of the private connect token: client id, timeout, addresses, the
// two session keys, user data, zero padded to 1008 bytes, then XChaCha20-Poly1305 with the
// version/protocol/expiry as additional data so none of them can be altered in a request.
#include "tickwire/transport/connect_token_private.h"

#include <cstring>

#include "tickwire/core/assert.h"
#include "tickwire/core/bytes.h"

namespace tickwire::netcode {
namespace {
constexpr std::size_t kPlainBytes = kConnectTokenPrivateBytes - kMacBytes;
}

PrivateTokenAdditionalData private_token_additional_data(uint64_t protocol_id, uint64_t expire_timestamp) {
  PrivateTokenAdditionalData ad{};
  std::memcpy(ad.data(), kVersionInfo.data(), kVersionInfoBytes);
  store_le<uint64_t>(ad.data() + kVersionInfoBytes, protocol_id);
  store_le<uint64_t>(ad.data() + kVersionInfoBytes + 8, expire_timestamp);
  return ad;
}

void write_private_token_plain(const ConnectTokenPrivate& token, std::span<uint8_t> out) {
  TW_ASSERT(out.size() >= kPlainBytes, "private token buffer too small");
  ByteWriter w(out.first(kPlainBytes));
  w.u64(token.client_id);
  w.u32(static_cast<uint32_t>(token.timeout_seconds));
  token.server_addresses.write(w);
  w.bytes(token.client_to_server_key);
  w.bytes(token.server_to_client_key);
  w.bytes(token.user_data);
  w.pad_to(kPlainBytes);
  TW_ASSERT(w.ok(), "private token layout overflowed 1008 bytes");
}

bool read_private_token_plain(std::span<const uint8_t> in, ConnectTokenPrivate& out) {
  if (in.size() < kPlainBytes) return false;
  ByteReader r(in.first(kPlainBytes));
  out.client_id = r.u64();
  out.timeout_seconds = static_cast<int32_t>(r.u32());
  if (!out.server_addresses.read(r)) return false;
  r.bytes(out.client_to_server_key);
  r.bytes(out.server_to_client_key);
  r.bytes(out.user_data);
  return r.ok();
}

void seal_private_token(const ConnectTokenPrivate& token, uint64_t protocol_id, uint64_t expire_timestamp,
                        const TokenNonce& nonce, const Key& private_key, SealedPrivateToken& out) {
  write_private_token_plain(token, out);
  const auto ad = private_token_additional_data(protocol_id, expire_timestamp);
  const bool sealed = xaead_encrypt(out, std::span<const uint8_t>(out.data(), kPlainBytes), ad, nonce, private_key);
  TW_ASSERT(sealed, "sealing a private token cannot fail with a full-size buffer");
}

Reject open_private_token(std::span<const uint8_t, kConnectTokenPrivateBytes> sealed, uint64_t protocol_id,
                          uint64_t expire_timestamp, const TokenNonce& nonce, const Key& private_key,
                          ConnectTokenPrivate& out) {
  std::array<uint8_t, kPlainBytes> plain;
  const auto ad = private_token_additional_data(protocol_id, expire_timestamp);
  if (!xaead_decrypt(plain, sealed, ad, nonce, private_key)) return Reject::request_token_decrypt_failed;
  const bool read = read_private_token_plain(plain, out);
  wipe(plain);
  return read ? Reject::ok : Reject::request_token_malformed;
}

Mac sealed_token_mac(std::span<const uint8_t, kConnectTokenPrivateBytes> sealed) {
  Mac mac;
  std::memcpy(mac.data(), sealed.data() + kPlainBytes, kMacBytes);
  return mac;
}

}  // namespace tickwire::netcode
