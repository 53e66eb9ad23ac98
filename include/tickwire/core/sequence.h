// 16-bit wrapping sequence numbers (packet sequences, input sequences, fragment ids): comparison
// that survives the wrap, as in RFC 1982 serial-number arithmetic.
#pragma once

#include <cstdint>

namespace tickwire {

// True when a is newer than b, treating the 16-bit space as a circle.
constexpr bool sequence_greater_than(uint16_t a, uint16_t b) {
  return ((a > b) && (a - b <= 32768)) || ((a < b) && (b - a > 32768));
}
constexpr bool sequence_less_than(uint16_t a, uint16_t b) { return sequence_greater_than(b, a); }
// Signed distance a - b on the circle, in [-32768, 32767].
constexpr int32_t sequence_difference(uint16_t a, uint16_t b) {
  return static_cast<int16_t>(static_cast<uint16_t>(a - b));
}

}  // namespace tickwire
