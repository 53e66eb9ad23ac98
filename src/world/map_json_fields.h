// The shared JSON field readers of the map format (map_json_fields.cpp): each checks one value's
// type and shape and refuses it with its JSON path. Private to world/.
#pragma once

#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "map_validate.h"
#include "tickwire/world/map.h"

namespace tickwire::world::detail {

using json = nlohmann::json;
using Found = std::optional<MapError>;
using Fields = std::initializer_list<std::string_view>;

// A field name from the file, safe to print inside a path: at most 64 bytes, odd bytes as '?'.
std::string printable_key(const std::string& key);
// `j` is an object whose every field is in `allowed`.
Found expect_object(const json& j, const std::string& path, std::span<const std::string_view> allowed);
inline Found expect_object(const json& j, const std::string& path, Fields allowed) {
  return expect_object(j, path, std::span<const std::string_view>(allowed.begin(), allowed.size()));
}
// The field `name` of object `j`, or nullptr.
const json* member(const json& j, std::string_view name);
Found require(const json& j, std::string_view name, const std::string& path, const json*& out);
Found read_string(const json& j, const std::string& path, std::string& out);
// A JSON number as a float; a double past the float range becomes infinite (refused later).
float to_float(double d);
Found read_float(const json& j, const std::string& path, float& out);
// An array of numbers: exactly `count` of them when `exact`, else at most `count`.
Found read_floats(const json& j, const std::string& path, std::size_t count, bool exact, float* out, std::size_t& read);
Found read_vec3(const json& j, const std::string& path, Vec3& out);
Found read_quat(const json& j, const std::string& path, Quat& out);
// An optional list field; absent reads as empty. The cap is checked before anything is allocated.
Found list_field(const json& j, std::string_view name, const std::string& path, std::size_t cap, const json*& out);
Found read_bits(const json& j, const std::string& path, uint8_t& out);
// A JSON integer in [0, max]: any other number (1.0 included) is wrong_type, a negative or larger
// integer out_of_range.
Found read_uint(const json& j, const std::string& path, uint64_t max, uint64_t& out);
// A setting: one number, or an array of up to kMaxSettingValues numbers.
Found read_setting(const json& j, const std::string& at, ComponentSetting& out);
// One output's ordered list of actions.
Found read_output(const json& j, const std::string& at, MapOutput& out);

// An object of named entries (version 2's settings and outputs), read in name order, each entry by
// `read_one(value, path, entry)`; the count is checked before anything is allocated.
template <class Entry, class ReadOne>
inline Found read_named(const json& j, const std::string& at, std::size_t cap, std::string_view what,
                 std::vector<Entry>& out, ReadOne read_one) {
  if (!j.is_object()) return MapError{MapErrorCode::wrong_type, at, "expected an object of named " + std::string(what)};
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

}  // namespace tickwire::world::detail
