// libFuzzer target: resume tokens. The input is checked as a token (it fails the MAC), then signed
// under the fixed key first so mutations get past the MAC into the reader: every claim a token that
// verifies makes must be within its bounds (names within kMaxResumeNameBytes, the room the one it
// was presented to).
#include <sodium.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <variant>
#include <vector>

#include "tickwire/durable/resume_token.h"

using namespace tickwire;
using namespace tickwire::durable;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  static const ResumeKey key = [] {
    ResumeKey k{};
    for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<uint8_t>(90 + i);
    return k;
  }();
  const ResumeTokens tokens(key);
  const std::span<const uint8_t> bytes(data, size);
  const WallTime now = WallTime::from_ns(1'700'000'000'000'000'000);
  (void)tokens.check(bytes, "room.a", now);

  // Authentic: the fuzzer's bytes as the signed part, the MAC appended under the key.
  if (size > kMaxResumeTokenBytes - kResumeMacBytes) return 0;
  std::vector<uint8_t> signed_token(bytes.begin(), bytes.end());
  signed_token.resize(size + kResumeMacBytes);
  if (sodium_init() < 0) return 0;
  crypto_auth(signed_token.data() + size, data, size, key.data());
  const auto checked = tokens.check(signed_token, "room.a", now);
  if (const auto* claims = std::get_if<ResumeClaims>(&checked)) {
    if (claims->room != "room.a" || claims->player.size() > kMaxResumeNameBytes || !(now < claims->expires_at) ||
        now < claims->issued_at)
      std::abort();
  }
  return 0;
}
