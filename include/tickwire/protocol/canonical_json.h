// Canonical JSON for hashing: the same content always renders to the same bytes. Members are
// sorted by their key's bytes, array elements keep their order, there is no whitespace, integers
// are plain decimal, and a non-integer number is rounded to 6 decimal places (correctly rounded,
// locale-free) with trailing zeros and a trailing point removed and "-0" written "0"; non-finite
// numbers are refused.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tickwire {

// Decimal places a non-integer number keeps in canonical form.
inline constexpr int kCanonicalJsonDecimals = 6;

// One JSON object under construction. Member order of the calls does not matter; a key may be
// added once (a second add is a programmer error).
class CanonicalJsonObject {
 public:
  void integer(std::string_view key, int64_t value);
  void unsigned_integer(std::string_view key, uint64_t value);
  void number(std::string_view key, double value);  // finite only (asserted)
  void string(std::string_view key, std::string_view value);
  void boolean(std::string_view key, bool value);
  void object(std::string_view key, const CanonicalJsonObject& value);
  // An array of objects, in the order given, e.g. "k":[{"a":1},{"a":2}] ("k":[] when empty).
  void array(std::string_view key, const std::vector<CanonicalJsonObject>& elements);

  // The canonical text, e.g. {"a":1,"b":{"c":"x"}}.
  std::string text() const;
  bool empty() const { return members_.empty(); }

 private:
  void add(std::string_view key, std::string rendered);
  std::map<std::string, std::string, std::less<>> members_;  // key -> rendered value
};

// The canonical rendering of one number (exposed so tests can pin the format).
std::string canonical_json_number(double value);
// A JSON string literal: quotes, \" \\ escaped, control bytes as \u00xx, other bytes as is.
std::string canonical_json_string(std::string_view value);

}  // namespace tickwire
