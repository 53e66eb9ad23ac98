// Every placement of a pawn in one function: set where it stands, how it moves, where it looks and
// how tall it is, then bump the placement epoch so claims and smoothing both see the discontinuity.
#include "tickwire/world/pawn_placer.h"

#include <cmath>

#include "tickwire/core/assert.h"

namespace tickwire::world {

namespace {
bool finite(const Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
}  // namespace

void PawnPlacer::place(PawnState& pawn, const Placement& where, const MoverSettings& settings) {
  TW_ASSERT(settings.valid(), "mover settings out of range");
  TW_ASSERT(finite(where.feet) && finite(where.velocity_mps) && std::isfinite(where.yaw_deg) &&
                std::isfinite(where.pitch_deg) && where.pitch_deg >= -90.0f && where.pitch_deg <= 90.0f,
            "placement must be finite, pitch within [-90, 90]");
  pawn.feet = where.feet;
  pawn.velocity_mps = where.velocity_mps;
  pawn.yaw_deg = where.yaw_deg;
  pawn.pitch_deg = where.pitch_deg;
  pawn.crouched = where.crouched;
  pawn.stance_height_m = where.crouched ? settings.crouched_height_m : settings.standing_height_m;
  pawn.eye_height_m = where.crouched ? settings.crouched_eye_m : settings.standing_eye_m;
  pawn.grounded = false;
  pawn.placement_epoch.bump();
  ++placements_;
}

}  // namespace tickwire::world
