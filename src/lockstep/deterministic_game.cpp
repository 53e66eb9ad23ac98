// The default checksum: BLAKE2b over the saved state, folded to 64 bits.
#include "tickwire/lockstep/deterministic_game.h"

#include <sodium.h>

#include <array>

#include "tickwire/core/assert.h"

namespace tickwire::lockstep {

uint64_t state_hash(std::span<const uint8_t> bytes) {
  std::array<uint8_t, 16> digest{};
  const int rc = crypto_generichash(digest.data(), digest.size(), bytes.data(), bytes.size(), nullptr, 0);
  TW_ASSERT(rc == 0, "crypto_generichash failed");
  uint64_t value = 0;
  for (std::size_t i = 0; i < 8; ++i) value |= static_cast<uint64_t>(digest[i]) << (8 * i);
  return value;
}

uint64_t DeterministicGame::checksum(std::span<const uint8_t> saved) const { return state_hash(saved); }

}  // namespace tickwire::lockstep
