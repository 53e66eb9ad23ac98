// The reference game's objects and logic in a checkpoint (seed 003): a recovered room's doors stand
// where they stood, mid-travel, its lights, buttons and plates as they were, its despawned objects
// out, and every delay and timer in flight comes due on the tick it would have.
#include <cmath>

#include "tickwire/core/byte_record.h"
#include "tickwire/world/reference_game.h"

namespace tickwire::world {
namespace {

constexpr uint8_t kSavedSpawned = 1u << 0, kSavedEnabled = 1u << 1;
constexpr std::size_t kMaxLogicStateBytes = std::size_t{64} << 20;

// Whether any of an object's live components shows other channels or bits than the map authored
// (its settings are the scene edits', saved with them).
bool shows_other_than_authored(const std::vector<ObjectComponent>& live, std::span<const ObjectComponent> authored) {
  for (std::size_t c = 0; c < live.size(); ++c)
    if (live[c].channels != authored[c].channels || live[c].bits != authored[c].bits) return true;
  return false;
}

// What the logic and the game write into a component: its channels and bits.
void show_as(ObjectComponent& live, const ObjectComponent& shown) {
  live.channels = shown.channels;
  live.bits = shown.bits;
}

}  // namespace

void ReferenceGame::save_objects(ByteRecordWriter& write) const {
  std::vector<uint32_t> changed;
  for (uint32_t index = 0; index < objects_.size(); ++index) {
    const ObjectState& state = objects_[index];
    if (!state.spawned || !state.enabled ||
        shows_other_than_authored(state.components, map_->objects()[map_positions_[index]].components))
      changed.push_back(index);
  }
  write.u32(static_cast<uint32_t>(changed.size()));
  for (uint32_t index : changed) {
    const ObjectState& state = objects_[index];
    write.u32(index);
    write.u8(static_cast<uint8_t>((state.spawned ? kSavedSpawned : 0) | (state.enabled ? kSavedEnabled : 0)));
    write.u8(static_cast<uint8_t>(state.components.size()));
    for (const ObjectComponent& c : state.components) {
      write.u8(c.channel_count);
      for (float channel : c.active_channels()) write.f32(channel);
      write.u8(c.bits);
    }
  }
  std::vector<uint8_t> logic;
  if (logic_) {
    ByteRecordWriter logic_write(logic);
    logic_->save_state(logic_write);
  }
  write.blob(logic);
}

// Each listed object once, ascending, with the components this map gives it and finite channels.
bool ReferenceGame::read_objects(ByteRecordReader& read, SavedObjects& out) const {
  const uint32_t count = read.u32();
  if (!read.ok() || count > objects_.size()) return false;
  for (uint32_t k = 0; k < count; ++k) {
    const uint32_t index = read.u32();
    const uint8_t flags = read.u8();
    const uint8_t components = read.u8();
    if (!read.ok() || index >= objects_.size() || (!out.changed.empty() && out.changed.back().first >= index) ||
        flags > (kSavedSpawned | kSavedEnabled) || components != objects_[index].components.size())
      return false;
    ObjectState state{objects_[index].components, (flags & kSavedEnabled) != 0, (flags & kSavedSpawned) != 0};
    for (ObjectComponent& c : state.components) {
      if (read.u8() != c.channel_count) return false;
      for (float& channel : std::span(c.channels.data(), c.channel_count)) channel = read.f32();
      c.bits = read.u8();
      for (float channel : c.active_channels())
        if (!std::isfinite(channel)) return false;
    }
    if (!read.ok()) return false;
    out.changed.emplace_back(index, std::move(state));
  }
  out.logic = read.blob(kMaxLogicStateBytes);
  return read.ok();
}

// Out of the game what was out (its node unloaded), every object showing what it showed (the rest as
// authored), then the logic over the nodes that stand, and the bodies, voxels and rest table after.
bool ReferenceGame::restore_objects(const SavedObjects& saved) {
  std::vector<const ObjectState*> shown(objects_.size(), nullptr);
  for (const auto& [index, state] : saved.changed) shown[index] = &state;
  for (uint32_t index = 0; index < objects_.size(); ++index) {
    const bool spawned = shown[index] == nullptr || shown[index]->spawned;
    if (spawned && !objects_[index].spawned) (void)spawn_object(index);
    if (!spawned && objects_[index].spawned) (void)despawn_object(index);
  }
  for (uint32_t index = 0; index < objects_.size(); ++index) {
    ObjectState& live = objects_[index];
    const std::span<const ObjectComponent> authored = map_->objects()[map_positions_[index]].components;
    live.enabled = shown[index] == nullptr || shown[index]->enabled;
    for (std::size_t c = 0; c < live.components.size(); ++c)
      show_as(live.components[c], shown[index] != nullptr ? shown[index]->components[c] : authored[c]);
  }
  if (!saved.logic.empty()) {
    ByteRecordReader read(saved.logic);
    if (!logic_ || !logic_->restore_state(read) || !read.done()) return false;
    time_scale_ = logic_->runtime().clock().time_scale();
  }
  refresh_usable();
  voxels_.objects_changed();
  sync_voxels();
  refresh_solids();  // the doors and lifts where their restored poses put them
  ++map_generation_;
  return true;
}

}  // namespace tickwire::world
