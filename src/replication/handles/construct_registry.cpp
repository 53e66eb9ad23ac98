// ConstructRegistry: a free list of indices, a generation per slot, and the class rules for the two
// ways authority changes.
#include "tickwire/replication/handles/construct_registry.h"

#include "tickwire/core/assert.h"

namespace tickwire {

ConstructRegistry::ConstructRegistry(OwnerId owner, uint16_t capacity) : owner_(owner), slots_(capacity) {
  TW_ASSERT(capacity >= 1 && capacity <= ConstructHandle::kMaxIndex, "a construct registry holds 1..kMaxIndex constructs");
  free_.reserve(capacity);
  for (uint32_t i = capacity; i >= 1; --i) free_.push_back(static_cast<uint16_t>(i));  // lowest index first
}

std::variant<ConstructHandle, ConstructRefusal> ConstructRegistry::create(ConstructInfo info) {
  if (free_.empty()) {
    refusals_.add(ConstructRefusal::registry_full);
    return ConstructRefusal::registry_full;
  }
  const uint16_t index = free_.back();
  free_.pop_back();
  Slot& slot = slots_[index - 1];
  slot.state = State::live;
  slot.info = info;
  ++live_;
  return ConstructHandle::make(owner_, index, slot.generation);
}

std::optional<ConstructRefusal> ConstructRegistry::check(ConstructHandle handle) const {
  std::optional<ConstructRefusal> why;
  if (handle.is_none()) why = ConstructRefusal::none_handle;
  else if (handle.owner() != owner_) why = ConstructRefusal::foreign_owner;
  else if (handle.index() > slots_.size()) why = ConstructRefusal::unknown_index;
  else if (slots_[handle.index() - 1].state != State::live) why = ConstructRefusal::not_live;
  else if (slots_[handle.index() - 1].generation != handle.generation()) why = ConstructRefusal::stale_generation;
  if (why) refusals_.add(*why);
  return why;
}

std::variant<ConstructInfo, ConstructRefusal> ConstructRegistry::resolve(ConstructHandle handle) const {
  if (const auto why = check(handle)) return *why;
  return slots_[handle.index() - 1].info;
}

void ConstructRegistry::free_slot(uint16_t index) {
  Slot& slot = slots_[index - 1];
  --live_;
  if (slot.generation == UINT8_MAX) {  // its next life would wrap: retired for good
    slot.state = State::retired;
    return;
  }
  ++slot.generation;
  slot.state = State::free;
  free_.push_back(index);
}

std::optional<ConstructRefusal> ConstructRegistry::destroy(ConstructHandle handle) {
  if (const auto why = check(handle)) return why;
  free_slot(handle.index());
  return std::nullopt;
}

void ConstructRegistry::clear() {
  for (uint16_t index = 1; index <= slots_.size(); ++index) {
    if (slots_[index - 1].state == State::live) free_slot(index);
  }
}

std::vector<ConstructHandle> ConstructRegistry::adopt(ConstructRegistry& old_host) {
  TW_ASSERT(&old_host != this && old_host.owner_ == owner_ && live_ == 0, "an empty registry of the same owner adopts");
  slots_ = old_host.slots_;
  free_ = old_host.free_;
  live_ = old_host.live_;
  std::vector<ConstructHandle> died;
  for (uint16_t index = 1; index <= slots_.size(); ++index) {
    const Slot& slot = slots_[index - 1];
    if (slot.state != State::live || slot.info.authority == AuthorityClass::host) continue;
    died.push_back(ConstructHandle::make(owner_, index, slot.generation));
    free_slot(index);
  }
  old_host.clear();
  return died;
}

std::vector<ConstructMove> ConstructRegistry::owner_left(ConstructRegistry& authority) {
  TW_ASSERT(&authority != this, "a leaving owner hands its constructs to another registry");
  std::vector<ConstructMove> moved;
  for (uint16_t index = 1; index <= slots_.size(); ++index) {
    const Slot& slot = slots_[index - 1];
    if (slot.state != State::live || slot.info.authority != AuthorityClass::transferable) continue;
    const auto created = authority.create(slot.info);
    if (const ConstructHandle* handle = std::get_if<ConstructHandle>(&created)) {
      moved.push_back(ConstructMove{ConstructHandle::make(owner_, index, slot.generation), *handle});
    }
  }
  clear();
  return moved;
}

}  // namespace tickwire
