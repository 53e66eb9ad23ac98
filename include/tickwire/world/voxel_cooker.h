// The one face pass both ends cook a voxel chunk with: the chunk's solid cells (authored, the
// session's writes laid over them, the cells a present block replica claims taken out) merged into
// as few boxes as a greedy sweep finds, x first, then z, then y. The server steps its pawns against
// these boxes and the client's prediction against the very same ones, so near a player the two
// worlds are one, cell for cell.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tickwire/world/vec3.h"
#include "tickwire/world/voxel_cells.h"
#include "tickwire/world/voxel_grid.h"

namespace tickwire::world {

// Which of a chunk's cells are solid, one byte per cell at its offset (VoxelGrid::offset_in_chunk),
// cells_per_chunk() of them: the authored block, or the written one where `writes` holds it (null:
// none), and never a cell whose offset `claimed` lists (sorted; a present replica stands for it).
// Cells of a chunk that lie outside the grid are not solid.
void voxel_chunk_solids(const VoxelGrid& grid, uint32_t chunk, const VoxelChunkWrites* writes,
                        std::span<const uint16_t> claimed, std::vector<uint8_t>& solid);

// The boxes of a chunk's solid cells (from voxel_chunk_solids) for a volume whose cell (0, 0, 0)
// has its min corner at `origin`, appended to `out`: every solid cell in exactly one box, no box
// holding a cell that is not solid.
void cook_voxel_chunk(const VoxelGrid& grid, const Vec3& origin, uint32_t chunk, std::span<const uint8_t> solid,
                      std::vector<Aabb>& out);

// The world box a chunk of a volume covers (its cells inside the grid).
Aabb voxel_chunk_bounds(const VoxelGrid& grid, const Vec3& origin, uint32_t chunk);

}  // namespace tickwire::world
