// Resolves a version 3 map's records (sources, carried children, placements) into the flat objects
// everything downstream reads, once, at load. Private to world/: Map::build calls it.
#pragma once

#include <string>
#include <vector>

#include "tickwire/world/map.h"

namespace tickwire::world::detail {

struct ResolvedObjects {
  std::vector<MapObject> objects;    // placements in file order, each followed by its carried children
  std::vector<std::string> origins;  // objects[i]'s JSON path: its placement or the child record that made it
};

// The content's sources must be sorted by name and its records already checked (check_map_records).
MapResult<ResolvedObjects> resolve_map_records(const MapContent& content);

}  // namespace tickwire::world::detail
