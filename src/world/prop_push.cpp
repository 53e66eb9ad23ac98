// The push contact (which side, which way) and the matching impulse.
#include "tickwire/world/prop_push.h"

#include <algorithm>
#include <cmath>

#include "tickwire/world/character_mover.h"

namespace tickwire::world {

bool PropPushSettings::valid() const {
  return std::isfinite(max_speed_mps) && max_speed_mps >= 0 && std::isfinite(reach_m) && reach_m >= 0;
}

std::optional<Vec3> push_direction(const Aabb& pawn, const Vec3& wish_mps, const Aabb& prop,
                                   const PropPushSettings& settings) {
  // Vertically across a side: feet below the prop's top (by more than a stand) and head above its base.
  if (pawn.min.y >= prop.max.y - kGroundProbeM || pawn.max.y <= prop.min.y) return std::nullopt;
  const Vec3 reach{settings.reach_m, 0, settings.reach_m};
  const Aabb grown{pawn.min - reach, pawn.max + reach};
  if (!(grown.min.x < prop.max.x && grown.max.x > prop.min.x && grown.min.z < prop.max.z && grown.max.z > prop.min.z)) {
    return std::nullopt;
  }
  const float overlap_x = std::min(grown.max.x, prop.max.x) - std::max(grown.min.x, prop.min.x);
  const float overlap_z = std::min(grown.max.z, prop.max.z) - std::max(grown.min.z, prop.min.z);
  const float pawn_x = (pawn.min.x + pawn.max.x) * 0.5f, prop_x = (prop.min.x + prop.max.x) * 0.5f;
  const float pawn_z = (pawn.min.z + pawn.max.z) * 0.5f, prop_z = (prop.min.z + prop.max.z) * 0.5f;
  const Vec3 direction = overlap_x <= overlap_z ? Vec3{prop_x >= pawn_x ? 1.0f : -1.0f, 0, 0}
                                                : Vec3{0, 0, prop_z >= pawn_z ? 1.0f : -1.0f};
  if (wish_mps.dot(direction) <= 0) return std::nullopt;
  return direction;
}

Vec3 push_impulse(const Vec3& prop_velocity, float mass_kg, const Vec3& wish_mps, const Vec3& direction,
                  const PropPushSettings& settings) {
  const float target_mps = std::min(std::max(wish_mps.dot(direction), 0.0f), settings.max_speed_mps);
  const float short_mps = target_mps - prop_velocity.dot(direction);
  if (!(short_mps > 0) || !(mass_kg > 0)) return {};
  return direction * (mass_kg * short_mps);
}

}  // namespace tickwire::world
