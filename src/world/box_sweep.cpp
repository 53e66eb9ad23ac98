// Axis sweeps of a box through static boxes: for each static box whose cross-section overlaps the
// moving box, the move is cut at the box's near face less the contact skin.
#include "tickwire/world/box_sweep.h"

#include <algorithm>

namespace tickwire::world {

float component(const Vec3& v, Axis axis) {
  switch (axis) {
    case Axis::x: return v.x;
    case Axis::y: return v.y;
    case Axis::z: break;
  }
  return v.z;
}

float& component(Vec3& v, Axis axis) {
  switch (axis) {
    case Axis::x: return v.x;
    case Axis::y: return v.y;
    case Axis::z: break;
  }
  return v.z;
}

namespace {

// Strict overlap on the two axes other than `axis` (touching faces do not count).
bool cross_section_overlaps(const Aabb& a, const Aabb& b, Axis axis) {
  for (Axis other : {Axis::x, Axis::y, Axis::z}) {
    if (other == axis) continue;
    if (!(component(a.min, other) < component(b.max, other) && component(a.max, other) > component(b.min, other)))
      return false;
  }
  return true;
}

}  // namespace

SweepResult sweep_axis(const Aabb& box, Axis axis, float delta_m, std::span<const Aabb> statics) {
  SweepResult result;
  if (delta_m == 0.0f) return result;
  const bool forward = delta_m > 0.0f;
  float reach_m = forward ? delta_m : -delta_m;  // how far the box may still go, >= 0
  for (const Aabb& s : statics) {
    if (!cross_section_overlaps(box, s, axis)) continue;
    const float gap_m = forward ? component(s.min, axis) - component(box.max, axis)
                                : component(box.min, axis) - component(s.max, axis);
    if (gap_m < -kContactSkinM) {
      // Behind the box, or already inside it: left alone, unless the box only just entered the
      // static's near face (a crate the solver pressed a hair into a pawn): it may not go deeper.
      const float far_m = forward ? component(s.max, axis) - component(box.max, axis)
                                  : component(box.min, axis) - component(s.min, axis);
      if (gap_m < -kShallowOverlapM || far_m <= 0.0f) continue;
      reach_m = 0.0f;
      result.blocked = true;
      continue;
    }
    const float allowed_m = std::max(0.0f, gap_m - kContactSkinM);
    if (allowed_m < reach_m) {
      reach_m = allowed_m;
      result.blocked = true;
    }
  }
  result.moved_m = forward ? reach_m : -reach_m;
  return result;
}

bool overlaps_any(const Aabb& box, std::span<const Aabb> statics) {
  return std::any_of(statics.begin(), statics.end(), [&](const Aabb& s) { return box.overlaps(s); });
}

}  // namespace tickwire::world
