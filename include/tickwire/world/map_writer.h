// A map's canonical JSON text: fixed member order, one box, spawn point, voxel grid or object per line, each
// number the shortest decimal that reads back as the same float. load_map(save_map(m)) equals m,
// and the map's content hash is the hash of this text.
#pragma once

#include <string>

#include "tickwire/world/map.h"

namespace tickwire::world {

std::string save_map(const Map& map);
// The same text for content not (yet) built into a Map; Map::build hashes it.
std::string canonical_map_text(const MapContent& content);
// One float in canonical form ("-0" is written "0"); exposed so tests can pin the format.
std::string canonical_map_number(float value);

}  // namespace tickwire::world
