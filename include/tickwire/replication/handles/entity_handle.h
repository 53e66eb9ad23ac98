// Entity handles as they travel: EntityNetHandle (owner 10 bits | index 22 bits, seed 002's
// NetOwnerID:NetIndex at core/owner_id.h's width; owner 0 is the authority) names a slot, and the
// 64-bit EntityRef (handle 32 | generation 16 | flags 16) also carries the generation captured at
// spawn, so a reference to a despawned entity can never be mistaken for whatever later occupies the
// same slot.
#pragma once

#include <compare>
#include <cstdint>

#include "tickwire/core/assert.h"
#include "tickwire/core/owner_id.h"

namespace tickwire {

class EntityNetHandle {
 public:
  static constexpr uint32_t kIndexBits = 32 - kOwnerIdBits;
  static constexpr uint32_t kMaxIndex = (uint32_t{1} << kIndexBits) - 1;
  static constexpr OwnerId kAuthorityOwner = tickwire::kAuthorityOwner;
  // The authority's index space is split in two: below kGameIndexBase the room's slots (pawns and
  // runtime spawns, EntitySlots), from it up what a game names itself (its map objects: index =
  // kGameIndexBase + object index), so the two can never collide and both decode as owner 0.
  static constexpr uint32_t kGameIndexBase = uint32_t{1} << (kIndexBits - 1);

  constexpr EntityNetHandle() = default;  // raw 0: no entity (index 0 is never issued)
  static constexpr EntityNetHandle make(OwnerId owner, uint32_t index) {
    TW_ASSERT(owner_id_in_range(owner), "owner id past the owner id space");
    TW_ASSERT(index <= kMaxIndex, "entity index wider than its bits");
    return EntityNetHandle(uint32_t{owner} << kIndexBits | index);
  }
  static constexpr EntityNetHandle from_raw(uint32_t raw) { return EntityNetHandle(raw); }

  constexpr uint32_t raw() const { return raw_; }
  constexpr OwnerId owner() const { return static_cast<OwnerId>(raw_ >> kIndexBits); }
  constexpr uint32_t index() const { return raw_ & kMaxIndex; }
  constexpr bool is_none() const { return index() == 0; }
  constexpr bool is_authority() const { return owner() == kAuthorityOwner; }
  constexpr auto operator<=>(const EntityNetHandle&) const = default;

 private:
  constexpr explicit EntityNetHandle(uint32_t raw) : raw_(raw) {}
  uint32_t raw_ = 0;
};

// EntityRef flag bits.
inline constexpr uint16_t kEntityRefPredicted = uint16_t{1} << 0;  // the client predicts it
inline constexpr uint16_t kEntityRefOwned = uint16_t{1} << 1;      // the holder owns it
inline constexpr uint16_t kEntityRefKnownFlags = kEntityRefPredicted | kEntityRefOwned;

class EntityRef {
 public:
  constexpr EntityRef() = default;  // raw 0: no entity
  static constexpr EntityRef make(EntityNetHandle handle, uint16_t generation, uint16_t flags = 0) {
    return EntityRef(uint64_t{handle.raw()} << 32 | uint64_t{generation} << 16 | flags);
  }
  static constexpr EntityRef from_raw(uint64_t raw) { return EntityRef(raw); }

  constexpr uint64_t raw() const { return raw_; }
  constexpr EntityNetHandle handle() const { return EntityNetHandle::from_raw(static_cast<uint32_t>(raw_ >> 32)); }
  constexpr uint16_t generation() const { return static_cast<uint16_t>(raw_ >> 16); }
  constexpr uint16_t flags() const { return static_cast<uint16_t>(raw_); }
  constexpr bool is_predicted() const { return (flags() & kEntityRefPredicted) != 0; }
  constexpr bool is_owned() const { return (flags() & kEntityRefOwned) != 0; }
  // Flag bits this build does not know (a decoder refuses these).
  constexpr bool has_unknown_flags() const { return (flags() & ~kEntityRefKnownFlags) != 0; }
  constexpr EntityRef with_flags(uint16_t flags) const { return make(handle(), generation(), flags); }
  // The same entity incarnation: handle and generation equal, flags aside.
  constexpr bool same_entity(EntityRef other) const { return (raw_ >> 16) == (other.raw_ >> 16); }
  constexpr auto operator<=>(const EntityRef&) const = default;

 private:
  constexpr explicit EntityRef(uint64_t raw) : raw_(raw) {}
  uint64_t raw_ = 0;
};

}  // namespace tickwire
