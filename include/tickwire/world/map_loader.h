// The map file boundary: JSON text (or a file) in, a valid Map or a named MapError out. The text is
// untrusted: sizes are capped before parsing, unknown fields are refused, and no exception of the
// JSON library escapes.
#pragma once

#include <filesystem>
#include <string_view>

#include "tickwire/world/map.h"

namespace tickwire::world {

MapResult<Map> load_map(std::string_view json_text);
// Reads at most kMaxMapFileBytes + 1 bytes (a device or a growing file cannot make it read more).
MapResult<Map> load_map_file(const std::filesystem::path& path);

}  // namespace tickwire::world
