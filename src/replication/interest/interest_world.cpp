// The interest attributes' bookkeeping: the always-relevant list (swap-remove through a slot per
// entity), scene frame membership in fixed per-frame slots, and parent links that carry the
// parent's incarnation so a removed (or reused) parent never silently adopts a child.
#include "tickwire/replication/interest/interest_world.h"

#include <cmath>

namespace tickwire {

InterestWorld::InterestWorld(const InterestWorldConfig& config)
    : grid_(config.grid),
      max_always_relevant_(config.max_always_relevant),
      max_scene_frames_(config.max_scene_frames) {
  TW_ASSERT(max_always_relevant_ <= kMaxAlwaysRelevant, "max_always_relevant above kMaxAlwaysRelevant");
  TW_ASSERT(max_scene_frames_ <= kMaxSceneFrames, "max_scene_frames above kMaxSceneFrames");
  info_.resize(grid_.max_entities());
  always_relevant_.reserve(max_always_relevant_);
  frame_members_.assign(size_t{max_scene_frames_ + 1} * kMaxSceneFrameMembers, kNoEntity);
  frame_member_counts_.assign(size_t{max_scene_frames_} + 1, 0);
}

bool InterestWorld::insert(uint32_t entity, const InterestEntity& attributes) {
  TW_ASSERT(entity < info_.size() && !contains(entity), "entity inserted into the interest world twice");
  TW_ASSERT((attributes.flags & ~kInterestKnownFlags) == 0, "unknown interest flag bits");
  TW_ASSERT(attributes.importance >= kMinImportance && std::isfinite(attributes.importance),
            "importance must be finite and >= kMinImportance");
  if ((attributes.flags & kInterestAlwaysRelevant) != 0 && always_relevant_.size() >= max_always_relevant_) {
    return false;
  }
  Entry& in = info_[entity];
  in = Entry{in.incarnation + 1, kNoEntity, 0, kNoSceneFrame, kNoEntity, attributes.importance,
            attributes.owner_client, attributes.flags};
  grid_.insert(entity, attributes.x_m, attributes.z_m);
  if ((attributes.flags & kInterestAlwaysRelevant) != 0) add_always_relevant(entity);
  return true;
}

void InterestWorld::remove(uint32_t entity) {
  Entry& in = info(entity);
  if (in.always_slot != kNoEntity) drop_always_relevant(entity);
  if (in.scene_frame != kNoSceneFrame) leave_scene_frame(entity);
  if (in.parent != kNoEntity) --parent_links_;
  in.parent = kNoEntity;
  grid_.remove(entity);
}

bool InterestWorld::add_always_relevant(uint32_t entity) {
  if (always_relevant_.size() >= max_always_relevant_) return false;
  info_[entity].always_slot = static_cast<uint32_t>(always_relevant_.size());
  always_relevant_.push_back(entity);
  return true;
}

void InterestWorld::drop_always_relevant(uint32_t entity) {
  const uint32_t slot = info_[entity].always_slot;
  const uint32_t last = always_relevant_.back();
  always_relevant_[slot] = last;
  info_[last].always_slot = slot;
  always_relevant_.pop_back();
  info_[entity].always_slot = kNoEntity;
}

bool InterestWorld::set_flags(uint32_t entity, uint8_t flags) {
  TW_ASSERT((flags & ~kInterestKnownFlags) == 0, "unknown interest flag bits");
  Entry& in = info(entity);
  const bool want_always = (flags & kInterestAlwaysRelevant) != 0;
  if (want_always && in.always_slot == kNoEntity && !add_always_relevant(entity)) return false;
  if (!want_always && in.always_slot != kNoEntity) drop_always_relevant(entity);
  in.flags = flags;
  return true;
}

void InterestWorld::set_owner(uint32_t entity, uint16_t owner_client) { info(entity).owner_client = owner_client; }

void InterestWorld::set_importance(uint32_t entity, float importance) {
  TW_ASSERT(importance >= kMinImportance && std::isfinite(importance), "importance must be finite and >= kMinImportance");
  info(entity).importance = importance;
}

uint32_t InterestWorld::linked_parent(const Entry& in, bool* broken) const {
  const bool live = contains(in.parent) && info_[in.parent].incarnation == in.parent_incarnation;
  if (broken != nullptr) *broken = !live;
  return live ? in.parent : kNoEntity;
}

void InterestWorld::set_parent(uint32_t entity, uint32_t parent) {
  Entry& in = info(entity);
  if (parent == kNoEntity) {
    if (in.parent != kNoEntity) --parent_links_;
    in.parent = kNoEntity;
    return;
  }
  TW_ASSERT(contains(parent), "parent is not in the interest world");
  // Only live links count (a stale one never comes back to life), so a walk over live links from
  // the new parent that never meets `entity` proves the link closes no cycle; as no cycle exists,
  // the walk ends within max_entities() steps.
  uint32_t steps = 0;
  for (uint32_t up = parent; up != kNoEntity; up = this->parent(up)) {
    TW_ASSERT(up != entity, "parent link would close a cycle");
    TW_ASSERT(++steps <= max_entities(), "parent links hold a cycle");
  }
  if (in.parent == kNoEntity) ++parent_links_;
  in.parent = parent;
  in.parent_incarnation = info_[parent].incarnation;
}

void InterestWorld::set_scene_frame(uint32_t entity, uint32_t frame) {
  TW_ASSERT(frame <= max_scene_frames_, "scene frame id above max_scene_frames");
  Entry& in = info(entity);
  if (in.scene_frame == frame) return;
  if (in.scene_frame != kNoSceneFrame) leave_scene_frame(entity);
  if (frame == kNoSceneFrame) return;
  uint8_t& count = frame_member_counts_[frame];
  TW_ASSERT(count < kMaxSceneFrameMembers, "scene frame has kMaxSceneFrameMembers members already");
  frame_members_[size_t{frame} * kMaxSceneFrameMembers + count] = entity;
  ++count;
  in.scene_frame = frame;
}

void InterestWorld::leave_scene_frame(uint32_t entity) {
  const uint32_t frame = info_[entity].scene_frame;
  uint32_t* members = &frame_members_[size_t{frame} * kMaxSceneFrameMembers];
  uint8_t& count = frame_member_counts_[frame];
  for (uint32_t i = 0; i < count; ++i) {
    if (members[i] != entity) continue;
    members[i] = members[count - 1u];
    --count;
    break;
  }
  info_[entity].scene_frame = kNoSceneFrame;
}

std::span<const uint32_t> InterestWorld::scene_frame_members(uint32_t frame) const {
  TW_ASSERT(frame != kNoSceneFrame && frame <= max_scene_frames_, "scene frame id out of range");
  return {&frame_members_[size_t{frame} * kMaxSceneFrameMembers], frame_member_counts_[frame]};
}

}  // namespace tickwire
