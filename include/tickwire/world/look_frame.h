// The pawn's look frame from yaw and pitch: which way "forward" and "right" point for the move
// axes, and where the eye looks. One convention for the mover, noclip flight and anything aimed.
#pragma once

#include "tickwire/world/vec3.h"

namespace tickwire::world {

// Yaw 0 faces +z and 90 faces +x (turning right seen from above); positive pitch looks up (+y).
struct LookFrame {
  Vec3 forward;       // unit look direction, pitch included
  Vec3 forward_flat;  // unit, horizontal: where move_y walks
  Vec3 right;         // unit, horizontal: where move_x walks
};

LookFrame look_frame(float yaw_deg, float pitch_deg);

}  // namespace tickwire::world
