// libFuzzer target: challenge-token decoding, both as a sealed token from the wire (fails the
// MAC unless genuine) and as authentic plaintext sealed first under a fixed key.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "tickwire/transport/challenge_token.h"

using namespace tickwire::netcode;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  static const Key key = [] {
    Key k{};
    for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<uint8_t>(i * 3 + 7);
    return k;
  }();
  const uint64_t sequence = size;
  SealedChallengeToken sealed{};
  std::copy_n(data, std::min(size, sealed.size()), sealed.begin());
  ChallengeToken token;
  (void)open_challenge_token(sealed, sequence, key, token);

  const std::size_t plain_bytes = kChallengeTokenBytes - kMacBytes;
  SealedChallengeToken authentic{};
  std::copy_n(data, std::min(size, plain_bytes), authentic.begin());
  if (!aead_encrypt(authentic, std::span<const uint8_t>(authentic.data(), plain_bytes), {}, sequence, key)) return 0;
  if (!open_challenge_token(authentic, sequence, key, token)) __builtin_trap();  // authentic must open
  return 0;
}
