// The JSON readers every part of the map format shares: a value's type and shape, refused with the
// JSON path it was found at. Split from the map reader so the version 3 record reader checks its
// fields with the very same rules.
#include "map_json_fields.h"

#include <cfloat>
#include <cmath>
#include <limits>

#include "map_validate.h"

namespace tickwire::world::detail {
namespace {

Found fail(MapErrorCode code, std::string path, std::string message) {
  return MapError{code, std::move(path), std::move(message)};
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

}  // namespace

// A field name from the file, safe to print inside a path: at most 64 bytes, odd bytes as '?'.
std::string printable_key(const std::string& key) {
  std::string out = key.substr(0, kMaxMapStringBytes);
  for (char& c : out)
    if (c < 0x21 || c > 0x7e || c == '"') c = '?';
  return out;
}

// `j` is an object whose every field is in `allowed`.
Found expect_object(const json& j, const std::string& path, std::span<const std::string_view> allowed) {
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

Found read_quat(const json& j, const std::string& path, Quat& out) {
  float q[4] = {};
  std::size_t read = 0;
  if (auto e = read_floats(j, path, 4, true, q, read)) return e;
  out = Quat{q[0], q[1], q[2], q[3]};
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

Found read_bits(const json& j, const std::string& path, uint8_t& out) {
  if (!j.is_number_integer()) return fail(MapErrorCode::wrong_type, path, "expected an integer in [0, 255]");
  if (j.is_number_unsigned() ? j.get<uint64_t>() > 255u : (j.get<int64_t>() < 0 || j.get<int64_t>() > 255))
    return fail(MapErrorCode::out_of_range, path, "expected an integer in [0, 255]");
  out = static_cast<uint8_t>(j.get<int64_t>());
  return std::nullopt;
}

Found read_uint(const json& j, const std::string& path, uint64_t max, uint64_t& out) {
  const std::string expected = "expected an integer in [0, " + std::to_string(max) + "]";
  if (!j.is_number_integer()) return fail(MapErrorCode::wrong_type, path, expected);
  const bool negative = !j.is_number_unsigned() && j.get<int64_t>() < 0;
  if (negative || j.get<uint64_t>() > max) return fail(MapErrorCode::out_of_range, path, expected);
  out = j.get<uint64_t>();
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

// One output's ordered list of actions.
Found read_output(const json& j, const std::string& at, MapOutput& out) {
  if (!j.is_array()) return fail(MapErrorCode::wrong_type, at, "expected an array of actions");
  if (auto e = check_count(j.size(), kMaxOutputActions, at)) return e;
  out.actions.resize(j.size());
  for (std::size_t i = 0; i < j.size(); ++i)
    if (auto e = read_action(j[i], path_index(at, i), out.actions[i])) return e;
  return std::nullopt;
}

}  // namespace tickwire::world::detail
