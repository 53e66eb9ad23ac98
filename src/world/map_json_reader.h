// JSON document -> MapContent: types, shapes, required and unknown fields. Value rules (ranges,
// finite floats, unique keys) are Map::build's; list caps are checked here too, before anything is
// allocated for a list. Private to world/ (it exposes nlohmann::json, which tickwire_world links
// privately).
#pragma once

#include <nlohmann/json.hpp>

#include "tickwire/world/map.h"

namespace tickwire::world::detail {

MapResult<MapContent> read_map_json(const nlohmann::json& root);

}  // namespace tickwire::world::detail
