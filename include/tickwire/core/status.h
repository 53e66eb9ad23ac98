// Decode and validation errors as values: every way hostile or malformed bytes can be refused has
// a name, so a reader returns it, a caller counts it, and nothing on the packet path throws.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <variant>

#include "tickwire/core/reasons.h"
#include "tickwire/core/assert.h"

namespace tickwire {

TW_REASONS(Error,
  ok = 0,
  truncated,            // the bytes ended before the shape did
  trailing_bytes,       // bytes left after the shape ended where none may be
  count_over_max,       // a list count above its maximum
  count_under_min,      // a list count below its minimum
  count_mismatch,       // a counted list whose count field disagrees
  length_past_end,      // a length prefix pointing past the enclosing end
  string_over_cap,      // a string longer than its cap
  invalid_utf8,         // a string that is not UTF-8
  unknown_union_tag,    // a union case this shape does not have
  unknown_enum_value,   // an enum value no member has
  unknown_flag_bits,    // flag bits no member names
  invalid_presence,     // a presence byte other than 0 or 1
  value_out_of_range,   // a quantized or bit field outside its declared range
  nesting_too_deep,     // shapes nested deeper than the cap
  unknown_message,      // a message id not in the registry (or not for this direction)
  schema_malformed,     // a schema text that does not parse
  schema_too_large,     // a schema text over the size cap
  schema_unknown_type,  // a schema naming a type it does not define
  buffer_full,          // a writer ran out of room (caller's buffer too small)
  invalid_token,        // a token-table row the table does not have
  schema_duplicate_name,  // a schema defining a name twice in one namespace (or a field twice in a shape)
  schema_bad_reference,   // a schema reference of the wrong kind (a counted list's count field, a union case)
  schema_bad_number,      // a schema number that does not parse or is out of its range
  schema_over_limit,      // a schema over a cap on definitions, fields, members or name length
  schema_recursive,       // a shape that must contain itself (its zero value would never end)
  walk_budget_exceeded   // a dynamic walk that would need more nodes or steps than its budget
)

inline constexpr std::size_t kErrorCount = static_cast<std::size_t>(Error::count_);

// A result with no value: ok or a named error.
class [[nodiscard]] Status {
 public:
  constexpr Status() = default;
  constexpr Status(Error error) : error_(error) {}  // NOLINT: implicit by design
  constexpr bool ok() const { return error_ == Error::ok; }
  constexpr explicit operator bool() const { return ok(); }
  constexpr Error error() const { return error_; }
  std::string_view name() const { return reason_name(error_); }
  friend constexpr bool operator==(Status a, Status b) { return a.error_ == b.error_; }

 private:
  Error error_ = Error::ok;
};

// A value or a named error.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Error error) : value_(error) { TW_ASSERT(error != Error::ok, "a Result error must not be ok"); }
  bool ok() const { return std::holds_alternative<T>(value_); }
  explicit operator bool() const { return ok(); }
  Error error() const { return ok() ? Error::ok : std::get<Error>(value_); }
  Status status() const { return error(); }
  T& value() & {
    TW_ASSERT(ok(), "value() of a failed Result");
    return std::get<T>(value_);
  }
  const T& value() const& {
    TW_ASSERT(ok(), "value() of a failed Result");
    return std::get<T>(value_);
  }
  T&& value() && {
    TW_ASSERT(ok(), "value() of a failed Result");
    return std::get<T>(std::move(value_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Error> value_;
};

}  // namespace tickwire
