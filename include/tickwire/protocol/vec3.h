// A position or velocity on the wire as three full floats (bit-packed forms live in the records).
#pragma once

#include <string_view>

namespace tickwire::protocol {

struct Vec3 {
  static constexpr std::string_view wire_name = "Vec3";
  float x = 0, y = 0, z = 0;
  friend bool operator==(const Vec3&, const Vec3&) = default;

  template <class W>
  void fields(W& w) {
    w.f32("x", x);
    w.f32("y", y);
    w.f32("z", z);
  }
};

}  // namespace tickwire::protocol
