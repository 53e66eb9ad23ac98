// The rules of a map's voxel grids and of the objects that place them (docs/map-format.md, "Voxel
// grids"), checked before any grid is resolved: VoxelGrid's constructor trusts its definition, so
// every size, cap and fill bound it relies on is refused here first, at its JSON path.
#include <cmath>

#include "map_validate.h"
#include "tickwire/world/logic_components.h"

namespace tickwire::world::detail {
namespace {

using Found = std::optional<MapError>;

Found fail(MapErrorCode code, std::string path, std::string message) {
  return MapError{code, std::move(path), std::move(message)};
}

Found check_size(const VoxelCell& size, const std::string& path) {
  for (uint16_t cells : size)
    if (cells < 1 || cells > kMaxVoxelGridEdgeCells)
      return fail(MapErrorCode::out_of_range, path,
                  "each axis holds 1 to " + std::to_string(kMaxVoxelGridEdgeCells) + " cells");
  const uint64_t cells = uint64_t{size[0]} * size[1] * size[2];
  if (cells > kMaxVoxelGridCells)
    return fail(MapErrorCode::out_of_range, path,
                std::to_string(cells) + " cells, at most " + std::to_string(kMaxVoxelGridCells) + " in one grid");
  return std::nullopt;
}

Found check_cell_m(float cell_m, const std::string& path) {
  if (!std::isfinite(cell_m)) return fail(MapErrorCode::not_finite, path, "expected a finite number");
  if (cell_m < kMinVoxelCellM || cell_m > kMaxVoxelCellM)
    return fail(MapErrorCode::out_of_range, path, "a cell's edge lies in [0.05, 16] metres");
  return std::nullopt;
}

Found check_chunk_edge(uint8_t edge, const std::string& path) {
  for (uint8_t allowed : kVoxelChunkEdges)
    if (edge == allowed) return std::nullopt;
  return fail(MapErrorCode::out_of_range, path, "a chunk's edge is 4, 8, 16 or 32 cells");
}

Found check_blocks(const std::vector<VoxelBlock>& blocks, const std::string& at) {
  const std::string list = path_field(at, "blocks");
  if (auto e = check_count(blocks.size(), kMaxVoxelBlocks, list)) return e;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const std::string name = path_field(path_index(list, b), "name");
    if (auto e = check_identifier(blocks[b].name, name)) return e;
    for (std::size_t earlier = 0; earlier < b; ++earlier)
      if (blocks[earlier].name == blocks[b].name)
        return fail(MapErrorCode::duplicate_key, name,
                    "block \"" + blocks[b].name + "\" also at " + path_index(list, earlier));
  }
  return std::nullopt;
}

// Each fill within the grid, min <= max, naming air or a block of the palette; the cells the fills
// cover together within kMaxVoxelFillCells (what resolving the grid writes).
Found check_fills(const VoxelGridDef& grid, const std::string& at) {
  const std::string list = path_field(at, "fills");
  if (auto e = check_count(grid.fills.size(), kMaxVoxelFills, list)) return e;
  uint64_t covered = 0;
  for (std::size_t f = 0; f < grid.fills.size(); ++f) {
    const VoxelFill& fill = grid.fills[f];
    const std::string path = path_index(list, f);
    uint64_t cells = 1;
    for (std::size_t axis = 0; axis < 3; ++axis) {
      if (fill.min[axis] > fill.max[axis])
        return fail(MapErrorCode::box_inverted, path, "min exceeds max on some axis");
      if (fill.max[axis] >= grid.size[axis])
        return fail(MapErrorCode::out_of_range, path_field(path, "max"), "a fill lies inside its grid: max < size");
      cells *= uint64_t{fill.max[axis]} - fill.min[axis] + 1u;
    }
    if (fill.block > grid.blocks.size())
      return fail(MapErrorCode::out_of_range, path_field(path, "block"),
                  "block " + std::to_string(fill.block) + ", but the palette holds " + std::to_string(grid.blocks.size()) +
                      " (0 is air)");
    covered += cells;
    if (covered > kMaxVoxelFillCells)
      return fail(MapErrorCode::count_over_max, path,
                  "the fills cover more than " + std::to_string(kMaxVoxelFillCells) + " cells together");
  }
  return std::nullopt;
}

Found check_grid(const VoxelGridDef& grid, const std::string& at) {
  if (auto e = check_size(grid.size, path_field(at, "size"))) return e;
  if (auto e = check_cell_m(grid.cell_m, path_field(at, "cellM"))) return e;
  if (auto e = check_chunk_edge(grid.chunk_edge, path_field(at, "chunkEdge"))) return e;
  if (auto e = check_blocks(grid.blocks, at)) return e;
  return check_fills(grid, at);
}

}  // namespace

Found check_voxel_grids(const MapContent& content) {
  const auto& grids = content.voxel_grids;
  if (grids.empty()) return std::nullopt;
  if (content.version < 2) return fail(MapErrorCode::unsupported_version, "voxelGrids", "a version 2 field");
  if (auto e = check_count(grids.size(), kMaxVoxelGrids, "voxelGrids")) return e;
  for (std::size_t g = 0; g < grids.size(); ++g) {
    const std::string at = path_index("voxelGrids", g);
    if (auto e = check_identifier(grids[g].name, path_field(at, "name"))) return e;
    for (std::size_t earlier = 0; earlier < g; ++earlier)
      if (grids[earlier].name == grids[g].name)
        return fail(MapErrorCode::duplicate_key, path_field(at, "name"),
                    "grid \"" + grids[g].name + "\" also at " + path_index("voxelGrids", earlier));
    if (auto e = check_grid(grids[g], at)) return e;
  }
  return std::nullopt;
}

Found check_voxel_volume(const MapObject& object, std::size_t grid_count, const std::string& at) {
  const std::string_view name = voxel_volume_spec().component;
  for (std::size_t k = 0; k < object.components.size(); ++k) {
    const ObjectComponent& volume = object.components[k];
    if (volume.name != name) continue;
    // The transform comes before the components in an object: refused first.
    if (object.rotation && !(*object.rotation == Quat{}))
      return fail(MapErrorCode::voxel_volume_transformed, path_field(at, "rotation"),
                  "a voxel volume is axis-aligned: its rotation, if stated, is [0, 0, 0, 1]");
    if (object.scale)
      return fail(MapErrorCode::voxel_volume_transformed, path_field(at, "scale"), "a voxel volume takes no scale");
    const float grid = setting_number(volume, "grid");
    if (grid >= static_cast<float>(grid_count))
      return fail(MapErrorCode::out_of_range,
                  path_field(path_field(path_index(path_field(at, "components"), k), "settings"), "grid"),
                  "grid " + std::to_string(static_cast<uint32_t>(grid)) + ", but the map defines " +
                      std::to_string(grid_count) + " voxel grid" + (grid_count == 1 ? "" : "s"));
  }
  return std::nullopt;
}

}  // namespace tickwire::world::detail
