// The reference map (maps/reference.json) compiled into tickwire_world, so `tickwire demo` and
// `tickwire server` run with no map file on a fresh machine.
#pragma once

#include <string_view>

namespace tickwire::world {

// The exact bytes of maps/reference.json at build time.
std::string_view reference_map_text();

}  // namespace tickwire::world
