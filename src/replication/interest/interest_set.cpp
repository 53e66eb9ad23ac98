// Interest composition: union in a fixed order (pawn, always-relevant, radius, required parents)
// deduplicated through epoch marks, then the owner-private subtraction as the very last step.
#include "tickwire/replication/interest/interest_set.h"

namespace tickwire {

InterestSet::InterestSet(uint32_t capacity) : capacity_(capacity) {
  TW_ASSERT(capacity >= 1 && capacity <= kMaxEntities, "interest set capacity out of range");
  entities_.reserve(capacity);
}

void InterestComposer::compose(const InterestWorld& world, const InterestViewer& viewer, InterestSet& out) {
  TW_ASSERT(seen_.capacity() >= world.max_entities(), "composer sized for a smaller world");
  out.entities_.clear();
  out.overflowed_ = 0;
  seen_.clear();
  const auto offer = [&](uint32_t entity) {
    if (seen_.insert(entity)) out.add(entity);
  };
  if (viewer.pawn != kNoEntity && world.contains(viewer.pawn)) offer(viewer.pawn);
  for (uint32_t entity : world.always_relevant()) offer(entity);
  world.grid().for_each_within(viewer.x_m, viewer.z_m, viewer.radius_m, offer);
  pull_in_parents(world, out);

  // Last: nothing added above (always-relevant, pawn, a pulled-in parent) survives being private
  // to another owner.
  auto& list = out.entities_;
  std::size_t kept = 0;
  for (uint32_t entity : list) {
    const bool foreign_private = (world.flags(entity) & kInterestOwnerPrivate) != 0 &&
                                 world.owner_client(entity) != viewer.client;
    if (!foreign_private) list[kept++] = entity;
  }
  list.resize(kept);
}

// A visible child needs its parent chain on the client, so every ancestor joins the set. The
// chain walk stops at an ancestor already seen (its own chain is in) or at kMaxParentDepth.
void InterestComposer::pull_in_parents(const InterestWorld& world, InterestSet& out) {
  if (!world.any_parent_links()) return;
  const std::size_t direct = out.entities_.size();
  for (std::size_t i = 0; i < direct; ++i) {
    uint32_t up = world.parent(out.entities_[i]);
    for (uint32_t depth = 0; up != kNoEntity && depth < InterestWorld::kMaxParentDepth; ++depth) {
      if (!seen_.insert(up)) break;
      out.add(up);
      up = world.parent(up);
    }
  }
}

}  // namespace tickwire
