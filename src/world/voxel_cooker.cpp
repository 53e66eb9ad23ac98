// The greedy face pass: a chunk's solid cells into boxes. A run along x, widened along z while the
// whole run is solid, then raised along y while the whole rectangle is: a flat floor chunk is one
// box, a staircase one box per step.
#include "tickwire/world/voxel_cooker.h"

#include <algorithm>

#include "tickwire/core/assert.h"

namespace tickwire::world {
namespace {

// The corner `(x, y, z)` cells past a chunk's first cell, in metres from the volume's origin (cell
// counts stay below 2^11, exact in a float).
Vec3 corner(const VoxelCell& first, uint32_t x, uint32_t y, uint32_t z, float cell_m) {
  return Vec3{static_cast<float>(first[0] + x) * cell_m, static_cast<float>(first[1] + y) * cell_m,
              static_cast<float>(first[2] + z) * cell_m};
}

}  // namespace

void voxel_chunk_solids(const VoxelGrid& grid, uint32_t chunk, const VoxelChunkWrites* writes,
                        std::span<const uint16_t> claimed, std::vector<uint8_t>& solid) {
  const uint32_t e = grid.chunk_edge();
  solid.assign(grid.cells_per_chunk(), 0);
  const VoxelCell first = grid.chunk_origin(chunk);
  const VoxelCell& size = grid.size();
  // The chunk's cells inside the grid, row by row (offset = (y * e + z) * e + x).
  const uint32_t nx = std::min<uint32_t>(e, size[0] - first[0]);
  const uint32_t ny = std::min<uint32_t>(e, size[1] - first[1]);
  const uint32_t nz = std::min<uint32_t>(e, size[2] - first[2]);
  for (uint32_t y = 0; y < ny; ++y)
    for (uint32_t z = 0; z < nz; ++z)
      for (uint32_t x = 0; x < nx; ++x) {
        const VoxelCell cell{static_cast<uint16_t>(first[0] + x), static_cast<uint16_t>(first[1] + y),
                             static_cast<uint16_t>(first[2] + z)};
        solid[(y * e + z) * e + x] = grid.solid(grid.authored(cell)) ? 1 : 0;
      }
  if (writes != nullptr) {
    for (const VoxelWrite& w : writes->writes)
      if (w.offset < solid.size() && grid.contains(grid.cell_at(chunk, w.offset))) solid[w.offset] = grid.solid(w.block) ? 1 : 0;
  }
  for (uint16_t offset : claimed)
    if (offset < solid.size()) solid[offset] = 0;
}

void cook_voxel_chunk(const VoxelGrid& grid, const Vec3& origin, uint32_t chunk, std::span<const uint8_t> solid,
                      std::vector<Aabb>& out) {
  const uint32_t e = grid.chunk_edge();
  TW_ASSERT(solid.size() == grid.cells_per_chunk(), "one solidity per cell of the chunk");
  const auto at = [e](uint32_t x, uint32_t y, uint32_t z) { return (y * e + z) * e + x; };
  std::vector<uint8_t> open(solid.begin(), solid.end());  // solid and not yet in a box
  const VoxelCell first = grid.chunk_origin(chunk);
  const float c = grid.cell_m();
  for (uint32_t y = 0; y < e; ++y) {
    for (uint32_t z = 0; z < e; ++z) {
      for (uint32_t x = 0; x < e; ++x) {
        if (!open[at(x, y, z)]) continue;
        uint32_t x1 = x + 1;
        while (x1 < e && open[at(x1, y, z)]) ++x1;
        const auto row_open = [&](uint32_t yy, uint32_t zz) {
          for (uint32_t xx = x; xx < x1; ++xx)
            if (!open[at(xx, yy, zz)]) return false;
          return true;
        };
        uint32_t z1 = z + 1;
        while (z1 < e && row_open(y, z1)) ++z1;
        uint32_t y1 = y + 1;
        while (y1 < e) {
          bool layer = true;
          for (uint32_t zz = z; zz < z1 && layer; ++zz) layer = row_open(y1, zz);
          if (!layer) break;
          ++y1;
        }
        for (uint32_t yy = y; yy < y1; ++yy)
          for (uint32_t zz = z; zz < z1; ++zz)
            for (uint32_t xx = x; xx < x1; ++xx) open[at(xx, yy, zz)] = 0;
        const Vec3 min = origin + corner(first, x, y, z, c);
        const Vec3 max = origin + corner(first, x1, y1, z1, c);
        out.push_back(Aabb{min, max});
      }
    }
  }
}

Aabb voxel_chunk_bounds(const VoxelGrid& grid, const Vec3& origin, uint32_t chunk) {
  const VoxelCell first = grid.chunk_origin(chunk);
  const float c = grid.cell_m();
  VoxelCell last{};
  for (int axis = 0; axis < 3; ++axis)
    last[axis] = static_cast<uint16_t>(std::min<uint32_t>(first[axis] + grid.chunk_edge(), grid.size()[axis]));
  return Aabb{origin + corner(first, 0, 0, 0, c), origin + corner(last, 0, 0, 0, c)};
}

}  // namespace tickwire::world
