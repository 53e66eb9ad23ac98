// Challenge token sealing: ChaCha20-Poly1305 IETF, no additional data, nonce from the server's
// challenge sequence, under the server's per-start random challenge key.
#include "tickwire/transport/challenge_token.h"

#include "tickwire/core/assert.h"

namespace tickwire::netcode {
namespace {
constexpr std::size_t kPlainBytes = kChallengeTokenBytes - kMacBytes;
}

void seal_challenge_token(const ChallengeToken& token, uint64_t sequence, const Key& challenge_key,
                          SealedChallengeToken& out) {
  ByteWriter w(std::span<uint8_t>(out.data(), kPlainBytes));
  w.u64(token.client_id);
  w.bytes(token.user_data);
  w.pad_to(kPlainBytes);
  TW_ASSERT(w.ok(), "challenge token layout overflowed");
  const bool sealed =
      aead_encrypt(out, std::span<const uint8_t>(out.data(), kPlainBytes), {}, sequence, challenge_key);
  TW_ASSERT(sealed, "sealing a challenge token cannot fail with a full-size buffer");
}

bool open_challenge_token(std::span<const uint8_t, kChallengeTokenBytes> sealed, uint64_t sequence,
                          const Key& challenge_key, ChallengeToken& out) {
  std::array<uint8_t, kPlainBytes> plain;
  if (!aead_decrypt(plain, sealed, {}, sequence, challenge_key)) return false;
  ByteReader r(plain);
  out.client_id = r.u64();
  r.bytes(out.user_data);
  return r.ok();
}

}  // namespace tickwire::netcode
