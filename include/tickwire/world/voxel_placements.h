// The voxel volumes that are solid right now, by one rule both ends apply (seed 000's
// VoxelColliders.Placements): every object of the map carrying a voxel_volume component, less the
// ones that are out (despawned), off (not enabled) or not solid (its section's bit 0 clear), each
// standing where VoxelVolumePose::World puts it. Each end reads the volumes off its own copy of the
// map and the state off what it knows (the server its objects, a client its newest snapshot), never
// the geometry off the wire.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "tickwire/protocol/snapshot.h"
#include "tickwire/world/map.h"
#include "tickwire/world/voxel_colliders.h"

namespace tickwire::world {

// A voxel_volume section's bit 0: the volume is solid (a pawn collides with its cells).
inline constexpr uint8_t kVoxelSolidBit = 1;

// What a volume's state is to the rule.
struct VoxelVolumeState {
  bool present = true;  // spawned (its networked entity exists)
  bool enabled = true;  // the object's enabled flag
  bool solid = true;    // its voxel_volume section's bit 0
};

// Where a volume's cell (0, 0, 0) has its min corner: its authored position (volumes are axis
// aligned and unscaled; a scene edit's pose will lay over it here).
Vec3 voxel_volume_origin(const MapObject& object);

// The grid a voxel_volume object places, or nullptr (no such component).
const VoxelGrid* voxel_volume_grid(const Map& map, const MapObject& object);

// The rule: every volume of `volumes` (voxel_volume_indices of `map`) whose state
// (`state_of(object_index)`) is present, enabled and solid, in the order given.
template <class StateOf>
std::vector<VoxelPlacement> voxel_placements(const Map& map, std::span<const uint32_t> volumes, StateOf state_of) {
  std::vector<VoxelPlacement> out;
  const auto objects = map.objects();
  for (uint32_t index : volumes) {
    const VoxelGrid* grid = voxel_volume_grid(map, objects[index]);
    if (grid == nullptr) continue;
    const VoxelVolumeState state = state_of(index);
    if (state.present && state.enabled && state.solid)
      out.push_back(VoxelPlacement{index, grid, voxel_volume_origin(objects[index])});
  }
  return out;
}

// A volume's state as a snapshot's record of it says (its authored state where the snapshot carries
// no record of it, or leaves the section's bits out).
VoxelVolumeState voxel_volume_state(const MapObject& object, const protocol::ObjectRecord* record);

// Every voxel volume object index of a map (the objects carrying a voxel_volume component).
std::vector<uint32_t> voxel_volume_indices(const Map& map);

}  // namespace tickwire::world
