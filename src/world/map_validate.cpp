// Map content rules, one function per part of the map. Every number must be a finite float within
// its range, every list within its cap, every identifier short and plain, every key unique.
#include "map_validate.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "tickwire/world/logic_components.h"

namespace tickwire::world::detail {
namespace {

using Found = std::optional<MapError>;

Found fail(MapErrorCode code, std::string path, std::string message) {
  return MapError{code, std::move(path), std::move(message)};
}

bool identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         c == '.' || c == ':' || c == '/';
}

}  // namespace

// Identifiers (keys, kinds, component names, tags, materials): 1..64 of [A-Za-z0-9_.:/-].
Found check_identifier(const std::string& value, const std::string& path) {
  if (value.size() > kMaxMapStringBytes)
    return fail(MapErrorCode::string_over_cap, path, "longer than " + std::to_string(kMaxMapStringBytes) + " bytes");
  if (value.empty()) return fail(MapErrorCode::invalid_string, path, "must not be empty");
  if (!std::all_of(value.begin(), value.end(), identifier_char))
    return fail(MapErrorCode::invalid_string, path, "allowed characters are A-Z a-z 0-9 _ - . : /");
  return std::nullopt;
}

namespace {

// The map's display name: 1..64 printable ASCII characters.
Found check_name(const std::string& value, const std::string& path) {
  if (value.size() > kMaxMapStringBytes)
    return fail(MapErrorCode::string_over_cap, path, "longer than " + std::to_string(kMaxMapStringBytes) + " bytes");
  if (value.empty()) return fail(MapErrorCode::invalid_string, path, "must not be empty");
  if (!std::all_of(value.begin(), value.end(), [](char c) { return c >= 0x20 && c <= 0x7e; }))
    return fail(MapErrorCode::invalid_string, path, "allowed characters are printable ASCII");
  return std::nullopt;
}

bool finite3(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

}  // namespace

Found check_point(Vec3 v, const std::string& path) {
  if (!finite3(v)) return fail(MapErrorCode::not_finite, path, "expected 3 finite numbers");
  const float limit = kMaxMapCoordinateMetres;
  if (std::fabs(v.x) > limit || std::fabs(v.y) > limit || std::fabs(v.z) > limit)
    return fail(MapErrorCode::out_of_range, path, "coordinates must lie within +-100000 m");
  return std::nullopt;
}

namespace {

Found check_boxes(const MapContent& c) {
  TW_ASSERT(c.boxes.size() == c.box_surfaces.size(), "every box needs its surface");
  if (auto e = check_count(c.boxes.size(), kMaxMapBoxes, "boxes")) return e;
  for (std::size_t i = 0; i < c.boxes.size(); ++i) {
    const std::string at = path_index("boxes", i);
    if (auto e = check_identifier(c.box_surfaces[i].tag, path_field(at, "tag"))) return e;
    if (auto e = check_identifier(c.box_surfaces[i].material, path_field(at, "material"))) return e;
    if (auto e = check_point(c.boxes[i].min, path_field(at, "min"))) return e;
    if (auto e = check_point(c.boxes[i].max, path_field(at, "max"))) return e;
    if (!c.boxes[i].valid()) return fail(MapErrorCode::box_inverted, at, "min exceeds max on some axis");
  }
  return std::nullopt;
}

Found check_spawn_points(const MapContent& c) {
  if (c.spawn_points.empty()) return fail(MapErrorCode::no_spawn_point, "spawns", "a map needs at least one spawn point");
  if (auto e = check_count(c.spawn_points.size(), kMaxMapSpawnPoints, "spawns")) return e;
  for (std::size_t i = 0; i < c.spawn_points.size(); ++i) {
    const std::string at = path_index("spawns", i);
    if (auto e = check_point(c.spawn_points[i].position, path_field(at, "position"))) return e;
    const float yaw = c.spawn_points[i].yaw_deg;
    if (!std::isfinite(yaw)) return fail(MapErrorCode::not_finite, path_field(at, "yaw_deg"), "expected a finite number");
    if (yaw < 0 || yaw >= kFullTurnDegrees)
      return fail(MapErrorCode::out_of_range, path_field(at, "yaw_deg"), "yaw must lie in [0, 360)");
  }
  return std::nullopt;
}

}  // namespace

Found check_rotation(const Quat& q, const std::string& path) {
  if (!std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z) || !std::isfinite(q.w))
    return fail(MapErrorCode::not_finite, path, "expected 4 finite numbers");
  const double length = std::sqrt(double(q.x) * q.x + double(q.y) * q.y + double(q.z) * q.z + double(q.w) * q.w);
  if (!(std::fabs(length - 1.0) <= kRotationUnitTolerance))
    return fail(MapErrorCode::rotation_not_unit, path, "a rotation quaternion must have length 1 (+-0.001)");
  return std::nullopt;
}

