// The slab test: a ray's entry into a box is the latest of its entries into the three slabs, and it
// meets the box when that comes before the earliest exit.
#include "tickwire/world/ray_cast.h"

#include <cmath>
#include <limits>
#include <utility>
#include <algorithm>

namespace tickwire::world {

namespace {

// The ray in some box's frame: an origin and direction along the box's three axes, against the
// box's half extents about its centre.
std::optional<RayHit> slabs(const float origin[3], const float direction[3], const float half[3], float max_m,
                            int& entry_axis) {
  float enter = -std::numeric_limits<float>::infinity();
  float leave = std::numeric_limits<float>::infinity();
  entry_axis = -1;
  for (int a = 0; a < 3; ++a) {
    if (std::fabs(direction[a]) < 1e-12f) {
      if (origin[a] <= -half[a] || origin[a] >= half[a]) return std::nullopt;  // parallel, outside
      continue;
    }
    float t0 = (-half[a] - origin[a]) / direction[a];
    float t1 = (half[a] - origin[a]) / direction[a];
    if (t0 > t1) std::swap(t0, t1);
    if (t0 > enter) {
      enter = t0;
      entry_axis = a;
    }
    leave = std::min(leave, t1);
  }
  if (entry_axis < 0 || enter > leave || enter < 0 || enter > max_m) return std::nullopt;  // inside, behind or past
  return RayHit{enter, {}};
}

}  // namespace

bool inside(const Aabb& box, Vec3 p) {
  return p.x > box.min.x && p.x < box.max.x && p.y > box.min.y && p.y < box.max.y && p.z > box.min.z && p.z < box.max.z;
}

std::optional<RayHit> ray_box(const Ray& ray, const Aabb& box, float max_m) {
  const Vec3 centre = (box.min + box.max) * 0.5f;
  const Vec3 half = (box.max - box.min) * 0.5f;
  const Vec3 local = ray.origin - centre;
  const float origin[3] = {local.x, local.y, local.z};
  const float direction[3] = {ray.direction.x, ray.direction.y, ray.direction.z};
  const float halves[3] = {half.x, half.y, half.z};
  int axis = -1;
  std::optional<RayHit> hit = slabs(origin, direction, halves, max_m, axis);
  if (!hit) return std::nullopt;
  float n[3] = {0, 0, 0};
  n[axis] = direction[axis] > 0 ? -1.0f : 1.0f;
  hit->normal = {n[0], n[1], n[2]};
  return hit;
}

std::optional<RayHit> ray_turned_box(const Ray& ray, const TurnedBox& box, float max_m) {
  const Vec3 local = ray.origin - box.centre;
  const float origin[3] = {local.dot(box.axes[0]), local.dot(box.axes[1]), local.dot(box.axes[2])};
  const float direction[3] = {ray.direction.dot(box.axes[0]), ray.direction.dot(box.axes[1]),
                              ray.direction.dot(box.axes[2])};
  const float halves[3] = {box.half_extents.x, box.half_extents.y, box.half_extents.z};
  int axis = -1;
  std::optional<RayHit> hit = slabs(origin, direction, halves, max_m, axis);
  if (!hit) return std::nullopt;
  hit->normal = box.axes[axis] * (direction[axis] > 0 ? -1.0f : 1.0f);
  return hit;
}

}  // namespace tickwire::world
