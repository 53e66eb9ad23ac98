// The per-packet AEAD's two implementations behind netcode::aead_encrypt/aead_decrypt: OpenSSL's EVP
// ChaCha20-Poly1305, faster from 128 bytes, and libsodium's, faster below (OpenSSL's per-call cost and
// 4-block SIMD path weigh on short messages; docs/security.md has the figures). Same bytes either way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "tickwire/transport/netcode_crypto.h"

namespace tickwire::netcode {

// by_size (the default): libsodium for messages shorter than kOpensslAeadFromBytes, OpenSSL from there.
enum class PacketAead : uint8_t { by_size, openssl, libsodium };
// Measured crossover (bench/netcode_udp_bench, BM_AeadOnly sweep): below it libsodium seals and opens
// 16-100 byte messages 15-20% faster; from it OpenSSL is ahead (about 1.3-1.5x at 1,200 bytes).
inline constexpr std::size_t kOpensslAeadFromBytes = 128;

// Which implementation aead_encrypt/aead_decrypt use, process-wide (a relaxed atomic read per
// packet). For benches and diagnostics: all give identical bytes, so switching is never a protocol
// change, but switch before any connection exists to measure one implementation alone.
void select_packet_aead(PacketAead aead);
PacketAead selected_packet_aead();

// True when writing `out` cannot clobber `in` before it is read: no overlap, or in place exactly.
inline bool aead_spans_may_alias(std::span<const uint8_t> out, std::span<const uint8_t> in) {
  const auto out_begin = reinterpret_cast<std::uintptr_t>(out.data());
  const auto in_begin = reinterpret_cast<std::uintptr_t>(in.data());
  return out.empty() || in.empty() || out_begin == in_begin || out_begin >= in_begin + in.size() ||
         in_begin >= out_begin + out.size();
}

// The two implementations, with aead_encrypt/aead_decrypt's contract (netcode_crypto.h): out may
// alias the input only exactly (same first byte), never partially (an assertion, and false). When
// the MAC does not verify neither leaves unauthenticated plaintext in out (OpenSSL's is wiped).
bool openssl_aead_encrypt(std::span<uint8_t> out, std::span<const uint8_t> message,
                          std::span<const uint8_t> additional, const PacketNonce& nonce, const Key& key);
[[nodiscard]] bool openssl_aead_decrypt(std::span<uint8_t> out, std::span<const uint8_t> ciphertext_with_mac,
                                        std::span<const uint8_t> additional, const PacketNonce& nonce,
                                        const Key& key);
bool sodium_aead_encrypt(std::span<uint8_t> out, std::span<const uint8_t> message,
                         std::span<const uint8_t> additional, const PacketNonce& nonce, const Key& key);
[[nodiscard]] bool sodium_aead_decrypt(std::span<uint8_t> out, std::span<const uint8_t> ciphertext_with_mac,
                                       std::span<const uint8_t> additional, const PacketNonce& nonce,
                                       const Key& key);

}  // namespace tickwire::netcode
