// PropPush: the one rule by which a walking pawn shoves a physics prop, called by the server's prop
// loop and by the client's own props (sim: client) alike (seed 000), so a crate a player shoulders
// moves the same way on either side. The push is an impulse that brings the prop's horizontal
// velocity along the shove up to the pawn's wished speed, capped: it matches, never accumulates,
// so leaning on a crate for a second moves it at walking pace, not faster and faster.
#pragma once

#include <optional>

#include "tickwire/world/vec3.h"

namespace tickwire::world {

// World tuning (world-contextual, never replicated: each end reads its own store's values).
struct PropPushSettings {
  float max_speed_mps = 2.5f;  // a shoved prop is brought up to at most this speed
  float reach_m = 0.05f;       // how near the pawn's box must come to the prop's side

  bool valid() const;
};

// The horizontal unit direction a pawn pushes a prop in, or nullopt: the pawn's box, grown by the
// reach on x and z, overlaps the prop's box across a side (the pawn neither stands on it nor is
// under it), the push is along the axis of least overlap, away from the pawn, and the pawn's wished
// horizontal velocity heads that way.
std::optional<Vec3> push_direction(const Aabb& pawn, const Vec3& wish_mps, const Aabb& prop,
                                   const PropPushSettings& settings);

// The impulse (kg m/s) that brings `prop_velocity` along `direction` up to the pawn's wished speed
// along it, capped at max_speed_mps; zero when the prop already moves that fast that way.
Vec3 push_impulse(const Vec3& prop_velocity, float mass_kg, const Vec3& wish_mps, const Vec3& direction,
                  const PropPushSettings& settings);

}  // namespace tickwire::world
