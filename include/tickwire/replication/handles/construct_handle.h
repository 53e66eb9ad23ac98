// Handles for pure-logic constructs (seed 002, "ConstructHandle"): a game mode, an AI director, a
// player's soul: things RPCs are addressed to that are not entities (no EntityNetHandle; a
// multi-entity construct, a turret of barrel and base, still has one). Packed in 32 bits: owner 10
// (core/owner_id.h; 0 = the authority) | local index 14 | generation 8, so a handle to a destroyed
// construct is refused, never taken for whatever later occupies its index. AuthorityClass says what happens to
// a construct when authority moves (host migration) or its owner leaves.
#pragma once

#include <compare>
#include <cstdint>

#include "tickwire/core/assert.h"
#include "tickwire/core/owner_id.h"
#include "tickwire/core/reasons.h"

namespace tickwire {

class ConstructHandle {
 public:
  static constexpr uint32_t kIndexBits = 24 - kOwnerIdBits;
  static constexpr uint32_t kMaxIndex = (uint32_t{1} << kIndexBits) - 1;
  constexpr ConstructHandle() = default;  // raw 0: no construct (index 0 is never issued)
  static constexpr ConstructHandle make(OwnerId owner, uint16_t index, uint8_t generation) {
    TW_ASSERT(owner_id_in_range(owner) && index <= kMaxIndex, "construct owner or index past its bits");
    return ConstructHandle(uint32_t{owner} << (kIndexBits + 8) | uint32_t{index} << 8 | generation);
  }
  static constexpr ConstructHandle from_raw(uint32_t raw) { return ConstructHandle(raw); }
  constexpr uint32_t raw() const { return raw_; }
  constexpr OwnerId owner() const { return static_cast<OwnerId>(raw_ >> (kIndexBits + 8)); }
  constexpr uint16_t index() const { return static_cast<uint16_t>(raw_ >> 8 & kMaxIndex); }
  constexpr uint8_t generation() const { return static_cast<uint8_t>(raw_); }
  constexpr bool is_none() const { return index() == 0; }
  constexpr auto operator<=>(const ConstructHandle&) const = default;

 private:
  constexpr explicit ConstructHandle(uint32_t raw) : raw_(raw) {}
  uint32_t raw_ = 0;
};

// What happens to a construct's authority when the host moves or its owner leaves.
enum class AuthorityClass : uint8_t {
  host = 0,          // the authority's own (a game mode): moves with the authority to a new host
  owner = 1,         // its owner's (a player's soul): stays with the owner, destroyed when it leaves
  transferable = 2,  // its owner's, and handed to the authority when the owner leaves
  fixed = 3,         // bound where it was made: destroyed with its owner or its host
  count_,
};

// Why a handle did not resolve, or a construct could not be made.
TW_REASONS(ConstructRefusal,
  none_handle,       // index 0: names no construct
  foreign_owner,     // another owner's registry
  unknown_index,     // an index this registry never issued
  not_live,          // destroyed (or never made)
  stale_generation,  // the index is live, with a later construct
  registry_full,     // every index is live or retired
  no_session,        // a call from no admitted session
  rate_limited,      // a call past the session's interactions per second (calls share that bucket)
  refused_by_game    // the construct resolved; the game refused the method or its payload
)

}  // namespace tickwire
