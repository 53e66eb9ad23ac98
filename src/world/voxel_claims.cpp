// The blocks a map carries in its voxel volumes, and the claimed cells their presence makes.
#include "tickwire/world/voxel_claims.h"

#include <algorithm>
#include <cmath>

#include "tickwire/world/object_hierarchy.h"
#include "tickwire/world/voxel_placements.h"

namespace tickwire::world {

std::vector<VoxelBlockCell> voxel_block_cells(const Map& map) {
  std::vector<VoxelBlockCell> out;
  const ObjectHierarchy hierarchy = ObjectHierarchy::build(map);
  const auto objects = map.objects();
  for (uint32_t index = 0; index < objects.size(); ++index) {
    const std::optional<uint32_t> parent = hierarchy.parent(index);
    if (!parent) continue;
    const VoxelGrid* grid = voxel_volume_grid(map, objects[*parent]);
    if (grid == nullptr) continue;
    const Vec3 local = objects[index].position - voxel_volume_origin(objects[*parent]);
    const float at[3] = {std::floor(local.x / grid->cell_m()), std::floor(local.y / grid->cell_m()),
                         std::floor(local.z / grid->cell_m())};
    bool inside = true;
    for (int axis = 0; axis < 3; ++axis) inside = inside && at[axis] >= 0 && at[axis] < grid->size()[axis];
    if (!inside) continue;  // carried, but standing outside the grid: it stands for no cell
    const VoxelCell cell{static_cast<uint16_t>(at[0]), static_cast<uint16_t>(at[1]), static_cast<uint16_t>(at[2])};
    out.push_back(VoxelBlockCell{index, {*parent, grid->chunk_of(cell)}, grid->offset_in_chunk(cell)});
  }
  return out;
}

void VoxelClaims::commit() {
  for (auto& [chunk, offsets] : next_) std::sort(offsets.begin(), offsets.end());
  // A chunk whose claims differ (new, changed or gone) gets a new stamp.
  for (const auto& [chunk, offsets] : next_) {
    const auto held = claimed_.find(chunk);
    if (held == claimed_.end() || held->second != offsets) ++stamps_[chunk], ++revision_;
  }
  for (const auto& [chunk, offsets] : claimed_)
    if (next_.count(chunk) == 0) ++stamps_[chunk], ++revision_;
  claimed_.swap(next_);
}

std::span<const uint16_t> VoxelClaims::of(const VoxelChunkKey& chunk) const {
  const auto it = claimed_.find(chunk);
  return it == claimed_.end() ? std::span<const uint16_t>{} : std::span<const uint16_t>(it->second);
}

uint32_t VoxelClaims::stamp(const VoxelChunkKey& chunk) const {
  const auto it = stamps_.find(chunk);
  return it == stamps_.end() ? 0 : it->second;
}

std::size_t VoxelClaims::claimed_cells() const {
  std::size_t n = 0;
  for (const auto& [chunk, offsets] : claimed_) n += offsets.size();
  return n;
}

}  // namespace tickwire::world
