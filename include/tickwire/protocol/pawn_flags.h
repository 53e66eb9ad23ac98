// The bits of a pawn's EntityFlags byte (owner detail, records) and of a forgiveness claim's
// flags, named once, with the split that matters to prediction: which a client may claim and
// which only the server sets (a claim can never assert noclip or frozen).
#pragma once

#include <cstdint>

#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/record_batch.h"

namespace tickwire::protocol {

enum PawnFlag : uint8_t {
  kPawnGrounded = 1u << 0,
  kPawnCrouched = 1u << 1,
  kPawnNoclip = 1u << 2,  // server-owned
  kPawnFrozen = 1u << 3,  // server-owned
};

inline constexpr uint8_t kPawnClaimableFlags = kPawnGrounded | kPawnCrouched;
inline constexpr uint8_t kPawnServerOwnedFlags = kPawnNoclip | kPawnFrozen;

// The claim's flag byte and the entity flag byte agree bit for bit on what a claim may carry.
static_assert(uint8_t{kPawnGrounded} == uint8_t{kClaimGrounded} && uint8_t{kPawnCrouched} == uint8_t{kClaimCrouched});
static_assert(kEntityFlagBits[0].value == 0 && kEntityFlagBits[1].value == 1 && kEntityFlagBits[2].value == 2 &&
              kEntityFlagBits[3].value == 3);

// `claimed` with only the claimable bits kept, and the server-owned ones taken from `server`.
constexpr uint8_t merge_claimed_flags(uint8_t server, uint8_t claimed) {
  return static_cast<uint8_t>((server & kPawnServerOwnedFlags) | (claimed & kPawnClaimableFlags));
}

}  // namespace tickwire::protocol
