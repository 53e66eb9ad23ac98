// Decimal text for ids that arrive as text (an HTTP query's actor, a stored list of actor ids): one
// strict reader, so every such field accepts exactly the canonical spelling and nothing that merely
// converts (no sign, no spaces, no leading zeros, nothing past 2^64 - 1).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tickwire {

inline constexpr std::size_t kMaxDecimalU64Chars = 20;  // "18446744073709551615"

// The value of `text` when it is a canonical unsigned decimal ("0", or digits not starting with 0)
// that fits 64 bits; nullopt for anything else (empty, a sign, a space, a leading zero, overflow).
std::optional<uint64_t> parse_decimal_u64(std::string_view text);

}  // namespace tickwire
