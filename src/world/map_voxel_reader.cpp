// Reads a voxel grid of a map file: {"name", "size", "cellM", "chunkEdge", "blocks", "fills"}, each
// required; a block is {"name", "solid"?}, a fill {"min", "max", "block"}. Cell coordinates, sizes,
// edges and block ids are JSON integers (1.0 is refused); ranges are Map::build's to judge, except
// what the definition's integer types cannot hold.
#include "map_voxel_reader.h"

#include "map_json_fields.h"
#include "map_validate.h"

namespace tickwire::world::detail {
namespace {

Found fail(MapErrorCode code, std::string path, std::string message) {
  return MapError{code, std::move(path), std::move(message)};
}

constexpr uint64_t kMaxCellCoordinate = 0xffff;  // a VoxelCell axis
constexpr uint64_t kMaxByte = 0xff;              // a chunk edge, a block id

// [x, y, z] of integers, refused at the array's path like any vector.
Found read_cell(const json& j, const std::string& path, VoxelCell& out) {
  if (!j.is_array()) return fail(MapErrorCode::wrong_type, path, "expected 3 integers");
  if (j.size() != out.size())
    return fail(MapErrorCode::wrong_length, path, "expected 3 integers, got " + std::to_string(j.size()));
  for (std::size_t axis = 0; axis < out.size(); ++axis) {
    uint64_t value = 0;
    if (auto e = read_uint(j[axis], path, kMaxCellCoordinate, value)) return e;
    out[axis] = static_cast<uint16_t>(value);
  }
  return std::nullopt;
}

Found read_byte(const json& j, const std::string& path, uint8_t& out) {
  uint64_t value = 0;
  if (auto e = read_uint(j, path, kMaxByte, value)) return e;
  out = static_cast<uint8_t>(value);
  return std::nullopt;
}

Found read_block(const json& j, const std::string& at, VoxelBlock& out) {
  if (auto e = expect_object(j, at, {"name", "solid"})) return e;
  const json* field = nullptr;
  if (auto e = require(j, "name", at, field); e || (e = read_string(*field, path_field(at, "name"), out.name))) return e;
  if (const json* solid = member(j, "solid")) {
    if (!solid->is_boolean()) return fail(MapErrorCode::wrong_type, path_field(at, "solid"), "expected true or false");
    out.solid = solid->get<bool>();
  }
  return std::nullopt;
}

Found read_fill(const json& j, const std::string& at, VoxelFill& out) {
  if (auto e = expect_object(j, at, {"min", "max", "block"})) return e;
  const json* field = nullptr;
  if (auto e = require(j, "min", at, field); e || (e = read_cell(*field, path_field(at, "min"), out.min))) return e;
  if (auto e = require(j, "max", at, field); e || (e = read_cell(*field, path_field(at, "max"), out.max))) return e;
  if (auto e = require(j, "block", at, field); e || (e = read_byte(*field, path_field(at, "block"), out.block))) return e;
  return std::nullopt;
}

// A required list field, each entry read into `out` by `read_one`; the cap is checked first.
template <class Entry, class ReadOne>
Found read_entries(const json& j, std::string_view name, const std::string& at, std::size_t cap, std::vector<Entry>& out,
                   ReadOne read_one) {
  const json* list = nullptr;
  if (auto e = require(j, name, at, list)) return e;
  if (auto e = list_field(j, name, at, cap, list)) return e;
  const std::string path = path_field(at, name);
  out.resize(list->size());
  for (std::size_t i = 0; i < list->size(); ++i)
    if (auto e = read_one((*list)[i], path_index(path, i), out[i])) return e;
  return std::nullopt;
}

}  // namespace

Found read_voxel_grid(const json& j, const std::string& at, MapContent& content) {
  if (auto e = expect_object(j, at, {"name", "size", "cellM", "chunkEdge", "blocks", "fills"})) return e;
  const json* field = nullptr;
  VoxelGridDef grid;
  if (auto e = require(j, "name", at, field); e || (e = read_string(*field, path_field(at, "name"), grid.name))) return e;
  if (auto e = require(j, "size", at, field); e || (e = read_cell(*field, path_field(at, "size"), grid.size))) return e;
  if (auto e = require(j, "cellM", at, field); e || (e = read_float(*field, path_field(at, "cellM"), grid.cell_m)))
    return e;
  if (auto e = require(j, "chunkEdge", at, field); e || (e = read_byte(*field, path_field(at, "chunkEdge"), grid.chunk_edge)))
    return e;
  if (auto e = read_entries(j, "blocks", at, kMaxVoxelBlocks, grid.blocks, read_block)) return e;
  if (auto e = read_entries(j, "fills", at, kMaxVoxelFills, grid.fills, read_fill)) return e;
  content.voxel_grids.push_back(std::move(grid));
  return std::nullopt;
}

}  // namespace tickwire::world::detail
