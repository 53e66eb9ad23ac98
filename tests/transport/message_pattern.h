// Test-only: messages whose bytes are a pure function of (stream index, size), so a receiver can
// check every message byte for byte, and learn which one it got, without keeping a copy.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tickwire/core/bytes.h"

namespace tickwire::test {

inline uint8_t pattern_byte(uint32_t index, std::size_t i) {
  uint64_t z = (static_cast<uint64_t>(index) << 32) ^ i;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return static_cast<uint8_t>(z ^ (z >> 31));
}

// A message of `size` bytes (size >= 4) carrying `index` in its first four bytes.
inline std::vector<uint8_t> make_message(uint32_t index, std::size_t size) {
  std::vector<uint8_t> out(size);
  store_le(out.data(), index);
  for (std::size_t i = 4; i < size; ++i) out[i] = pattern_byte(index, i);
  return out;
}

inline uint32_t message_index(std::span<const uint8_t> bytes) { return bytes.size() >= 4 ? load_le<uint32_t>(bytes.data()) : UINT32_MAX; }

// True when bytes is exactly make_message(index, bytes.size()) for the index it carries.
inline bool message_intact(std::span<const uint8_t> bytes) {
  if (bytes.size() < 4) return false;
  const uint32_t index = message_index(bytes);
  for (std::size_t i = 4; i < bytes.size(); ++i) {
    if (bytes[i] != pattern_byte(index, i)) return false;
  }
  return true;
}

}  // namespace tickwire::test
