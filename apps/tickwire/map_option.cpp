// Loading --map's file, or the built-in reference map.
#include "map_option.h"

#include <cstdio>

#include "tickwire/world/map_loader.h"
#include "tickwire/world/reference_map.h"

namespace tickwire::cli {

std::optional<world::Map> load_map_option(const std::string& path, const char* command) {
  auto loaded = path.empty() ? world::load_map(world::reference_map_text()) : world::load_map_file(path);
  if (!loaded) {
    std::fprintf(stderr, "%s: map %s: %s\n", command, path.empty() ? "(built-in)" : path.c_str(), loaded.error().text().c_str());
    return std::nullopt;
  }
  return std::move(loaded).value();
}

}  // namespace tickwire::cli
