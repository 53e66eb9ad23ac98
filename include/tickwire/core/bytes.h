// Little-endian load/store for fixed-width integers and IEEE floats: the one place byte order is
// decided (the wire is little-endian throughout).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace tickwire {

template <class T>
inline void store_le(uint8_t* out, T value) {
  static_assert(std::is_trivially_copyable_v<T>);
  static_assert(std::endian::native == std::endian::little, "big-endian hosts need a byte swap here");
  std::memcpy(out, &value, sizeof(T));
}

template <class T>
inline T load_le(const uint8_t* in) {
  static_assert(std::is_trivially_copyable_v<T>);
  static_assert(std::endian::native == std::endian::little, "big-endian hosts need a byte swap here");
  T value;
  std::memcpy(&value, in, sizeof(T));
  return value;
}

}  // namespace tickwire
