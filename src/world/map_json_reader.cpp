// Walks the parsed JSON of a map file into MapContent, one reader per part of the format, each
// naming the JSON path of whatever it refuses. Every field a part does not define is refused.
#include "map_json_reader.h"

#include <span>
#include <string_view>

#include "map_json_fields.h"
#include "map_record_reader.h"
#include "map_validate.h"
#include "map_voxel_reader.h"

namespace tickwire::world::detail {
namespace {

Found fail(MapErrorCode code, std::string path, std::string message) {
  return MapError{code, std::move(path), std::move(message)};
}

Found read_box(const json& j, const std::string& at, MapContent& c) {
  if (auto e = expect_object(j, at, {"tag", "material", "min", "max"})) return e;
  const json* field = nullptr;
  BoxSurface surface;
  Aabb box;
  if (auto e = require(j, "tag", at, field); e || (e = read_string(*field, path_field(at, "tag"), surface.tag))) return e;
  if (auto e = require(j, "material", at, field); e || (e = read_string(*field, path_field(at, "material"), surface.material)))
    return e;
  if (auto e = require(j, "min", at, field); e || (e = read_vec3(*field, path_field(at, "min"), box.min))) return e;
  if (auto e = require(j, "max", at, field); e || (e = read_vec3(*field, path_field(at, "max"), box.max))) return e;
  c.boxes.push_back(box);
  c.box_surfaces.push_back(std::move(surface));
  return std::nullopt;
}

Found read_spawn(const json& j, const std::string& at, MapContent& c) {
  if (auto e = expect_object(j, at, {"position", "yaw_deg"})) return e;
  const json* field = nullptr;
  SpawnPoint spawn;
  if (auto e = require(j, "position", at, field); e || (e = read_vec3(*field, path_field(at, "position"), spawn.position)))
    return e;
  if (auto e = require(j, "yaw_deg", at, field); e || (e = read_float(*field, path_field(at, "yaw_deg"), spawn.yaw_deg)))
    return e;
  c.spawn_points.push_back(spawn);
  return std::nullopt;
}

Found read_component(const json& j, const std::string& at, uint32_t version, ObjectComponent& out) {
  if (auto e = version >= 2 ? expect_object(j, at, {"name", "channels", "bits", "settings"})
                            : expect_object(j, at, {"name", "channels", "bits"}))
    return e;
  const json* field = nullptr;
  if (auto e = require(j, "name", at, field); e || (e = read_string(*field, path_field(at, "name"), out.name))) return e;
  if (const json* channels = member(j, "channels")) {
    std::size_t read = 0;
    if (auto e = read_floats(*channels, path_field(at, "channels"), kMaxComponentChannels, false, out.channels.data(), read))
      return e;
    out.channel_count = static_cast<uint8_t>(read);
  }
  if (const json* bits = member(j, "bits"))
    if (auto e = read_bits(*bits, path_field(at, "bits"), out.bits)) return e;
  if (const json* settings = member(j, "settings"))
    if (auto e = read_named(*settings, path_field(at, "settings"), kMaxComponentSettings, "settings", out.settings,
                            read_setting))
      return e;
  return std::nullopt;
}

Found read_object(const json& j, const std::string& at, MapContent& c) {
  if (auto e = c.version >= 2 ? expect_object(j, at, {"key", "kind", "position", "rotation", "scale", "components", "outputs"})
                              : expect_object(j, at, {"key", "kind", "position", "rotation", "scale", "components"}))
    return e;
  const json* field = nullptr;
  MapObject o;
  if (auto e = require(j, "key", at, field); e || (e = read_string(*field, path_field(at, "key"), o.key))) return e;
  if (auto e = require(j, "kind", at, field); e || (e = read_string(*field, path_field(at, "kind"), o.kind))) return e;
  if (auto e = require(j, "position", at, field); e || (e = read_vec3(*field, path_field(at, "position"), o.position)))
    return e;
  if (const json* rotation = member(j, "rotation")) {
    Quat q;
    if (auto e = read_quat(*rotation, path_field(at, "rotation"), q)) return e;
    o.rotation = q;
  }
  if (const json* scale = member(j, "scale")) {
    Vec3 s;
    if (auto e = read_vec3(*scale, path_field(at, "scale"), s)) return e;
    o.scale = s;
  }
  const json* components = nullptr;
  if (auto e = list_field(j, "components", at, kMaxObjectComponents, components)) return e;
  if (components != nullptr) {
    o.components.resize(components->size());
    for (std::size_t k = 0; k < components->size(); ++k)
      if (auto e = read_component((*components)[k], path_index(path_field(at, "components"), k), c.version,
                                  o.components[k]))
        return e;
  }
  if (const json* outputs = member(j, "outputs"))
    if (auto e = read_named(*outputs, path_field(at, "outputs"), kMaxObjectOutputs, "outputs", o.outputs, read_output))
      return e;
  c.objects.push_back(std::move(o));
  return std::nullopt;
}

// format and version come first: a file that is not a map, or a map of another version, is
// refused as such before any of its fields is judged.
Found read_header(const json& root, MapContent& c) {
  if (!root.is_object()) return fail(MapErrorCode::not_a_map, "", "a map file is one JSON object");
  const json* format = member(root, "format");
  if (format == nullptr || !format->is_string() || format->get_ref<const std::string&>() != kMapFormatMarker)
    return fail(MapErrorCode::not_a_map, "format", "expected \"tickwire-map\"");
  const json* version = member(root, "version");
  if (version == nullptr) return fail(MapErrorCode::missing_field, "version", "required field is missing");
  if (!version->is_number_integer()) return fail(MapErrorCode::wrong_type, "version", "expected an integer");
  if (!version->is_number_unsigned() || version->get<uint64_t>() < kMapFormatOldestVersion ||
      version->get<uint64_t>() > kMapFormatVersion)
    return fail(MapErrorCode::unsupported_version, "version",
                "this build reads versions " + std::to_string(kMapFormatOldestVersion) + " to " +
                    std::to_string(kMapFormatVersion));
  c.version = static_cast<uint32_t>(version->get<uint64_t>());
  // Voxel grids exist from version 2 on; a version 1 file naming them is refused like any unknown field.
  static constexpr std::string_view kVersion1[] = {"format", "version", "name", "boxes", "spawns", "objects"};
  static constexpr std::string_view kVersion2[] = {"format", "version", "name", "boxes", "spawns", "voxelGrids", "objects"};
  static constexpr std::string_view kVersion3[] = {"format", "version", "name",    "boxes",
                                                   "spawns", "voxelGrids", "sources", "objects"};
  using Fields = std::span<const std::string_view>;
  const Fields fields = c.version >= 3 ? Fields(kVersion3) : c.version == 2 ? Fields(kVersion2) : Fields(kVersion1);
  if (auto e = expect_object(root, "", fields)) return e;
  const json* name = nullptr;
  if (auto e = require(root, "name", "", name); e || (e = read_string(*name, "name", c.name))) return e;
  return std::nullopt;
}

// Reads each entry of an optional list field with `read_one(entry, path)`.
template <class ReadOne>
Found read_list(const json& root, std::string_view name, std::size_t cap, bool required, ReadOne read_one) {
  const json* list = nullptr;
  if (required && member(root, name) == nullptr)
    return fail(MapErrorCode::missing_field, std::string(name), "required field is missing");
  if (auto e = list_field(root, name, "", cap, list)) return e;
  if (list == nullptr) return std::nullopt;
  for (std::size_t i = 0; i < list->size(); ++i)
    if (auto e = read_one((*list)[i], path_index(name, i))) return e;
  return std::nullopt;
}

}  // namespace

MapResult<MapContent> read_map_json(const json& root) {
  MapContent c;
  if (auto e = read_header(root, c)) return std::move(*e);
  const auto boxes = [&](const json& j, const std::string& at) { return read_box(j, at, c); };
  const auto spawns = [&](const json& j, const std::string& at) { return read_spawn(j, at, c); };
  // Version 3's objects are records (placements), resolved by Map::build; earlier versions' are flat.
  const auto objects = [&](const json& j, const std::string& at) {
    return c.version >= 3 ? read_map_placement(j, at, c) : read_object(j, at, c);
  };
  if (auto e = read_list(root, "boxes", kMaxMapBoxes, false, boxes)) return std::move(*e);
  if (auto e = read_list(root, "spawns", kMaxMapSpawnPoints, true, spawns)) return std::move(*e);
  const auto grids = [&](const json& j, const std::string& at) { return read_voxel_grid(j, at, c); };
  if (auto e = read_list(root, "voxelGrids", kMaxVoxelGrids, false, grids)) return std::move(*e);
  if (auto e = read_map_sources(root, c)) return std::move(*e);
  if (auto e = read_list(root, "objects", kMaxMapObjects, false, objects)) return std::move(*e);
  return c;
}

}  // namespace tickwire::world::detail
