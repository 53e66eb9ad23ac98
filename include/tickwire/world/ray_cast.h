// Where a ray meets a box: the shot trace's one geometric question, for the world-aligned boxes (the
// map, the movers, the pawns, the voxel cells) and the turned ones (the props). A ray is an origin
// and a unit direction; it meets a box where it first crosses one of the box's faces from outside
// (the slab test), and a ray that starts inside a box meets nothing of it (leaving is not a hit).
#pragma once

#include <optional>

#include "tickwire/world/turned_box.h"
#include "tickwire/world/vec3.h"

namespace tickwire::world {

struct Ray {
  Vec3 origin;
  Vec3 direction;  // unit length
  Vec3 at(float distance_m) const { return origin + direction * distance_m; }
};

struct RayHit {
  float distance_m = 0;  // along the ray, from its origin
  Vec3 normal;           // the struck face's outward normal (unit, one of the box's axes)
};

// Whether `point` is strictly inside `box` (a ray from there meets nothing of it).
bool inside(const Aabb& box, Vec3 point);

// The first face of `box` the ray crosses within `max_m`, or nullopt.
std::optional<RayHit> ray_box(const Ray& ray, const Aabb& box, float max_m);
// The same for a turned box: the ray taken into the box's own frame, the normal turned back out.
std::optional<RayHit> ray_turned_box(const Ray& ray, const TurnedBox& box, float max_m);

}  // namespace tickwire::world
