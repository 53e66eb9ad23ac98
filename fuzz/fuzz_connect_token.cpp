// libFuzzer target: connect-token decoding. The input is read as a public token (2048 bytes), as
// a sealed private token (which fails the MAC), and - sealed first under a fixed key so mutations
// get past the MAC - as private-token plaintext through decryption and the strict reader.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "tickwire/transport/connect_token.h"

using namespace tickwire::netcode;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  static const Key key = [] {
    Key k{};
    for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<uint8_t>(200 - i);
    return k;
  }();
  ConnectToken token;
  (void)read_connect_token(bytes, token);

  SealedPrivateToken sealed{};
  std::copy_n(bytes.begin(), std::min(bytes.size(), sealed.size()), sealed.begin());
  const TokenNonce nonce{};
  ConnectTokenPrivate secret;
  (void)open_private_token(sealed, kDefaultProtocolId, 1, nonce, key, secret);

  // Authentic plaintext: seal the fuzzer's first 1008 bytes, then open and read them.
  const std::size_t plain_bytes = kConnectTokenPrivateBytes - kMacBytes;
  SealedPrivateToken authentic{};
  std::copy_n(bytes.begin(), std::min(bytes.size(), plain_bytes), authentic.begin());
  const auto ad = private_token_additional_data(kDefaultProtocolId, 1);
  if (!xaead_encrypt(authentic, std::span<const uint8_t>(authentic.data(), plain_bytes), ad, nonce, key)) return 0;
  (void)open_private_token(authentic, kDefaultProtocolId, 1, nonce, key, secret);
  return 0;
}
