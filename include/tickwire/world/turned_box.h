// A box turned by a rotation (a physics prop as the solver turns it), and the mover's two questions
// about one: how far a pawn's axis-aligned box may move along an axis before it meets it, and
// whether the two overlap. Both answer by the separating axis test (the two boxes' own axes and
// their nine edge crossings), so a pawn meets the crate's faces, not the box enclosing it: a crate
// turned 45 degrees lets a pawn stand where its enclosing box would have pushed it 0.2 m away.
#pragma once

#include <span>

#include "tickwire/world/box_sweep.h"
#include "tickwire/world/map_object.h"
#include "tickwire/world/vec3.h"

namespace tickwire::world {

struct TurnedBox {
  Vec3 centre;
  Vec3 half_extents;  // in its own frame
  Vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};  // its own x, y and z in the world, unit length

  // The box with these half extents turned by `rotation` (renormalised: a pose off the wire is a
  // hair off unit length) about `centre`.
  static TurnedBox of(Vec3 centre, Vec3 half_extents, const Quat& rotation);
  // The world-aligned box enclosing it.
  Aabb bounds() const;
};

// Moves `box` by up to `delta_m` along `axis` against each turned box, with box_sweep's rules: it
// stops kContactSkinM short of the first face in its way (measured along that face's normal), a
// box it entered by at most kShallowOverlapM stops any move deeper, and one it sits deeper inside
// is ignored.
SweepResult sweep_axis(const Aabb& box, Axis axis, float delta_m, std::span<const TurnedBox> turned);

// What a pawn's move meets that does not move this step: the axis-aligned boxes and the turned ones.
struct FixedSolids {
  std::span<const Aabb> boxes;
  std::span<const TurnedBox> turned;
};
SweepResult sweep_axis(const Aabb& box, Axis axis, float delta_m, const FixedSolids& solids);
bool overlaps_any(const Aabb& box, const FixedSolids& solids);

// True when `box` overlaps the turned box (touching faces do not overlap).
bool overlaps(const Aabb& box, const TurnedBox& turned);
bool overlaps_any(const Aabb& box, std::span<const TurnedBox> turned);
// How deep `box` is inside the turned box: the least overlap of their shadows over every separating
// axis (0: apart or touching), the distance that would take it out.
float overlap_depth(const Aabb& box, const TurnedBox& turned);

}  // namespace tickwire::world
