// The client's voxel solids: the placements rule over the newest snapshot, the streaming colliders
// around its own pawn.
#include "tickwire/world/voxel_prediction_world.h"

#include <variant>

#include "tickwire/world/voxel_placements.h"

namespace tickwire::world {

VoxelPredictionWorld::VoxelPredictionWorld(const VoxelLive& live, const VoxelStreamSettings& settings)
    : live_(live), colliders_(settings) {
  index_volumes();
}

void VoxelPredictionWorld::index_volumes() {
  const Map& map = live_.map();
  indexed_map_ = &map;
  volumes_ = voxel_volume_indices(map);
  blocks_ = voxel_block_cells(map);
  volume_slot_.assign(map.objects().size(), -1);
  for (std::size_t slot = 0; slot < volumes_.size(); ++slot) volume_slot_[volumes_[slot]] = static_cast<int32_t>(slot);
  colliders_.clear();
  synced_ = false;
}

void VoxelPredictionWorld::sync(const protocol::Snapshot* snapshot, const Vec3& pawn_feet) {
  if (indexed_map_ != &live_.map()) index_volumes();
  if (volumes_.empty()) return;
  const uint32_t tick = snapshot != nullptr ? snapshot->tick : 0;
  if (!synced_ || snapshot != synced_snapshot_ || tick != synced_tick_) {
    records_.assign(volumes_.size(), nullptr);
    present_.assign(volume_slot_.size(), snapshot == nullptr ? 1 : 0);
    if (snapshot != nullptr) {
      for (const protocol::Record& record : snapshot->records) {
        const auto* object = std::get_if<protocol::ObjectRecord>(&record.body);
        if (object == nullptr || object->object_index >= volume_slot_.size()) continue;
        present_[object->object_index] = 1;
        if (const int32_t slot = volume_slot_[object->object_index]; slot >= 0) records_[static_cast<std::size_t>(slot)] = object;
      }
    }
    const Map& map = live_.map();
    colliders_.set_placements(voxel_placements(map, volumes_, [&](uint32_t index) {
      const int32_t slot = volume_slot_[index];
      VoxelVolumeState state = voxel_volume_state(map.objects()[index], slot >= 0 ? records_[static_cast<std::size_t>(slot)] : nullptr);
      state.present = present_[index] != 0;
      return state;
    }));
    claims_.update(blocks_, [&](uint32_t index) { return present_[index] != 0; });
    synced_snapshot_ = snapshot;
    synced_tick_ = tick;
    synced_ = true;
  }
  colliders_.sync({&pawn_feet, 1}, live_.cells(), &claims_);
}

}  // namespace tickwire::world
