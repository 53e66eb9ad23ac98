// LogicBodies: the one answer to "what body does this object's logic make", read by the server's
// install, its per-tick kinematic moves and the client's prediction world alike (seed 000): a
// physics prop is dynamic, a mover kinematic, a plate or trigger a sensor that blocks nothing, any
// other object with a solid collider static. The box is the collider's (a plate's or trigger's touch
// box, a prop's size), centred on the object and axis-aligned around its rotation.
#pragma once

#include <cstdint>
#include <string_view>

#include "tickwire/world/map_object.h"
#include "tickwire/world/vec3.h"

namespace tickwire::world {

enum class BodyKind : uint8_t {
  none,       // no body: nothing collides with it
  fixed,      // a static solid (a button, a light's fixture, a wall piece)
  sensor,     // overlaps are seen (touch volumes), nothing is blocked
  kinematic,  // solid, moved by its logic with a real velocity (a door, a lift)
  dynamic,    // solid, moved by the physics solver (a physics prop): the server owns its pose
};

std::string_view body_kind_name(BodyKind kind);

struct LogicBody {
  BodyKind kind = BodyKind::none;
  Vec3 half_extents;  // in world axes (the authored box turned by the rotation and enclosed)

  // Whether a pawn's sweep stops against it.
  bool blocks() const { return kind == BodyKind::fixed || kind == BodyKind::kinematic || kind == BodyKind::dynamic; }
};

LogicBody logic_body_of(const MapObject& object);

// The half extents of the box enclosing a box of `half` turned by `rotation` (world axes).
Vec3 enclosing_half_extents(const Quat& rotation, Vec3 half);
// A physics prop's box in its own frame (its size, scaled, not turned): what the solver turns with
// the body, and what both ends turn by the pose a record carries. Zero for any other object.
Vec3 prop_half_extents(const MapObject& object);

// The body's box around `centre` (the object's position, or where its mover has slid it).
Aabb body_box(const LogicBody& body, Vec3 centre);

}  // namespace tickwire::world
