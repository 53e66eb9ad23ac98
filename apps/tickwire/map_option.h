// The --map option the server, bot and replay commands share: a map file, or the built-in
// reference map when none is named; a map that does not load is said on stderr, named by command.
#pragma once

#include <optional>
#include <string>

#include "tickwire/world/map.h"

namespace tickwire::cli {

// The map at `path` (empty: the built-in reference map), or nullopt after "`command`: map PATH: why".
std::optional<world::Map> load_map_option(const std::string& path, const char* command);

}  // namespace tickwire::cli
