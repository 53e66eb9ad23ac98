// Arithmetic on the wire's Vec3 for the code that compares pawn states carried by the wire
// (reconcile offsets on the client, claim tolerances on the server), kept apart from the shape
// itself so the wire type stays a plain record.
#pragma once

#include <cmath>

#include "tickwire/protocol/vec3.h"

namespace tickwire::protocol {

constexpr Vec3 operator+(const Vec3& a, const Vec3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
constexpr Vec3 operator-(const Vec3& a, const Vec3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
constexpr Vec3 operator*(const Vec3& a, float s) { return {a.x * s, a.y * s, a.z * s}; }

inline float length(const Vec3& v) { return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z); }
// Length on the ground plane (y is up).
inline float horizontal_length(const Vec3& v) { return std::sqrt(v.x * v.x + v.z * v.z); }
inline bool finite(const Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

}  // namespace tickwire::protocol
