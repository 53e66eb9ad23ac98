// What both dashboards (`tickwire server --http`, `tickwire bot --http`) take from their command
// line and their map: the --http flag's listen address, and the map's static scene the top-down
// views draw under the entities.
#pragma once

#include <string>

#include "tickwire/world/map.h"

namespace tickwire::cli {

// "PORT" (loopback) or "HOST:PORT" as given to --http, as the numeric HOST:PORT to listen on; empty
// when it is neither.
std::string http_listen_address(const std::string& flag);
// The map's static scene for the top-down view: {"name","bounds":[minx,minz,maxx,maxz],"boxes":[[minx,
// minz,maxx,maxz]...],"objects":[{"index","key","kind","x","z"}...],"interest_radius_m"}.
std::string map_layout_json(const world::Map& map, double interest_radius_m);

}  // namespace tickwire::cli
