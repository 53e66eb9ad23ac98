// EntitySlots: one owner's fixed-capacity entity allocator with a generation per slot. spawn()
// hands out an EntityRef carrying the slot's current generation; despawn advances it, so every
// earlier ref to that slot stops resolving; a slot whose generation would wrap is retired for good
// rather than risk a 65536-spawn-old ref matching again.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tickwire/replication/handles/entity_handle.h"

namespace tickwire {

// Why a ref did not resolve (a caller counts these; a client naming a stale entity is refused).
enum class EntityLookup : uint8_t {
  ok = 0,
  none_handle,         // index 0: names no entity
  foreign_owner,       // another owner's index space
  index_out_of_range,  // an index this allocator never issued
  not_live,            // the slot is free or retired
  stale_generation,    // the slot is live, but with a later occupant
  count_,
};

class EntitySlots {
 public:
  // The most slots one allocator may hold: every 24-bit index but 0.
  static constexpr uint32_t kMaxCapacity = EntityNetHandle::kMaxIndex;
  static constexpr uint16_t kFirstGeneration = 1;
  static constexpr uint16_t kLastGeneration = UINT16_MAX;  // after this use the slot retires

  EntitySlots(OwnerId owner, uint32_t capacity);

  // A new entity, or nullopt when every slot is live or retired (counted in spawn_failures()).
  std::optional<EntityRef> spawn(uint16_t flags = 0);
  // Makes `ref`'s slot live at `ref`'s generation (a recovery putting an entity back where its
  // records name it): false when the ref is foreign, past capacity, or its slot is not free.
  bool claim(EntityRef ref);
  // Frees the slot `ref` names if, and only if, it resolves; returns why not otherwise.
  EntityLookup despawn(EntityRef ref);
  EntityLookup lookup(EntityRef ref) const;
  bool resolves(EntityRef ref) const { return lookup(ref) == EntityLookup::ok; }

  OwnerId owner() const { return owner_; }
  uint32_t capacity() const { return capacity_; }
  uint32_t live() const { return live_; }
  uint32_t retired() const { return retired_; }
  uint64_t spawn_failures() const { return spawn_failures_; }

 private:
  enum class SlotState : uint8_t { free, live, retired };
  struct Slot {
    uint16_t generation = kFirstGeneration;
    SlotState state = SlotState::free;
  };
  Slot& slot(uint32_t index) { return slots_[index - 1]; }
  const Slot& slot(uint32_t index) const { return slots_[index - 1]; }

  OwnerId owner_;
  uint32_t capacity_;
  std::vector<Slot> slots_;        // grows on first use of an index, never past capacity_
  std::vector<uint32_t> free_;     // freed indices, reused last-in first-out
  uint32_t live_ = 0;
  uint32_t retired_ = 0;
  uint64_t spawn_failures_ = 0;
};

}  // namespace tickwire
