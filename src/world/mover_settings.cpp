// The mover's settings check: what "a sane tuning" means, stated once so a bad value stops at the
// assertion in CharacterMover instead of as a NaN in a replicated position.
#include "tickwire/world/mover_settings.h"

#include <cmath>
#include <initializer_list>

namespace tickwire::world {

bool MoverSettings::valid() const {
  for (float v : {walk_speed_mps, run_speed_mps, crouch_speed_mps, ground_accel_mps2, air_accel_mps2,
                  jump_velocity_mps, gravity_mps2, max_fall_speed_mps, standing_height_m, standing_eye_m,
                  crouched_height_m, crouched_eye_m, radius_m, noclip_speed_mps, max_substep_s}) {
    if (!std::isfinite(v) || v <= 0.0f) return false;
  }
  return crouched_height_m < standing_height_m && standing_eye_m <= standing_height_m &&
         crouched_eye_m <= crouched_height_m && noclip_speed_mps <= kMaxNoclipSpeedMps;
}

}  // namespace tickwire::world
