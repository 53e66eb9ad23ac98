// The challenge token: client id and user data sealed by the server under a key only it knows
// (random per server start) and a per-server sequence. A client can only echo it back, which
// proves it receives packets at the address it claims.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "tickwire/transport/connect_token_private.h"

namespace tickwire::netcode {

using SealedChallengeToken = std::array<uint8_t, kChallengeTokenBytes>;

struct ChallengeToken {
  uint64_t client_id = 0;
  UserData user_data{};
};

// Layout (client id, user data, zero pad) in the first 284 bytes, sealed with ChaCha20-Poly1305
// IETF (no additional data), nonce from `sequence`; the last 16 bytes are the MAC.
void seal_challenge_token(const ChallengeToken& token, uint64_t sequence, const Key& challenge_key,
                          SealedChallengeToken& out);
// False when the MAC does not verify.
[[nodiscard]] bool open_challenge_token(std::span<const uint8_t, kChallengeTokenBytes> sealed, uint64_t sequence,
                                        const Key& challenge_key, ChallengeToken& out);

}  // namespace tickwire::netcode