Found check_scale(const Vec3& scale, const std::string& path) {
  if (!finite3(scale)) return fail(MapErrorCode::not_finite, path, "expected 3 finite numbers");
  for (float s : {scale.x, scale.y, scale.z})
    if (!(s > 0 && s <= kMaxObjectScale)) return fail(MapErrorCode::out_of_range, path, "scale must lie in (0, 1000]");
  return std::nullopt;
}

namespace {

Found check_transform(const MapObject& o, const std::string& at) {
  if (auto e = check_point(o.position, path_field(at, "position"))) return e;
  if (o.rotation)
    if (auto e = check_rotation(*o.rotation, path_field(at, "rotation"))) return e;
  if (o.scale)
    if (auto e = check_scale(*o.scale, path_field(at, "scale"))) return e;
  return std::nullopt;
}

// Names of settings or outputs: identifiers, each once (a name-sorted list puts twins side by side).
template <class Named>
Found check_names(const std::vector<Named>& list, const std::string& at) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    // A bad name is reported at the object holding it: the name itself may not be printable.
    if (auto e = check_identifier(list[i].name, at)) return e;
    if (i > 0 && list[i].name == list[i - 1].name)
      return fail(MapErrorCode::duplicate_field, path_field(at, list[i].name), "named twice");
  }
  return std::nullopt;
}

Found check_setting(const ComponentSetting& setting, const SettingSpec& spec, const std::string& path) {
  for (float v : setting.active_values())
    if (!std::isfinite(v)) return fail(MapErrorCode::not_finite, path, "expected finite numbers");
  if (setting.count != spec.count)
    return fail(MapErrorCode::wrong_length, path,
                spec.count == 1 ? "expected a number" : "expected " + std::to_string(spec.count) + " numbers");
  bool any_nonzero = false;
  for (float v : setting.active_values()) {
    any_nonzero = any_nonzero || v != 0.0f;
    if (spec.shape == SettingShape::flag && v != 0.0f && v != 1.0f)
      return fail(MapErrorCode::out_of_range, path, "a flag is 0 or 1");
    if ((spec.shape == SettingShape::index || spec.shape == SettingShape::choice_set) && v != std::floor(v))
      return fail(MapErrorCode::out_of_range, path, "an index or a choice set is a whole number");
    if (v < spec.min || v > spec.max)
      return fail(MapErrorCode::out_of_range, path,
                  "expected within [" + std::to_string(spec.min) + ", " + std::to_string(spec.max) + "]");
  }
  if (spec.shape == SettingShape::vector && !any_nonzero)
    return fail(MapErrorCode::out_of_range, path, "a direction must not be all zero");
  return std::nullopt;
}

}  // namespace

Found check_component_setting(std::string_view component, const ComponentSetting& setting, const std::string& at) {
  const LogicComponentSpec* spec = component_settings_spec(component);
  if (spec == nullptr)
    return fail(MapErrorCode::unknown_field, at, "component \"" + std::string(component) + "\" takes no settings");
  const std::string path = path_field(at, setting.name);
  const SettingSpec* known = nullptr;
  for (const SettingSpec& s : spec->settings) known = s.name == setting.name ? &s : known;
  if (known == nullptr)
    return fail(MapErrorCode::unknown_field, path, "not a setting of \"" + std::string(component) + "\"");
  return check_setting(setting, *known, path);
}

