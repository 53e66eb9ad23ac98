// The netcode crypto seam: libsodium for tokens (XChaCha20-Poly1305), randomness, comparisons and
// wiping; the per-packet ChaCha20-Poly1305 dispatched by size to OpenSSL (packet_aead_openssl.cpp) or
// to libsodium's here, with the standard's nonce layout. Nothing else in tickwire calls an AEAD directly.
#include "tickwire/transport/netcode_crypto.h"

#include <sodium.h>

#include <algorithm>
#include <atomic>

#include "tickwire/core/assert.h"
#include "tickwire/core/bytes.h"
#include "tickwire/transport/packet_aead.h"

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

namespace {
std::atomic<PacketAead> g_packet_aead{PacketAead::by_size};

bool openssl_for(std::size_t message_bytes) {
  const PacketAead aead = g_packet_aead.load(std::memory_order_relaxed);
  return aead == PacketAead::openssl || (aead == PacketAead::by_size && message_bytes >= kOpensslAeadFromBytes);
}
}  // namespace

void select_packet_aead(PacketAead aead) { g_packet_aead.store(aead, std::memory_order_relaxed); }
PacketAead selected_packet_aead() { return g_packet_aead.load(std::memory_order_relaxed); }

bool aead_encrypt(std::span<uint8_t> out, std::span<const uint8_t> message, std::span<const uint8_t> additional,
                  uint64_t sequence, const Key& key) {
  const PacketNonce nonce = sequence_nonce(sequence);
  return openssl_for(message.size()) ? openssl_aead_encrypt(out, message, additional, nonce, key)
                                     : sodium_aead_encrypt(out, message, additional, nonce, key);
}

bool aead_decrypt(std::span<uint8_t> out, std::span<const uint8_t> ciphertext_with_mac,
                  std::span<const uint8_t> additional, uint64_t sequence, const Key& key) {
  const PacketNonce nonce = sequence_nonce(sequence);
  const std::size_t message_bytes = ciphertext_with_mac.size() - std::min(ciphertext_with_mac.size(), kMacBytes);
  return openssl_for(message_bytes) ? openssl_aead_decrypt(out, ciphertext_with_mac, additional, nonce, key)
                                    : sodium_aead_decrypt(out, ciphertext_with_mac, additional, nonce, key);
}

bool sodium_aead_encrypt(std::span<uint8_t> out, std::span<const uint8_t> message, std::span<const uint8_t> additional,
                         const PacketNonce& nonce, const Key& key) {
  ensure_crypto_ready();
  if (message.size() > crypto_aead_chacha20poly1305_ietf_MESSAGEBYTES_MAX) return false;
  if (out.size() < message.size() + kMacBytes) return false;
  TW_ASSERT(aead_spans_may_alias(out, message), "AEAD output overlaps its input partially");
  if (!aead_spans_may_alias(out, message)) return false;
  unsigned long long written = 0;
  crypto_aead_chacha20poly1305_ietf_encrypt(out.data(), &written, message.data(), message.size(),
                                            additional.data(), additional.size(), nullptr, nonce.data(),
                                            key.data());
  return written == message.size() + kMacBytes;
}

bool sodium_aead_decrypt(std::span<uint8_t> out, std::span<const uint8_t> ciphertext_with_mac,
                         std::span<const uint8_t> additional, const PacketNonce& nonce, const Key& key) {
  ensure_crypto_ready();
  if (ciphertext_with_mac.size() < kMacBytes || out.size() < ciphertext_with_mac.size() - kMacBytes) return false;
  TW_ASSERT(aead_spans_may_alias(out, ciphertext_with_mac), "AEAD output overlaps its input partially");
  if (!aead_spans_may_alias(out, ciphertext_with_mac)) return false;
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
