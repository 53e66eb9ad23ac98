// The generation-checked slot allocator: spawn from the free list or a fresh index, resolve by
// owner + index + generation, and retire a slot at its last generation instead of wrapping.
#include "tickwire/replication/handles/entity_slots.h"

#include <algorithm>

#include "tickwire/core/assert.h"

namespace tickwire {

EntitySlots::EntitySlots(OwnerId owner, uint32_t capacity) : owner_(owner), capacity_(capacity) {
  TW_ASSERT(capacity >= 1 && capacity <= kMaxCapacity, "entity slot capacity out of range");
}

std::optional<EntityRef> EntitySlots::spawn(uint16_t flags) {
  uint32_t index = 0;
  if (!free_.empty()) {
    index = free_.back();
    free_.pop_back();
  } else if (slots_.size() < capacity_) {
    slots_.emplace_back();
    index = static_cast<uint32_t>(slots_.size());
  } else {
    ++spawn_failures_;
    return std::nullopt;
  }
  Slot& s = slot(index);
  TW_ASSERT(s.state == SlotState::free, "the free list held a slot that is not free");
  s.state = SlotState::live;
  ++live_;
  return EntityRef::make(EntityNetHandle::make(owner_, index), s.generation, flags);
}

bool EntitySlots::claim(EntityRef ref) {
  const EntityNetHandle handle = ref.handle();
  const uint32_t index = handle.index();
  if (handle.is_none() || handle.owner() != owner_ || index == 0 || index > capacity_) return false;
  while (slots_.size() < index) {  // the indices passed on the way are free, as spawn would leave them
    slots_.emplace_back();
    if (slots_.size() < index) free_.push_back(static_cast<uint32_t>(slots_.size()));
  }
  Slot& s = slot(index);
  if (s.state != SlotState::free || ref.generation() < s.generation) return false;
  std::erase(free_, index);
  s.generation = ref.generation();
  s.state = SlotState::live;
  ++live_;
  return true;
}

EntityLookup EntitySlots::lookup(EntityRef ref) const {
  const EntityNetHandle handle = ref.handle();
  if (handle.is_none()) return EntityLookup::none_handle;
  if (handle.owner() != owner_) return EntityLookup::foreign_owner;
  if (handle.index() > slots_.size()) return EntityLookup::index_out_of_range;
  const Slot& s = slot(handle.index());
  if (s.state != SlotState::live) return EntityLookup::not_live;
  if (s.generation != ref.generation()) return EntityLookup::stale_generation;
  return EntityLookup::ok;
}

EntityLookup EntitySlots::despawn(EntityRef ref) {
  const EntityLookup found = lookup(ref);
  if (found != EntityLookup::ok) return found;
  const uint32_t index = ref.handle().index();
  Slot& s = slot(index);
  --live_;
  if (s.generation == kLastGeneration) {
    s.state = SlotState::retired;  // wrapping would let a ref 65535 spawns old match again
    ++retired_;
    return EntityLookup::ok;
  }
  ++s.generation;
  s.state = SlotState::free;
  free_.push_back(index);
  return EntityLookup::ok;
}

}  // namespace tickwire
