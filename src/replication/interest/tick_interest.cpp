// Filing the tick's entity records by position, their attributes, and the tick's frame with each
// state's interest index.
#include "tickwire/replication/interest/tick_interest.h"

#include "tickwire/core/assert.h"

namespace tickwire {

namespace {

InterestWorldConfig world_config(const TickInterestConfig& config) {
  InterestWorldConfig world;
  world.grid = config.grid;
  world.grid.max_entities = config.max_entities;
  world.max_always_relevant = config.max_always_relevant;
  world.max_scene_frames = config.max_scene_frames;
  return world;
}

}  // namespace

TickInterest::TickInterest(const TickInterestConfig& config)
    : config_(config),
      world_(world_config(config)),
      seen_in_(config.max_entities, 0) {
  index_of_.reserve(config.max_entities);
  free_.reserve(config.max_entities);
  attributed_.reserve(config.max_entities);
  for (uint32_t i = config.max_entities; i > 0; --i) free_.push_back(i - 1);
}

void TickInterest::update(std::span<const ReplicaState> states, const ReplicaKinds& kinds,
                          std::span<const InterestNote> notes, std::span<const PawnMark> pawns, ReplicaFrame& frame,
                          std::vector<uint32_t>& entities) {
  ++updates_;
  frame.states.clear();
  entities.clear();
  clear_attributes();
  for (std::size_t i = 0; i < states.size(); ++i) {
    const ReplicaState& state = states[i];
    if (state.form != ReplicaForm::entity) {
      frame.states.push_back(state);
      entities.push_back(kNoEntity);
      continue;
    }
    const float quantum = kinds.of(state.kind).position_quantum_m;
    const float x_m = static_cast<float>(state.position[0]) * quantum;
    const float z_m = static_cast<float>(state.position[2]) * quantum;
    uint32_t index = kNoEntity;
    if (auto it = index_of_.find(state.id); it != index_of_.end()) {
      index = it->second;
      world_.move(index, x_m, z_m);
    } else if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
      index_of_.emplace(state.id, index);
      InterestEntity entity;
      entity.x_m = x_m;
      entity.z_m = z_m;
      const bool inserted = world_.insert(index, entity);
      TW_ASSERT(inserted, "an entity that is not always-relevant always files");
    } else {
      ++overflowed_;
      continue;
    }
    seen_in_[index] = updates_;
    frame.states.push_back(state);
    entities.push_back(index);
  }
  for (auto it = index_of_.begin(); it != index_of_.end();) {
    if (seen_in_[it->second] == updates_) {
      ++it;
      continue;
    }
    world_.remove(it->second);
    free_.push_back(it->second);
    it = index_of_.erase(it);
  }
  for (const InterestNote& note : notes) {
    const uint32_t index = index_of(note.record_id);
    if (index == kNoEntity) {
      note_refusals_.add(InterestNoteRefusal::unknown_record);
      continue;
    }
    apply(index, note.interest);
  }
  for (const PawnMark& pawn : pawns) {
    const uint32_t index = index_of(pawn.record_id);
    if (index == kNoEntity) continue;
    if (world_.entry(index).owner_client == kNoOwnerClient && world_.flags(index) == 0) attributed_.push_back(index);
    world_.set_owner(index, pawn.client);
    const bool flagged = world_.set_flags(index, static_cast<uint8_t>(world_.flags(index) | kInterestImportant));
    TW_ASSERT(flagged, "an important flag always sets");
    world_.set_importance(index, kPawnImportance);
  }
  world_.compact();  // every client's query this tick scans the settled grid
}

// Every attribute the last update gave goes back to the default (public, spatial, solo), so a note
// the game stops writing stops applying.
void TickInterest::clear_attributes() {
  for (uint32_t index : attributed_) {
    if (!world_.contains(index)) continue;
    world_.set_owner(index, kNoOwnerClient);
    (void)world_.set_flags(index, 0);
    world_.set_importance(index, 1.0f);
    world_.set_parent(index, kNoEntity);
    world_.set_scene_frame(index, kNoSceneFrame);
  }
  attributed_.clear();
}

void TickInterest::apply(uint32_t index, const RecordInterest& interest) {
  attributed_.push_back(index);
  uint8_t flags = 0;
  if (interest.private_to != 0) {
    world_.set_owner(index, interest.private_to);
    flags |= kInterestOwnerPrivate;
  }
  if (interest.important) flags |= kInterestImportant;
  if (interest.always_relevant) flags |= kInterestAlwaysRelevant;
  if (!world_.set_flags(index, flags)) {
    note_refusals_.add(InterestNoteRefusal::always_relevant_full);
    (void)world_.set_flags(index, static_cast<uint8_t>(flags & ~kInterestAlwaysRelevant));
  }
  if (interest.parent_id != 0) {
    const uint32_t parent = index_of(interest.parent_id);
    if (parent == kNoEntity || parent == index) {
      note_refusals_.add(InterestNoteRefusal::unknown_parent);
    } else {
      world_.set_parent(index, parent);
    }
  }
  if (interest.scene_frame != 0) {
    if (interest.scene_frame > world_.max_scene_frames()) {
      note_refusals_.add(InterestNoteRefusal::scene_frame_range);
    } else {
      world_.set_scene_frame(index, interest.scene_frame);
    }
  }
}

uint32_t TickInterest::index_of(uint32_t record_id) const {
  const auto it = index_of_.find(record_id);
  return it != index_of_.end() ? it->second : kNoEntity;  // update() keeps only what it filed
}

}  // namespace tickwire
