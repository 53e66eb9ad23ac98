// The reference game's vector and box: plain float math for the mover, the map and the props.
// Separate from protocol::Vec3 (a wire shape) so the game's arithmetic never leaks onto the wire
// except through an explicit conversion.
#pragma once

#include <cmath>

#include "tickwire/protocol/vec3.h"

namespace tickwire::world {

struct Vec3 {
  float x = 0, y = 0, z = 0;  // y is up; metres

  friend constexpr Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
  friend constexpr Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
  friend constexpr Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
  friend constexpr Vec3 operator*(float s, Vec3 a) { return a * s; }
  constexpr Vec3& operator+=(Vec3 b) { return *this = *this + b; }
  constexpr Vec3& operator-=(Vec3 b) { return *this = *this - b; }
  friend constexpr bool operator==(const Vec3&, const Vec3&) = default;

  constexpr float dot(Vec3 b) const { return x * b.x + y * b.y + z * b.z; }
  float length() const { return std::sqrt(dot(*this)); }

  protocol::Vec3 to_wire() const { return {x, y, z}; }
  static constexpr Vec3 from_wire(const protocol::Vec3& v) { return {v.x, v.y, v.z}; }
};

// An axis-aligned box, min <= max on every axis.
struct Aabb {
  Vec3 min, max;

  constexpr bool overlaps(const Aabb& o) const {
    return min.x < o.max.x && max.x > o.min.x && min.y < o.max.y && max.y > o.min.y && min.z < o.max.z &&
           max.z > o.min.z;
  }
  constexpr bool valid() const { return min.x <= max.x && min.y <= max.y && min.z <= max.z; }
};

}  // namespace tickwire::world