namespace {

// Settings are defined per component (logic_components.h): any other is refused by name.
Found check_settings(const ObjectComponent& comp, const std::string& at) {
  if (comp.settings.empty()) return std::nullopt;
  if (auto e = check_count(comp.settings.size(), kMaxComponentSettings, at)) return e;
  if (auto e = check_names(comp.settings, at)) return e;
  for (const ComponentSetting& setting : comp.settings)
    if (auto e = check_component_setting(comp.name, setting, at)) return e;
  if (comp.name == "counter" && setting_number(comp, "min") > setting_number(comp, "max"))
    return fail(MapErrorCode::out_of_range, path_field(at, "min"), "a counter's min must not exceed its max");
  return std::nullopt;
}

}  // namespace

Found check_action(const MapAction& action, const std::string& at) {
  if (const auto* delay = std::get_if<MapDelay>(&action)) {
    const std::string path = path_field(at, "delay");
    if (!std::isfinite(delay->seconds)) return fail(MapErrorCode::not_finite, path, "expected a finite number");
    if (delay->seconds < 0 || delay->seconds > kMaxLogicDelaySeconds)
      return fail(MapErrorCode::out_of_range, path, "a delay lies in [0, 86400] seconds");
    return std::nullopt;
  }
  const MapCall& call = std::get<MapCall>(action);
  if (auto e = check_identifier(call.target, path_field(at, "target"))) return e;
  if (auto e = check_identifier(call.input, path_field(at, "input"))) return e;
  if (call.parameter) {
    const std::string path = path_field(at, "param");
    if (!std::isfinite(*call.parameter)) return fail(MapErrorCode::not_finite, path, "expected a finite number");
    if (std::fabs(*call.parameter) > kMaxSettingMagnitude)
      return fail(MapErrorCode::out_of_range, path, "a parameter lies within +-1000000");
  }
  return std::nullopt;
}

namespace {

Found check_outputs(const MapObject& o, const std::string& object_at) {
  const std::string at = path_field(object_at, "outputs");
  if (auto e = check_count(o.outputs.size(), kMaxObjectOutputs, at)) return e;
  if (auto e = check_names(o.outputs, at)) return e;
  for (const MapOutput& output : o.outputs) {
    const std::string list = path_field(at, output.name);
    if (auto e = check_count(output.actions.size(), kMaxOutputActions, list)) return e;
    for (std::size_t i = 0; i < output.actions.size(); ++i)
      if (auto e = check_action(output.actions[i], path_index(list, i))) return e;
  }
  return std::nullopt;
}

Found check_components(const MapObject& o, const std::string& at) {
  const std::string list = path_field(at, "components");
  if (auto e = check_count(o.components.size(), kMaxObjectComponents, list)) return e;
  for (std::size_t k = 0; k < o.components.size(); ++k) {
    const ObjectComponent& comp = o.components[k];
    const std::string path = path_index(list, k);
    if (auto e = check_identifier(comp.name, path_field(path, "name"))) return e;
    for (std::size_t j = 0; j < k; ++j)
      if (o.components[j].name == comp.name)
        return fail(MapErrorCode::duplicate_component, path_field(path, "name"),
                    "component \"" + comp.name + "\" also at " + path_index(list, j));
    const std::string channels = path_field(path, "channels");
    if (auto e = check_count(comp.channel_count, kMaxComponentChannels, channels)) return e;
    for (float v : comp.active_channels())
      if (!std::isfinite(v)) return fail(MapErrorCode::not_finite, channels, "expected finite numbers");
    for (std::size_t j = comp.channel_count; j < kMaxComponentChannels; ++j)
      TW_ASSERT(comp.channels[j] == 0.0f, "channels past channel_count must be zero");
    if (auto e = check_settings(comp, path_field(path, "settings"))) return e;
  }
  return std::nullopt;
}

// Settings and outputs are version 2: a version 1 map cannot carry them (nor write them).
Found check_version_2(uint32_t version, const MapObject& o, const std::string& at) {
  if (version >= 2) return std::nullopt;
  if (!o.outputs.empty()) return fail(MapErrorCode::unsupported_version, path_field(at, "outputs"), "a version 2 field");
  for (std::size_t k = 0; k < o.components.size(); ++k)
    if (!o.components[k].settings.empty())
      return fail(MapErrorCode::unsupported_version, path_field(path_index(path_field(at, "components"), k), "settings"),
                  "a version 2 field");
  return std::nullopt;
}

}  // namespace

