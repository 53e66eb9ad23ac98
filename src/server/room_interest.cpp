// Filing the tick's entity records by position, and the tick's frame with each state's interest index.
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
      seen_in_(config.max_entities, 0) {
  index_of_.reserve(config.max_entities);
  free_.reserve(config.max_entities);
  for (uint32_t i = config.max_entities; i > 0; --i) free_.push_back(i - 1);
}

void RoomInterest::update(std::span<const ReplicaState> states, const ReplicaKinds& kinds, ReplicaFrame& frame,
                          std::vector<uint32_t>& entities) {
  ++updates_;
  frame.states.clear();
  entities.clear();
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
  world_.compact();  // every client's query this tick scans the settled grid
}

uint32_t RoomInterest::index_of(uint32_t record_id) const {
  const auto it = index_of_.find(record_id);
  return it != index_of_.end() ? it->second : kNoEntity;  // update() keeps only what it filed
}

void RoomInterest::mark_pawn(uint32_t index, uint16_t client) {
  constexpr float kPawnImportance = 2.0f;  // a player is worth more than a prop at the same distance
  world_.set_owner(index, client);
  const bool flagged = world_.set_flags(index, kInterestImportant);
  TW_ASSERT(flagged, "an important flag always sets");
  world_.set_importance(index, kPawnImportance);
}

}  // namespace tickwire
