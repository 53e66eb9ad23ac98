// The three primitives the netcode 1.02 standard names, behind one small seam: XChaCha20-Poly1305 for
// the private connect token and key/nonce randomness (libsodium), ChaCha20-Poly1305 IETF for packets and
// challenge tokens (OpenSSL or libsodium; nonce = four zero bytes then the 64-bit sequence, little-endian).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "tickwire/transport/netcode_constants.h"

namespace tickwire::netcode {

using Key = std::array<uint8_t, kKeyBytes>;
using Mac = std::array<uint8_t, kMacBytes>;
using TokenNonce = std::array<uint8_t, kConnectTokenNonceBytes>;
using PacketNonce = std::array<uint8_t, kPacketNonceBytes>;

// Initialises libsodium once per process (idempotent, thread-safe); each libsodium call below makes it.
void ensure_crypto_ready();

// Cryptographic randomness (libsodium), for keys and nonces only: never for simulation decisions.
void random_bytes(std::span<uint8_t> out);
Key random_key();
uint64_t random_u64();

// [0 0 0 0][sequence as uint64 little-endian]: the standard's 96-bit nonce for packets and
// challenge tokens.
PacketNonce sequence_nonce(uint64_t sequence);

// ChaCha20-Poly1305 IETF (OpenSSL from 128 bytes, else libsodium: packet_aead.h). Encrypts `message` into
// out[0 .. message.size() + kMacBytes); out may alias message exactly, never partially. False: out too small.
bool aead_encrypt(std::span<uint8_t> out, std::span<const uint8_t> message, std::span<const uint8_t> additional,
                  uint64_t sequence, const Key& key);
// Decrypts ciphertext||mac into out[0 .. ciphertext.size() - kMacBytes); out may alias the input exactly.
// False when the MAC does not verify (out then holds no unverified plaintext) or a size is impossible.
[[nodiscard]] bool aead_decrypt(std::span<uint8_t> out, std::span<const uint8_t> ciphertext_with_mac,
                                std::span<const uint8_t> additional, uint64_t sequence, const Key& key);

// XChaCha20-Poly1305 IETF with a 24-byte nonce, same conventions.
bool xaead_encrypt(std::span<uint8_t> out, std::span<const uint8_t> message, std::span<const uint8_t> additional,
                   const TokenNonce& nonce, const Key& key);
[[nodiscard]] bool xaead_decrypt(std::span<uint8_t> out, std::span<const uint8_t> ciphertext_with_mac,
                                 std::span<const uint8_t> additional, const TokenNonce& nonce, const Key& key);

// Constant-time comparison for MACs and keys.
bool bytes_equal_ct(std::span<const uint8_t> a, std::span<const uint8_t> b);
// Wipes secret bytes so they do not linger in freed memory.
void wipe(std::span<uint8_t> secret);

}  // namespace tickwire::netcode
