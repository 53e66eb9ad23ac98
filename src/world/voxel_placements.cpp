// The placements rule's parts: a volume's grid, where it stands, and its state read off a record.
#include "tickwire/world/voxel_placements.h"

#include "tickwire/world/logic_components.h"
#include "tickwire/world/reference_vocabulary.h"

namespace tickwire::world {

Vec3 voxel_volume_origin(const MapObject& object) { return object.position; }

const VoxelGrid* voxel_volume_grid(const Map& map, const MapObject& object) {
  const ObjectComponent* volume = object.component("voxel_volume");
  if (volume == nullptr) return nullptr;
  const auto grid = static_cast<std::size_t>(setting_number(*volume, "grid"));
  const auto grids = map.voxel_grids();
  return grid < grids.size() ? &grids[grid] : nullptr;  // a built map names a grid it has
}

VoxelVolumeState voxel_volume_state(const MapObject& object, const protocol::ObjectRecord* record) {
  const ObjectComponent* volume = object.component("voxel_volume");
  VoxelVolumeState state;
  state.solid = volume != nullptr && (volume->bits & kVoxelSolidBit) != 0;
  if (record == nullptr) return state;
  state.enabled = (record->flags & kObjectEnabled) != 0;
  const auto wire_id = static_cast<uint8_t>(ComponentWireId::voxel_volume);
  for (const protocol::ComponentSection& section : record->sections)
    if (section.wire_id == wire_id && (section.dirty & (1u << 5)) != 0) state.solid = (section.bits & kVoxelSolidBit) != 0;
  return state;
}

std::vector<uint32_t> voxel_volume_indices(const Map& map) {
  std::vector<uint32_t> out;
  const auto objects = map.objects();
  for (uint32_t index = 0; index < objects.size(); ++index)
    if (objects[index].component("voxel_volume") != nullptr) out.push_back(index);
  return out;
}

}  // namespace tickwire::world
