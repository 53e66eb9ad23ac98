// Everything the character mover reads and writes about one pawn, and its collision box. Server and
// client both hold one per predicted pawn; noclip and frozen are server-owned flags the mover obeys
// but never changes.
#pragma once

#include "tickwire/world/mover_settings.h"
#include "tickwire/world/pawn_spawn_epoch.h"
#include "tickwire/world/vec3.h"

namespace tickwire::world {

struct PawnState {
  Vec3 feet;          // bottom centre of the collision box, metres (y up)
  Vec3 velocity_mps;  //
  float yaw_deg = 0;    // 0 faces +z, 90 faces +x
  float pitch_deg = 0;  // positive looks up, within [-90, 90]
  bool grounded = false;
  bool crouched = false;
  float stance_height_m = MoverSettings{}.standing_height_m;  // height of the collision box
  float eye_height_m = MoverSettings{}.standing_eye_m;        // eye above the feet
  bool noclip = false;  // server-owned: fly through everything, no gravity
  bool frozen = false;  // server-owned: nothing moves
  PawnSpawnEpoch placement_epoch;  // bumped by PawnPlacer on every placement
};

// The pawn's collision box: a square footprint of half-width radius_m, stance_height_m tall.
Aabb pawn_bounds(const PawnState& pawn, float radius_m);

}  // namespace tickwire::world
