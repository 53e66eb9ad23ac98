// MoverPose: where a mover (a door, a lift) stands at an open fraction: its authored position slid
// along its axis, stated in its own frame (turned by its rotation, made unit), by distance x
// fraction. One function for the server's kinematic body, the client's prediction mirror and the
// drawn box, so the three are the same object by construction.
#pragma once

#include <optional>

#include "tickwire/world/map_object.h"
#include "tickwire/world/vec3.h"

namespace tickwire::world {

struct MoverSlide {
  Vec3 direction;        // unit, in world space
  float distance_m = 0;  // how far it slides when fully open
};

// The slide of `object`'s mover component (its axis and distance settings), or none: the object
// carries no mover.
std::optional<MoverSlide> mover_slide(const MapObject& object);

// The displacement from the authored position at `fraction` (0 closed, 1 fully open).
Vec3 mover_offset(const MoverSlide& slide, double fraction);

}  // namespace tickwire::world
