// JSON -> the version 3 records of a map (map_record.h): the `sources` section and the `objects`
// list as placements, each field's type and shape checked at its JSON path. Private to world/.
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "tickwire/world/map.h"

namespace tickwire::world::detail {

// The root's optional `sources` object, in name order, into content.sources.
std::optional<MapError> read_map_sources(const nlohmann::json& root, MapContent& content);
// One entry of the root's `objects` list (at `at`, e.g. "objects[4]") as a placement.
std::optional<MapError> read_map_placement(const nlohmann::json& j, const std::string& at, MapContent& content);

}  // namespace tickwire::world::detail
