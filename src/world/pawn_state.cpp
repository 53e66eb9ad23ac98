// The pawn's collision box from its feet, stance and radius: the one definition the mover, the
// stance check and any trigger volume share.
#include "tickwire/world/pawn_state.h"

namespace tickwire::world {

Aabb pawn_bounds(const PawnState& pawn, float radius_m) {
  const Vec3& f = pawn.feet;
  return {{f.x - radius_m, f.y, f.z - radius_m}, {f.x + radius_m, f.y + pawn.stance_height_m, f.z + radius_m}};
}

}  // namespace tickwire::world
