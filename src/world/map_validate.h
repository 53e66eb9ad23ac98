// The rules a map's content must meet (docs/map-format.md, "Rules"), checked in file order so the
// first violation reported is the first one in the file. Private to world/: Map::build calls it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "tickwire/world/map.h"

namespace tickwire::world::detail {

std::optional<MapError> validate_map_content(const MapContent& content);

// A list count against its cap: the JSON reader checks before it allocates, validation again.
std::optional<MapError> check_count(std::size_t count, std::size_t cap, std::string_view path);
// "objects" + 12 -> "objects[12]"; "objects[12]" + "key" -> "objects[12].key".
std::string path_index(std::string_view path, std::size_t index);
std::string path_field(std::string_view path, std::string_view field);

}  // namespace tickwire::world::detail