Found check_objects(std::span<const MapObject> objects, uint32_t version, std::size_t voxel_grids,
                    const std::vector<std::string>* origins) {
  const auto origin = [&](std::size_t i) { return origins != nullptr ? (*origins)[i] : path_index("objects", i); };
  if (auto e = check_count(objects.size(), kMaxMapObjects, "objects")) return e;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const MapObject& o = objects[i];
    const std::string at = origin(i);
    if (auto e = check_identifier(o.key, path_field(at, "key"))) return e;
    if (auto e = check_identifier(o.kind, path_field(at, "kind"))) return e;
    if (auto e = check_transform(o, at)) return e;
    if (auto e = check_version_2(version, o, at)) return e;
    if (auto e = check_components(o, at)) return e;
    if (auto e = check_voxel_volume(o, voxel_grids, at)) return e;
    if (auto e = check_outputs(o, at)) return e;
  }
  // Unique keys: sort indices by key, compare neighbours, report the later one at its own path.
  std::vector<uint32_t> order(objects.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return objects[a].key < objects[b].key; });
  std::optional<std::pair<uint32_t, uint32_t>> first_duplicate;  // (earlier, later) with the smallest later
  for (std::size_t i = 1; i < order.size(); ++i) {
    if (objects[order[i - 1]].key != objects[order[i]].key) continue;
    if (!first_duplicate || order[i] < first_duplicate->second) first_duplicate = {order[i - 1], order[i]};
  }
  if (first_duplicate)
    return fail(MapErrorCode::duplicate_key, path_field(origin(first_duplicate->second), "key"),
                "key \"" + objects[first_duplicate->second].key + "\" also at " + origin(first_duplicate->first));
  return std::nullopt;
}


std::string path_index(std::string_view path, std::size_t index) {
  return std::string(path) + "[" + std::to_string(index) + "]";
}

std::string path_field(std::string_view path, std::string_view field) {
  return path.empty() ? std::string(field) : std::string(path) + "." + std::string(field);
}

Found check_count(std::size_t count, std::size_t cap, std::string_view path) {
  if (count <= cap) return std::nullopt;
  return fail(MapErrorCode::count_over_max, std::string(path),
              std::to_string(count) + " entries, at most " + std::to_string(cap) + " allowed");
}

Found validate_map_content(const MapContent& content) {
  if (content.version < kMapFormatOldestVersion || content.version > kMapFormatVersion)
    return fail(MapErrorCode::unsupported_version, "version", "not a version this build writes");
  if (auto e = check_name(content.name, "name")) return e;
  if (auto e = check_boxes(content)) return e;
  if (auto e = check_spawn_points(content)) return e;
  if (auto e = check_voxel_grids(content)) return e;
  if (content.version >= 3) return check_map_records(content);
  if (!content.sources.empty() || !content.placements.empty())
    return fail(MapErrorCode::unsupported_version, content.sources.empty() ? "objects" : "sources",
                "records are a version 3 part");
  return check_objects(content.objects, content.version, content.voxel_grids.size(), nullptr);
}

}  // namespace tickwire::world::detail
