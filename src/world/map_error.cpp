// Names for map errors (stable: tests and the CLI print them) and the one-line error text.
#include "tickwire/world/map_error.h"

#include <array>

namespace tickwire::world {
namespace {

constexpr std::array<std::string_view, static_cast<std::size_t>(MapErrorCode::count_)> kNames = {
    "ok",          "file_unreadable", "file_too_large",  "json_syntax",     "json_too_deep",
    "json_too_many_values", "duplicate_field", "not_a_map", "unsupported_version", "missing_field",
    "unknown_field", "wrong_type",    "wrong_length",    "count_over_max",  "not_finite",
    "out_of_range", "box_inverted",   "string_over_cap", "invalid_string",  "duplicate_key",
    "duplicate_component", "rotation_not_unit", "no_spawn_point", "unknown_source", "source_cycle",
    "record_too_deep", "duplicate_override", "remove_missing", "override_names_source",
    "voxel_volume_transformed", "unexpected",
};

}  // namespace

std::string_view map_error_name(MapErrorCode code) noexcept {
  const auto i = static_cast<std::size_t>(code);
  return i < kNames.size() ? kNames[i] : std::string_view("unknown");
}

std::string MapError::text() const {
  std::string out;
  if (!path.empty()) out.append(path).append(": ");
  out.append(message).append(" (").append(map_error_name(code)).append(")");
  return out;
}

}  // namespace tickwire::world
