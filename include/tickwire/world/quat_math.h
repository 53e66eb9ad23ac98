// Quaternion arithmetic on the map's rotations: composing two, renormalising, turning a vector. One
// definition for the record resolver (a carried child turned by its parent) and the poses of moving
// objects (a mover's slide in its own frame), so both ends turn a vector bit for bit alike.
#pragma once

#include <cmath>

#include "tickwire/world/map_object.h"
#include "tickwire/world/vec3.h"

namespace tickwire::world {

inline Quat multiply(const Quat& a, const Quat& b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

inline Quat normalized(const Quat& q) {
  const float length = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  return length > 0 ? Quat{q.x / length, q.y / length, q.z / length, q.w / length} : Quat{};
}

inline Vec3 cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }

// v rotated by the unit quaternion q.
inline Vec3 rotate(const Quat& q, Vec3 v) {
  const Vec3 axis{q.x, q.y, q.z};
  const Vec3 t = 2.0f * cross(axis, v);
  return v + q.w * t + cross(axis, t);
}

}  // namespace tickwire::world
