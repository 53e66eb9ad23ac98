// A voxel grid: a box of cells, each holding one block of the grid's palette (0 is air), cut into
// cubic chunks. The map authors a grid once (its size, cell edge, chunk edge, palette and fills) and
// places it as many times as it likes (a `voxel_volume` object names the grid); both ends resolve the
// same authored cells from the same map, so only what a session writes ever travels (voxel_cells.h).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "tickwire/world/vec3.h"

namespace tickwire::world {

inline constexpr std::size_t kMaxVoxelGrids = 64;          // grids one map defines
inline constexpr uint32_t kMaxVoxelGridCells = 1u << 21;   // cells of one grid (2 MiB of blocks)
inline constexpr uint16_t kMaxVoxelGridEdgeCells = 1024;   // cells along any one axis
inline constexpr std::size_t kMaxVoxelBlocks = 255;         // palette entries (block ids 1..255; 0 is air)
inline constexpr std::size_t kMaxVoxelFills = 4096;         // fills one grid authors
// Cells one grid's fills cover, summed over its fills (overlaps count twice): what resolving a grid
// writes is bounded by this, not by fills x cells (4,096 whole-grid fills would be 8.6e9 writes).
inline constexpr uint32_t kMaxVoxelFillCells = 4 * kMaxVoxelGridCells;
inline constexpr float kMinVoxelCellM = 0.05f;
inline constexpr float kMaxVoxelCellM = 16.0f;
inline constexpr uint8_t kVoxelAir = 0;
// A chunk's edge in cells: one of these (a chunk of 32^3 cells numbers its cells in 15 bits).
inline constexpr std::array<uint8_t, 4> kVoxelChunkEdges = {4, 8, 16, 32};

// One block of a palette: its name (what a renderer draws, what a file and a client agree on) and
// whether a pawn collides with it.
struct VoxelBlock {
  std::string name;
  bool solid = true;
  friend bool operator==(const VoxelBlock&, const VoxelBlock&) = default;
};

// A cell coordinate (x, y, z), each within its grid's size.
using VoxelCell = std::array<uint16_t, 3>;

// Every cell from min to max (inclusive on every axis) holds `block`; later fills overwrite earlier.
struct VoxelFill {
  VoxelCell min{};
  VoxelCell max{};
  uint8_t block = kVoxelAir;
  friend bool operator==(const VoxelFill&, const VoxelFill&) = default;
};

// A grid as the map authors it (docs/map-format.md, "Voxel grids").
struct VoxelGridDef {
  std::string name;
  VoxelCell size{};  // cells along x, y, z
  float cell_m = 1.0f;
  uint8_t chunk_edge = 16;
  std::vector<VoxelBlock> blocks;  // blocks[i] is block id i + 1
  std::vector<VoxelFill> fills;
  friend bool operator==(const VoxelGridDef&, const VoxelGridDef&) = default;
};

// A grid resolved: its authored cells laid out dense, x fastest, then z, then y (a horizontal layer
// is contiguous). Built only from a valid definition (Map::build checks it first).
class VoxelGrid {
 public:
  explicit VoxelGrid(const VoxelGridDef& def);

  const VoxelGridDef& def() const { return def_; }
  const VoxelCell& size() const { return def_.size; }
  float cell_m() const { return def_.cell_m; }
  uint8_t chunk_edge() const { return def_.chunk_edge; }
  // Chunks along x, y, z (the last along an axis may be partly outside the grid).
  const VoxelCell& chunks() const { return chunks_; }
  uint32_t chunk_count() const { return uint32_t{chunks_[0]} * chunks_[1] * chunks_[2]; }
  uint32_t cells_per_chunk() const { return uint32_t{def_.chunk_edge} * def_.chunk_edge * def_.chunk_edge; }
  // A number that names the palette (its block names and solidity, in order): two ends whose layers
  // differ read each other's block ids differently, so a chunk carries it and a mismatch is refused.
  uint32_t blocks_layer() const { return blocks_layer_; }

  bool contains(const VoxelCell& cell) const;
  uint8_t authored(const VoxelCell& cell) const { return cells_[dense_index(cell)]; }
  bool solid(uint8_t block) const { return solid_[block]; }

  // The chunk a cell lies in, and the cell's place within it (x fastest, then z, then y).
  uint32_t chunk_of(const VoxelCell& cell) const;
  uint16_t offset_in_chunk(const VoxelCell& cell) const;
  // The first cell of a chunk, and a chunk's cell at `offset` (it may lie outside the grid: check
  // contains()).
  VoxelCell chunk_origin(uint32_t chunk) const;
  VoxelCell cell_at(uint32_t chunk, uint16_t offset) const;

 private:
  std::size_t dense_index(const VoxelCell& cell) const {
    return (std::size_t{cell[1]} * def_.size[2] + cell[2]) * def_.size[0] + cell[0];
  }
  VoxelGridDef def_;
  VoxelCell chunks_{};
  uint32_t blocks_layer_ = 0;
  std::vector<uint8_t> cells_;
  std::array<bool, 256> solid_{};
};

// The world box of a cell of a volume whose cell (0, 0, 0) has its min corner at `origin`.
Aabb voxel_cell_box(const VoxelGrid& grid, const Vec3& origin, const VoxelCell& cell);

}  // namespace tickwire::world
