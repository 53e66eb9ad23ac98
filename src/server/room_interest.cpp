// Filing the tick's entity records by position and cutting each client's frame by its interest.
#include "tickwire/server/room_interest.h"

#include "tickwire/core/assert.h"

namespace tickwire {

namespace {

InterestWorldConfig world_config(const RoomInterestConfig& config) {
  InterestWorldConfig world;
  world.grid = config.grid;
  world.grid.max_entities = config.max_entities;
  return world;
}

}  // namespace

RoomInterest::RoomInterest(const RoomInterestConfig& config)
    : config_(config),
      world_(world_config(config)),
      composer_(config.max_entities),
      set_(std::min(config.max_entities, InterestSet::kMaxEntities)),
      seen_in_(config.max_entities, 0),
      selected_in_(config.max_entities, 0) {
  index_of_.reserve(config.max_entities);
  free_.reserve(config.max_entities);
  for (uint32_t i = config.max_entities; i > 0; --i) free_.push_back(i - 1);
}

void RoomInterest::update(std::span<const ReplicaState> states, const ReplicaKinds& kinds) {
  ++updates_;
  index_of_state_.assign(states.size(), kNoEntity);
  for (std::size_t i = 0; i < states.size(); ++i) {
    const ReplicaState& state = states[i];
    if (state.form != ReplicaForm::entity) continue;
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
    index_of_state_[i] = index;
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
}

void RoomInterest::select(float x_m, float z_m, std::span<const ReplicaState> states,
                          std::vector<ReplicaState>& out) {
  TW_ASSERT(states.size() == index_of_state_.size(), "select takes the states of the last update");
  ++selects_;
  InterestViewer viewer;
  viewer.x_m = x_m;
  viewer.z_m = z_m;
  viewer.radius_m = config_.radius_m;
  composer_.compose(world_, viewer, set_);
  for (uint32_t index : set_.entities()) selected_in_[index] = selects_;
  out.clear();
  for (std::size_t i = 0; i < states.size(); ++i) {
    const uint32_t index = index_of_state_[i];
    if (states[i].form == ReplicaForm::object || (index != kNoEntity && selected_in_[index] == selects_)) {
      out.push_back(states[i]);
    }
  }
}

}  // namespace tickwire
