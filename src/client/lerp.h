// The one linear blend the client's samples share (remote entities and map objects): in double,
// so a blend at alpha 0 or 1 gives back its end exactly.
#pragma once

#include "tickwire/protocol/vec3.h"

namespace tickwire {

inline float lerp_f(float from, float to, double alpha) {
  return static_cast<float>(static_cast<double>(from) + (static_cast<double>(to) - from) * alpha);
}

inline protocol::Vec3 lerp_vec(const protocol::Vec3& from, const protocol::Vec3& to, double alpha) {
  return {lerp_f(from.x, to.x, alpha), lerp_f(from.y, to.y, alpha), lerp_f(from.z, to.z, alpha)};
}

}  // namespace tickwire
