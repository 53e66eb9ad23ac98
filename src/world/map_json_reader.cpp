// Walks the parsed JSON of a map file into MapContent, one reader per part of the format, each
// naming the JSON path of whatever it refuses. Every field a part does not define is refused.
#include "map_json_reader.h"

#include <cfloat>
#include <cmath>
#include <initializer_list>
#include <limits>

#include "map_validate.h"

namespace tickwire::world::detail {
namespace {

using json = nlohmann::json;
using Found = std::optional<MapError>;
using Fields = std::initializer_list<std::string_view>;

Found fail(MapErrorCode code, std::string path, std::string message) {
  return MapError{code, std::move(path), std::move(message)};
}

// A field name from the file, safe to print inside a path: at most 64 bytes, odd bytes as '?'.
std::string printable_key(const std::string& key) {
  std::string out = key.substr(0, kMaxMapStringBytes);
  for (char& c : out)
    if (c < 0x21 || c > 0x7e || c == '"') c = '?';
  return out;
}

// `j` is an object whose every field is in `allowed`.
Found expect_object(const json& j, const std::string& path, Fields allowed) {
  if (!j.is_object()) return fail(MapErrorCode::wrong_type, path, "expected an object");
  for (const auto& [key, value] : j.items()) {
    bool known = false;
    for (std::string_view a : allowed) known = known || key == a;
    if (!known) return fail(MapErrorCode::unknown_field, path_field(path, printable_key(key)), "unknown field");
  }
  return std::nullopt;
}

// The field `name` of object `j`, or nullptr.
const json* member(const json& j, std::string_view name) {
  auto it = j.find(name);
  return it == j.end() ? nullptr : &*it;
}

Found require(const json& j, std::string_view name, const std::string& path, const json*& out) {
  out = member(j, name);
  if (out == nullptr) return fail(MapErrorCode::missing_field, path_field(path, name), "required field is missing");
  return std::nullopt;
}

Found read_string(const json& j, const std::string& path, std::string& out) {
  if (!j.is_string()) return fail(MapErrorCode::wrong_type, path, "expected a string");
  out = j.get_ref<const std::string&>();
  return std::nullopt;
}

// A JSON number as a float; a double past the float range becomes infinite (refused later as not
// finite), never an undefined conversion.
float to_float(double d) {
  constexpr float kInfinity = std::numeric_limits<float>::infinity();
  if (std::fabs(d) > double(FLT_MAX)) return d > 0 ? kInfinity : -kInfinity;
  return static_cast<float>(d);
}

Found read_float(const json& j, const std::string& path, float& out) {
  if (!j.is_number()) return fail(MapErrorCode::wrong_type, path, "expected a number");
  out = to_float(j.get<double>());
  return std::nullopt;
}

// An array of numbers: exactly `count` of them when `exact`, else at most `count`.
Found read_floats(const json& j, const std::string& path, std::size_t count, bool exact, float* out, std::size_t& read) {
  const std::string expected = "expected " + std::to_string(count) + " numbers";
  if (!j.is_array()) return fail(MapErrorCode::wrong_type, path, expected);
  if (exact && j.size() != count)
    return fail(MapErrorCode::wrong_length, path, expected + ", got " + std::to_string(j.size()));
  if (auto e = check_count(j.size(), count, path)) return e;
  read = j.size();
  for (std::size_t i = 0; i < read; ++i) {
    if (!j[i].is_number()) return fail(MapErrorCode::wrong_type, path, expected);
    out[i] = to_float(j[i].get<double>());
  }
  return std::nullopt;
}

Found read_vec3(const json& j, const std::string& path, Vec3& out) {
  float v[3] = {};
  std::size_t read = 0;
  if (auto e = read_floats(j, path, 3, true, v, read)) return e;
  out = {v[0], v[1], v[2]};
  return std::nullopt;
}

// An optional list field; absent reads as empty. The cap is checked before anything is allocated.
Found list_field(const json& j, std::string_view name, const std::string& path, std::size_t cap, const json*& out) {
  out = member(j, name);
  if (out == nullptr) return std::nullopt;
  const std::string at = path_field(path, name);
  if (!out->is_array()) return fail(MapErrorCode::wrong_type, at, "expected an array");
  return check_count(out->size(), cap, at);
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

Found read_bits(const json& j, const std::string& path, uint8_t& out) {
  if (!j.is_number_integer()) return fail(MapErrorCode::wrong_type, path, "expected an integer in [0, 255]");
  if (j.is_number_unsigned() ? j.get<uint64_t>() > 255u : (j.get<int64_t>() < 0 || j.get<int64_t>() > 255))
    return fail(MapErrorCode::out_of_range, path, "expected an integer in [0, 255]");
  out = static_cast<uint8_t>(j.get<int64_t>());
  return std::nullopt;
}

// A setting: one number, or an array of up to kMaxSettingValues numbers.
Found read_setting(const json& j, const std::string& at, ComponentSetting& out) {
  if (j.is_number()) {
    out.values[0] = to_float(j.get<double>());
    out.count = 1;
    return std::nullopt;
  }
  std::size_t read = 0;
  if (auto e = read_floats(j, at, kMaxSettingValues, false, out.values.data(), read)) return e;
  out.count = static_cast<uint8_t>(read);
  return std::nullopt;
}

// An object of named entries (version 2's settings and outputs), read in name order, each entry by
// `read_one(value, path, entry)`; the count is checked before anything is allocated.
template <class Entry, class ReadOne>
Found read_named(const json& j, const std::string& at, std::size_t cap, std::string_view what,
                 std::vector<Entry>& out, ReadOne read_one) {
  if (!j.is_object()) return fail(MapErrorCode::wrong_type, at, "expected an object of named " + std::string(what));
  if (auto e = check_count(j.size(), cap, at)) return e;
  out.reserve(j.size());
  for (const auto& [name, value] : j.items()) {
    Entry entry;
    entry.name = name;
    if (auto e = read_one(value, path_field(at, printable_key(name)), entry)) return e;
    out.push_back(std::move(entry));
  }
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

// An action: {"target", "input", "param"?} or {"delay"}.
Found read_action(const json& j, const std::string& at, MapAction& out) {
  if (!j.is_object()) return fail(MapErrorCode::wrong_type, at, "expected a call or a delay object");
  if (member(j, "delay") != nullptr) {
    if (auto e = expect_object(j, at, {"delay"})) return e;
    MapDelay delay;
    if (auto e = read_float(*member(j, "delay"), path_field(at, "delay"), delay.seconds)) return e;
    out = delay;
    return std::nullopt;
  }
  if (auto e = expect_object(j, at, {"target", "input", "param"})) return e;
  const json* field = nullptr;
  MapCall call;
  if (auto e = require(j, "target", at, field); e || (e = read_string(*field, path_field(at, "target"), call.target)))
    return e;
  if (auto e = require(j, "input", at, field); e || (e = read_string(*field, path_field(at, "input"), call.input)))
    return e;
  if (const json* param = member(j, "param")) {
    float value = 0;
    if (auto e = read_float(*param, path_field(at, "param"), value)) return e;
    call.parameter = value;
  }
  out = std::move(call);
  return std::nullopt;
}

// One output's ordered list of actions.
Found read_output(const json& j, const std::string& at, MapOutput& out) {
  if (!j.is_array()) return fail(MapErrorCode::wrong_type, at, "expected an array of actions");
  if (auto e = check_count(j.size(), kMaxOutputActions, at)) return e;
  out.actions.resize(j.size());
  for (std::size_t i = 0; i < j.size(); ++i)
    if (auto e = read_action(j[i], path_index(at, i), out.actions[i])) return e;
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
    float q[4] = {};
    std::size_t read = 0;
    if (auto e = read_floats(*rotation, path_field(at, "rotation"), 4, true, q, read)) return e;
    o.rotation = Quat{q[0], q[1], q[2], q[3]};
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
  if (auto e = expect_object(root, "", {"format", "version", "name", "boxes", "spawns", "objects"})) return e;
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
  const auto objects = [&](const json& j, const std::string& at) { return read_object(j, at, c); };
  if (auto e = read_list(root, "boxes", kMaxMapBoxes, false, boxes)) return std::move(*e);
  if (auto e = read_list(root, "spawns", kMaxMapSpawnPoints, true, spawns)) return std::move(*e);
  if (auto e = read_list(root, "objects", kMaxMapObjects, false, objects)) return std::move(*e);
  return c;
}

}  // namespace tickwire::world::detail
