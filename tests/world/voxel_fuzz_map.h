// The map fuzz_voxel_cells reads its payloads against, shared with the test that pins its seed
// corpus: one grid with partial chunks and a non-solid block, placed as objects 0 and 2 (object 1 is
// no volume).
#pragma once

#include <string>

#include "tickwire/core/assert.h"
#include "tickwire/world/map.h"

namespace tickwire::test {

inline const world::Map& voxel_fuzz_map() {
  static const world::Map map = [] {
    using namespace tickwire::world;
    MapContent content;
    content.version = kMapFormatFlatVersion;
    content.name = "fuzz";
    content.spawn_points = {SpawnPoint{{0, 0, 0}, 0}};
    VoxelGridDef grid;
    grid.name = "g";
    grid.size = {20, 6, 12};
    grid.cell_m = 0.5f;
    grid.chunk_edge = 8;
    grid.blocks = {{"stone", true}, {"mist", false}};
    grid.fills = {{{0, 0, 0}, {19, 0, 11}, 1}};
    content.voxel_grids = {grid};
    ObjectComponent volume;
    volume.name = "voxel_volume";
    volume.bits = 1;
    ComponentSetting setting;
    setting.name = "grid";
    setting.count = 1;
    volume.settings = {setting};
    for (int i = 0; i < 3; ++i) {
      MapObject object;
      object.key = "o" + std::to_string(i);
      object.kind = i == 1 ? "crate" : "voxel_volume";
      if (i != 1) object.components = {volume};
      content.objects.push_back(object);
    }
    auto built = Map::build(std::move(content));
    TW_ASSERT(built.ok(), "the voxel fuzz map builds");
    return std::move(built).value();
  }();
  return map;
}

}  // namespace tickwire::test
