// JSON -> a map's voxel grids (map_voxel_reader.cpp): each grid's fields, palette and fills, their
// types and shapes checked at their JSON paths, every list's count before anything is allocated.
// Private to world/.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "tickwire/world/map.h"

namespace tickwire::world::detail {

// One entry of the root's `voxelGrids` list (at `at`, e.g. "voxelGrids[2]"), appended to content.voxel_grids.
std::optional<MapError> read_voxel_grid(const nlohmann::json& j, const std::string& at, MapContent& content);

}  // namespace tickwire::world::detail
