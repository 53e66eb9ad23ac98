// The rules a map's content must meet (docs/map-format.md, "Rules"), checked in file order so the
// first violation reported is the first one in the file. Private to world/: Map::build calls it.
#pragma once

#include <optional>
#include <span>
#include <vector>
#include <string>
#include <string_view>

#include "tickwire/world/map.h"

namespace tickwire::world::detail {

// Versions 1 and 2: every rule. Version 3: every rule of the authored records (map_record_validate.cpp);
// what only the resolved objects can show is check_objects' once Map::build has resolved them.
std::optional<MapError> validate_map_content(const MapContent& content);
// The version 3 records as authored: identifiers, values, caps, one override per part.
std::optional<MapError> check_map_records(const MapContent& content);
// The flat objects: each part's rules and unique keys. origins[i] names object i's path in the file
// (a placement, or the carried child it came from); nullptr: "objects[i]", the flat file's own.
// `voxel_grids` is how many grids the map defines (what a voxel volume's `grid` may index).
std::optional<MapError> check_objects(std::span<const MapObject> objects, uint32_t version, std::size_t voxel_grids,
                                      const std::vector<std::string>* origins);
// The voxel grids (map_voxel_validate.cpp): names, sizes, cell and chunk edges, palettes, fills.
std::optional<MapError> check_voxel_grids(const MapContent& content);
// An object's `voxel_volume` component, if it has one (its settings already checked): neither
// rotated nor scaled, its grid one of the map's `grid_count`.
std::optional<MapError> check_voxel_volume(const MapObject& object, std::size_t grid_count, const std::string& at);

// Single values, shared with the record checks; each refuses at `path`.
std::optional<MapError> check_identifier(const std::string& value, const std::string& path);
std::optional<MapError> check_point(Vec3 v, const std::string& path);
std::optional<MapError> check_rotation(const Quat& q, const std::string& path);
std::optional<MapError> check_scale(const Vec3& scale, const std::string& path);
// A setting against the table of the component it belongs to (`at` is the settings object's path).
std::optional<MapError> check_component_setting(std::string_view component, const ComponentSetting& setting,
                                                const std::string& at);
std::optional<MapError> check_action(const MapAction& action, const std::string& at);

// A list count against its cap: the JSON reader checks before it allocates, validation again.
std::optional<MapError> check_count(std::size_t count, std::size_t cap, std::string_view path);
// "objects" + 12 -> "objects[12]"; "objects[12]" + "key" -> "objects[12].key".
std::string path_index(std::string_view path, std::size_t index);
std::string path_field(std::string_view path, std::string_view field);

}  // namespace tickwire::world::detail
