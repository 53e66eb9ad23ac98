// Why a map was refused, as a value: a named code, the JSON path of the offending value
// ("objects[12].position") and a sentence, so an operator can fix the file and a test can pin the
// exact rule. MapResult carries a value or a MapError; the loader never lets an exception out.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "tickwire/core/assert.h"

namespace tickwire::world {

enum class MapErrorCode : uint8_t {
  ok = 0,
  file_unreadable,      // the file is missing or cannot be read
  file_too_large,       // the text is over kMaxMapFileBytes
  json_syntax,          // not JSON (truncated, stray bytes, bad literal)
  json_too_deep,        // JSON nested deeper than kMaxMapJsonDepth
  json_too_many_values, // more JSON values than kMaxMapJsonValues
  duplicate_field,      // one JSON object naming a field twice
  not_a_map,            // "format" is missing or not "tickwire-map"
  unsupported_version,  // a "version" this build does not read
  missing_field,        // a required field is absent
  unknown_field,        // a field the format does not define
  wrong_type,           // a value of the wrong JSON type
  wrong_length,         // a vector or quaternion with the wrong number of elements
  count_over_max,       // a list longer than its cap
  not_finite,           // a number that is not a finite float
  out_of_range,         // a finite number outside its documented range
  box_inverted,         // a box whose min exceeds its max on some axis
  string_over_cap,      // a string longer than kMaxMapStringBytes
  invalid_string,       // an empty identifier or a character the field does not allow
  duplicate_key,        // two objects with one key
  duplicate_component,  // one object naming a component twice
  rotation_not_unit,    // a rotation quaternion whose length is not 1
  no_spawn_point,       // a map with nowhere to put a player
  unknown_source,       // a record naming a source the map does not define
  source_cycle,         // sources that name one another in a loop
  record_too_deep,      // records laid over one another more than kMaxRecordDepth times
  duplicate_override,   // one layer naming a component, child, setting or output twice
  remove_missing,       // "removed": true of something the source does not have
  override_names_source,  // an override of an inherited child naming a source of its own
  voxel_volume_transformed,  // a voxel volume object with a rotation or a scale (volumes are axis-aligned)
  unexpected,           // an exception the loader did not foresee (a bug: please report)
  count_,
};

std::string_view map_error_name(MapErrorCode code) noexcept;

struct MapError {
  MapErrorCode code = MapErrorCode::ok;
  std::string path;     // e.g. "objects[12].position"; empty for whole-file errors
  std::string message;  // e.g. "expected 3 finite numbers"

  // "objects[12].position: expected 3 finite numbers (not_finite)"
  std::string text() const;
};

// A value or the MapError that refused it.
template <class T>
class [[nodiscard]] MapResult {
 public:
  MapResult(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  MapResult(MapError error) : value_(std::move(error)) {
    TW_ASSERT(std::get<MapError>(value_).code != MapErrorCode::ok, "a MapResult error must not be ok");
  }
  bool ok() const { return std::holds_alternative<T>(value_); }
  explicit operator bool() const { return ok(); }
  const MapError& error() const {
    TW_ASSERT(!ok(), "error() of a successful MapResult");
    return std::get<MapError>(value_);
  }
  MapErrorCode code() const { return ok() ? MapErrorCode::ok : error().code; }
  T& value() & {
    TW_ASSERT(ok(), "value() of a failed MapResult");
    return std::get<T>(value_);
  }
  const T& value() const& {
    TW_ASSERT(ok(), "value() of a failed MapResult");
    return std::get<T>(value_);
  }
  T&& value() && {
    TW_ASSERT(ok(), "value() of a failed MapResult");
    return std::get<T>(std::move(value_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, MapError> value_;
};

}  // namespace tickwire::world
