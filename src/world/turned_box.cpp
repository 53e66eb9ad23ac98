// The separating axis test between a pawn's axis-aligned box and a turned box, swept along one world
// axis: on every candidate axis the two boxes' shadows overlap for an interval of the move; they
// meet where the last of those intervals opens, on the face whose axis opened it.
#include "tickwire/world/turned_box.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "tickwire/world/quat_math.h"

namespace tickwire::world {
namespace {

// The crossing of two edges this close to parallel separates nothing the face axes do not.
constexpr float kMinCrossLength = 1e-3f;
// A face met at a graze is backed off from at most kContactSkinM / this along the move (1 cm).
constexpr float kMinNormalShare = 0.1f;

constexpr Vec3 kWorldAxes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

// Every candidate separating axis (unit length): the world's three, the box's three, and the
// crossings of each pair that are not near parallel.
template <class Visit>
void visit_axes(const TurnedBox& turned, Visit visit) {
  for (const Vec3& a : kWorldAxes) visit(a);
  for (const Vec3& b : turned.axes) visit(b);
  for (const Vec3& a : kWorldAxes) {
    for (const Vec3& b : turned.axes) {
      const Vec3 c = cross(a, b);
      const float length = c.length();
      if (length > kMinCrossLength) visit(c * (1.0f / length));
    }
  }
}

// Two boxes' shadows on an axis: how far apart their centres are (the aligned box's less the
// turned one's) and how far apart they may be and still overlap (the sum of their half widths).
struct Shadows {
  float apart_m;
  float reach_m;
  float gap() const { return std::fabs(apart_m) - reach_m; }  // >= 0: separated on this axis
};

Shadows shadows_on(const Aabb& box, const TurnedBox& turned, Vec3 axis) {
  const Vec3 half = (box.max - box.min) * 0.5f;
  const Vec3 centre = (box.min + box.max) * 0.5f;
  const float box_reach = half.x * std::fabs(axis.x) + half.y * std::fabs(axis.y) + half.z * std::fabs(axis.z);
  const float turned_reach = turned.half_extents.x * std::fabs(axis.dot(turned.axes[0])) +
                             turned.half_extents.y * std::fabs(axis.dot(turned.axes[1])) +
                             turned.half_extents.z * std::fabs(axis.dot(turned.axes[2]));
  return Shadows{(centre - turned.centre).dot(axis), box_reach + turned_reach};
}

// How far `box` may go along `axis` (delta_m signed) against one turned box: nullopt when it does
// not stop it, else the distance it may still travel (>= 0).
std::optional<float> allowed_against(const Aabb& box, Axis axis, float delta_m, const TurnedBox& turned) {
  bool overlapping = true;
  float depth_m = std::numeric_limits<float>::max();
  bool deeper = false;  // the move goes further in along the axis of least depth
  bool never = false;   // separated on an axis the move does not cross
  float enter = -std::numeric_limits<float>::max(), exit = std::numeric_limits<float>::max();
  float enter_share = 1;  // the entering face's normal along the move axis
  visit_axes(turned, [&](Vec3 normal) {
    const Shadows s = shadows_on(box, turned, normal);
    const float along = component(normal, axis);
    const float closing = delta_m * along;  // the change in apart_m over the whole move
    if (s.gap() >= 0) {
      overlapping = false;
    } else if (-s.gap() < depth_m) {
      depth_m = -s.gap();
      deeper = s.apart_m * closing < 0;
    }
    if (std::fabs(closing) <= std::numeric_limits<float>::min()) {
      never = never || s.gap() >= 0;
      return;
    }
    float t0 = (-s.reach_m - s.apart_m) / closing, t1 = (s.reach_m - s.apart_m) / closing;
    if (t0 > t1) std::swap(t0, t1);
    if (t0 > enter) {
      enter = t0;
      enter_share = std::fabs(along);
    }
    exit = std::min(exit, t1);
  });
  if (overlapping) {  // inside: a shallow entry may not go deeper; deeper in, free to walk out
    if (depth_m <= kShallowOverlapM && deeper) return 0.0f;
    return std::nullopt;
  }
  if (never || enter >= exit || exit <= 0.0f || enter >= 1.0f) return std::nullopt;
  const float travel_m = std::max(enter, 0.0f) * std::fabs(delta_m);
  return std::max(0.0f, travel_m - kContactSkinM / std::max(enter_share, kMinNormalShare));
}

}  // namespace

TurnedBox TurnedBox::of(Vec3 centre, Vec3 half_extents, const Quat& rotation) {
  const Quat q = normalized(rotation);
  TurnedBox box{centre, half_extents};
  for (int i = 0; i < 3; ++i) box.axes[i] = rotate(q, kWorldAxes[i]);
  return box;
}

Aabb TurnedBox::bounds() const {
  Vec3 reach;
  for (int i = 0; i < 3; ++i) {
    const float h = i == 0 ? half_extents.x : i == 1 ? half_extents.y : half_extents.z;
    reach.x += std::fabs(axes[i].x) * h;
    reach.y += std::fabs(axes[i].y) * h;
    reach.z += std::fabs(axes[i].z) * h;
  }
  return Aabb{centre - reach, centre + reach};
}

SweepResult sweep_axis(const Aabb& box, Axis axis, float delta_m, std::span<const TurnedBox> turned) {
  SweepResult result;
  if (delta_m == 0.0f) return result;
  float reach_m = std::fabs(delta_m);
  for (const TurnedBox& t : turned) {
    // Cut short, or held where it stands (a shallow entry, or already at the skin).
    const std::optional<float> allowed = allowed_against(box, axis, delta_m, t);
    if (allowed && (*allowed < reach_m || *allowed == 0.0f)) {
      reach_m = *allowed;
      result.blocked = true;
    }
  }
  result.moved_m = delta_m > 0.0f ? reach_m : -reach_m;
  return result;
}

SweepResult sweep_axis(const Aabb& box, Axis axis, float delta_m, const FixedSolids& solids) {
  const SweepResult aligned = sweep_axis(box, axis, delta_m, solids.boxes);
  if (solids.turned.empty() || aligned.moved_m == 0.0f) return aligned;
  const SweepResult turned = sweep_axis(box, axis, aligned.moved_m, solids.turned);
  return turned.blocked ? turned : aligned;
}

bool overlaps(const Aabb& box, const TurnedBox& turned) {
  bool separated = false;
  visit_axes(turned, [&](Vec3 normal) { separated = separated || shadows_on(box, turned, normal).gap() >= 0; });
  return !separated;
}

float overlap_depth(const Aabb& box, const TurnedBox& turned) {
  float depth_m = std::numeric_limits<float>::max();
  visit_axes(turned, [&](Vec3 normal) { depth_m = std::min(depth_m, -shadows_on(box, turned, normal).gap()); });
  return std::max(depth_m, 0.0f);
}

bool overlaps_any(const Aabb& box, std::span<const TurnedBox> turned) {
  return std::any_of(turned.begin(), turned.end(), [&](const TurnedBox& t) { return overlaps(box, t); });
}

bool overlaps_any(const Aabb& box, const FixedSolids& solids) {
  return overlaps_any(box, solids.boxes) || overlaps_any(box, solids.turned);
}

}  // namespace tickwire::world
