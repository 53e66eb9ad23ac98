// Voxel maps built in code for the world tests and the voxelCells fuzz target: a flat map's content
// around one grid, a voxel_volume component placing grid 0, and the fuzz target's own map (one grid
// with partial chunks and a non-solid block, placed as objects 0 and 2; object 1 is no volume).
#pragma once

#include <string>
#include <utility>

#include "tickwire/core/assert.h"
#include "tickwire/world/map.h"
#include "tickwire/world/voxel_placements.h"

namespace tickwire::test {

// A flat (version 2) map named `name` with one spawn at the origin and `grid` as its only grid.
inline world::MapContent voxel_map_content(std::string name, world::VoxelGridDef grid) {
  world::MapContent content;
  content.version = world::kMapFormatFlatVersion;
  content.name = std::move(name);
  content.spawn_points = {world::SpawnPoint{{0, 0, 0}, 0}};
  content.voxel_grids = {std::move(grid)};
  return content;
}

// A solid voxel_volume component placing grid 0.
inline world::ObjectComponent voxel_volume_component() {
  world::ObjectComponent volume;
  volume.name = "voxel_volume";
  volume.bits = world::kVoxelSolidBit;
  world::ComponentSetting grid;
  grid.name = "grid";
  grid.count = 1;
  volume.settings = {grid};
  return volume;
}

inline world::Map build_test_map(world::MapContent content) {
  auto built = world::Map::build(std::move(content));
  TW_ASSERT(built.ok(), "the test's voxel map builds");
  return std::move(built).value();
}

inline const world::Map& voxel_fuzz_map() {
  static const world::Map map = [] {
    using namespace tickwire::world;
    VoxelGridDef grid;
    grid.name = "g";
    grid.size = {20, 6, 12};
    grid.cell_m = 0.5f;
    grid.chunk_edge = 8;
    grid.blocks = {{"stone", true}, {"mist", false}};
    grid.fills = {{{0, 0, 0}, {19, 0, 11}, 1}};
    MapContent content = voxel_map_content("fuzz", grid);
    for (int i = 0; i < 3; ++i) {
      MapObject object;
      object.key = "o" + std::to_string(i);
      object.kind = i == 1 ? "crate" : "voxel_volume";
      if (i != 1) object.components = {voxel_volume_component()};
      content.objects.push_back(object);
    }
    return build_test_map(std::move(content));
  }();
  return map;
}

}  // namespace tickwire::test
