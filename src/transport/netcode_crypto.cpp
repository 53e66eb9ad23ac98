// libsodium behind the netcode crypto seam: the AEAD calls with the standard's nonce layouts,
// plus randomness for keys and nonces. Nothing else in tickwire calls libsodium's AEAD directly.
#include "tickwire/transport/netcode_crypto.h"

#include <sodium.h>

#include "tickwire/core/assert.h"
#include "tickwire/core/bytes.h"

namespace tickwire::netcode {

void ensure_crypto_ready() {
  static const bool ready = sodium_init() >= 0;
  TW_ASSERT(ready, "libsodium failed to initialise");
}

void random_bytes(std::span<uint8_t> out) {
  ensure_crypto_ready();
  randombytes_buf(out.data(), out.size());
}

Key random_key() {
  Key key;
  random_bytes(key);
  return key;
}

uint64_t random_u64() {
  std::array<uint8_t, 8> bytes;
  random_bytes(bytes);
  return load_le<uint64_t>(bytes.data());
}

PacketNonce sequence_nonce(uint64_t sequence) {
  PacketNonce nonce{};
  store_le<uint64_t>(nonce.data() + 4, sequence);
  return nonce;
}

bool aead_encrypt(std::span<uint8_t> out, std::span<const uint8_t> message, std::span<const uint8_t> additional,
                  uint64_t sequence, const Key& key) {
  ensure_crypto_ready();
  if (out.size() < message.size() + kMacBytes) return false;
  const PacketNonce nonce = sequence_nonce(sequence);
  unsigned long long written = 0;
  crypto_aead_chacha20poly1305_ietf_encrypt(out.data(), &written, message.data(), message.size(),
                                            additional.data(), additional.size(), nullptr, nonce.data(),
                                            key.data());
  return written == message.size() + kMacBytes;
}

bool aead_decrypt(std::span<uint8_t> out, std::span<const uint8_t> ciphertext_with_mac,
                  std::span<const uint8_t> additional, uint64_t sequence, const Key& key) {
  ensure_crypto_ready();
  if (ciphertext_with_mac.size() < kMacBytes || out.size() < ciphertext_with_mac.size() - kMacBytes) return false;
  const PacketNonce nonce = sequence_nonce(sequence);
  unsigned long long written = 0;
  return crypto_aead_chacha20poly1305_ietf_decrypt(out.data(), &written, nullptr, ciphertext_with_mac.data(),
                                                   ciphertext_with_mac.size(), additional.data(),
                                                   additional.size(), nonce.data(), key.data()) == 0;
}

bool xaead_encrypt(std::span<uint8_t> out, std::span<const uint8_t> message, std::span<const uint8_t> additional,
                   const TokenNonce& nonce, const Key& key) {
  ensure_crypto_ready();
  if (out.size() < message.size() + kMacBytes) return false;
  unsigned long long written = 0;
  crypto_aead_xchacha20poly1305_ietf_encrypt(out.data(), &written, message.data(), message.size(),
                                             additional.data(), additional.size(), nullptr, nonce.data(),
                                             key.data());
  return written == message.size() + kMacBytes;
}

bool xaead_decrypt(std::span<uint8_t> out, std::span<const uint8_t> ciphertext_with_mac,
                   std::span<const uint8_t> additional, const TokenNonce& nonce, const Key& key) {
  ensure_crypto_ready();
  if (ciphertext_with_mac.size() < kMacBytes || out.size() < ciphertext_with_mac.size() - kMacBytes) return false;
  unsigned long long written = 0;
  return crypto_aead_xchacha20poly1305_ietf_decrypt(out.data(), &written, nullptr, ciphertext_with_mac.data(),
                                                    ciphertext_with_mac.size(), additional.data(),
                                                    additional.size(), nonce.data(), key.data()) == 0;
}

bool bytes_equal_ct(std::span<const uint8_t> a, std::span<const uint8_t> b) {
  ensure_crypto_ready();
  return a.size() == b.size() && (a.empty() || sodium_memcmp(a.data(), b.data(), a.size()) == 0);
}

void wipe(std::span<uint8_t> secret) { sodium_memzero(secret.data(), secret.size()); }

}  // namespace tickwire::netcode
