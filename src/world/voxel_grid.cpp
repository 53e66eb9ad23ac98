// A voxel grid's authored cells, laid out dense from its fills, and the arithmetic of its chunks.
#include "tickwire/world/voxel_grid.h"

#include <algorithm>

#include "tickwire/core/assert.h"

namespace tickwire::world {
namespace {

// FNV-1a over the palette: each block's name, a separator, its solidity.
uint32_t hash_palette(const std::vector<VoxelBlock>& blocks) {
  uint32_t h = 2166136261u;
  const auto mix = [&h](uint8_t byte) {
    h ^= byte;
    h *= 16777619u;
  };
  for (const VoxelBlock& block : blocks) {
    for (char c : block.name) mix(static_cast<uint8_t>(c));
    mix(0);
    mix(block.solid ? 1 : 0);
  }
  return h;
}

uint16_t chunks_along(uint16_t cells, uint8_t edge) { return static_cast<uint16_t>((cells + edge - 1) / edge); }

}  // namespace

VoxelGrid::VoxelGrid(const VoxelGridDef& def) : def_(def) {
  TW_ASSERT(def.chunk_edge > 0 && def.size[0] > 0 && def.size[1] > 0 && def.size[2] > 0, "a valid grid");
  TW_ASSERT(def.blocks.size() <= kMaxVoxelBlocks, "a palette within its cap");
  for (int axis = 0; axis < 3; ++axis) chunks_[axis] = chunks_along(def.size[axis], def.chunk_edge);
  blocks_layer_ = hash_palette(def.blocks);
  solid_[kVoxelAir] = false;
  for (std::size_t b = 0; b < def.blocks.size(); ++b) solid_[b + 1] = def.blocks[b].solid;
  cells_.assign(std::size_t{def.size[0]} * def.size[1] * def.size[2], kVoxelAir);
  for (const VoxelFill& fill : def.fills) {
    TW_ASSERT(contains(fill.min) && contains(fill.max) && fill.block <= def.blocks.size(), "a valid fill");
    TW_ASSERT(fill.min[0] <= fill.max[0] && fill.min[1] <= fill.max[1] && fill.min[2] <= fill.max[2], "min <= max");
    // x is the dense layout's fastest axis: each (y, z) row of the fill is one contiguous run.
    const std::size_t run = std::size_t{fill.max[0]} - fill.min[0] + 1;
    for (uint32_t y = fill.min[1]; y <= fill.max[1]; ++y)
      for (uint32_t z = fill.min[2]; z <= fill.max[2]; ++z) {
        const auto first = cells_.begin() + static_cast<std::ptrdiff_t>(dense_index(
                                                {fill.min[0], static_cast<uint16_t>(y), static_cast<uint16_t>(z)}));
        std::fill(first, first + static_cast<std::ptrdiff_t>(run), fill.block);
      }
  }
}

bool VoxelGrid::contains(const VoxelCell& cell) const {
  return cell[0] < def_.size[0] && cell[1] < def_.size[1] && cell[2] < def_.size[2];
}

uint32_t VoxelGrid::chunk_of(const VoxelCell& cell) const {
  const uint8_t e = def_.chunk_edge;
  return (uint32_t{static_cast<uint16_t>(cell[1] / e)} * chunks_[2] + cell[2] / e) * chunks_[0] + cell[0] / e;
}

uint16_t VoxelGrid::offset_in_chunk(const VoxelCell& cell) const {
  const uint8_t e = def_.chunk_edge;
  return static_cast<uint16_t>((uint32_t{static_cast<uint16_t>(cell[1] % e)} * e + cell[2] % e) * e + cell[0] % e);
}

VoxelCell VoxelGrid::chunk_origin(uint32_t chunk) const {
  TW_ASSERT(chunk < chunk_count(), "a chunk of the grid");
  const uint8_t e = def_.chunk_edge;
  const uint32_t x = chunk % chunks_[0];
  const uint32_t z = (chunk / chunks_[0]) % chunks_[2];
  const uint32_t y = chunk / (uint32_t{chunks_[0]} * chunks_[2]);
  return {static_cast<uint16_t>(x * e), static_cast<uint16_t>(y * e), static_cast<uint16_t>(z * e)};
}

VoxelCell VoxelGrid::cell_at(uint32_t chunk, uint16_t offset) const {
  const uint8_t e = def_.chunk_edge;
  const VoxelCell origin = chunk_origin(chunk);
  return {static_cast<uint16_t>(origin[0] + offset % e), static_cast<uint16_t>(origin[1] + offset / (e * e)),
          static_cast<uint16_t>(origin[2] + (offset / e) % e)};
}

Aabb voxel_cell_box(const VoxelGrid& grid, const Vec3& origin, const VoxelCell& cell) {
  const float c = grid.cell_m();
  const Vec3 min = origin + Vec3{cell[0] * c, cell[1] * c, cell[2] * c};
  return Aabb{min, min + Vec3{c, c, c}};
}

}  // namespace tickwire::world
