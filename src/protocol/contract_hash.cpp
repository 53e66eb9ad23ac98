// BLAKE2b-128 through libsodium, and the hash's byte/hex forms.
#include "tickwire/protocol/contract_hash.h"

#include <sodium.h>

#include <algorithm>

#include "tickwire/core/assert.h"
#include "tickwire/core/hex.h"

namespace tickwire {

static_assert(ContractHash::kBytes >= crypto_generichash_BYTES_MIN && ContractHash::kBytes <= crypto_generichash_BYTES_MAX);

ContractHash ContractHash::of(std::string_view text) {
  [[maybe_unused]] static const int sodium_ready = sodium_init();
  std::array<uint8_t, kBytes> digest{};
  const int rc = crypto_generichash(digest.data(), digest.size(), reinterpret_cast<const unsigned char*>(text.data()),
                                    text.size(), nullptr, 0);
  TW_ASSERT(rc == 0, "crypto_generichash failed");
  return ContractHash(digest);
}

std::optional<ContractHash> ContractHash::from_span(std::span<const uint8_t> bytes) {
  if (bytes.size() != kBytes) return std::nullopt;
  std::array<uint8_t, kBytes> copy{};
  std::copy(bytes.begin(), bytes.end(), copy.begin());
  return ContractHash(copy);
}

std::optional<ContractHash> ContractHash::from_hex(std::string_view hex) {
  const auto bytes = tickwire::from_hex(hex);
  if (!bytes) return std::nullopt;
  return from_span(*bytes);
}

std::string ContractHash::hex() const { return to_hex(bytes_); }

bool ContractHash::is_zero() const {
  return std::all_of(bytes_.begin(), bytes_.end(), [](uint8_t b) { return b == 0; });
}

}  // namespace tickwire
