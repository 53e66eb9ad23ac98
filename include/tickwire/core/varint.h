// Variable-length integers (LEB128: 7 bits a byte, low first; 1 byte below 128, 2 below 16,384)
// and zigzag signed mapping. Decoders bounds-check and refuse overlong or overflowing encodings,
// so every value has exactly one encoding (golden packets stay byte-exact).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "tickwire/core/status.h"

namespace tickwire {

constexpr uint64_t zigzag_encode(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
constexpr int64_t zigzag_decode(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

constexpr std::size_t varint_size(uint64_t v) {
  std::size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

// Writes v at out[0..], returns bytes written; out must hold varint_size(v) bytes.
inline std::size_t varint_write(uint64_t v, uint8_t* out) {
  std::size_t n = 0;
  while (v >= 0x80) {
    out[n++] = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  out[n++] = static_cast<uint8_t>(v);
  return n;
}

// Reads a varint of at most max_bits significant bits from in; on success sets value and used.
inline Status varint_read(std::span<const uint8_t> in, unsigned max_bits, uint64_t& value, std::size_t& used) {
  uint64_t result = 0;
  unsigned shift = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    // Refuse a byte past the widest value before reading it: the loop then never reads more than
    // ceil(max_bits / 7) bytes, whatever in.size() says.
    if (shift >= max_bits) return Error::value_out_of_range;
    const uint8_t byte = in[i];
    const uint64_t chunk = byte & 0x7f;
    if (shift > 0 && (chunk >> (max_bits - shift)) != 0 && max_bits - shift < 7) {
      return Error::value_out_of_range;
    }
    result |= chunk << shift;
    if ((byte & 0x80) == 0) {
      if (i > 0 && byte == 0) return Error::value_out_of_range;  // overlong: a trailing zero group
      value = result;
      used = i + 1;
      return Error::ok;
    }
    shift += 7;
  }
  return Error::truncated;
}

}  // namespace tickwire
