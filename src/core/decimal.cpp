// The strict decimal reader (core/decimal.h): digits only, canonical, overflow refused before it
// happens.
#include "tickwire/core/decimal.h"

#include <limits>

namespace tickwire {

std::optional<uint64_t> parse_decimal_u64(std::string_view text) {
  if (text.empty() || text.size() > kMaxDecimalU64Chars) return std::nullopt;
  if (text.size() > 1 && text.front() == '0') return std::nullopt;
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  uint64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<uint64_t>(c - '0');
    if (value > (kMax - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

}  // namespace tickwire
