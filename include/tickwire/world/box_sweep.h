// Moving a box through static boxes one axis at a time: the collision primitive under the mover.
// A sweep finds the first box in the way along the whole move, whatever its length, so nothing
// tunnels; moving the axes one after another is what lets a blocked axis stop while the others slide.
#pragma once

#include <cstdint>
#include <span>

#include "tickwire/world/vec3.h"

namespace tickwire::world {

// The gap a sweep leaves between a moving box and what stopped it, so rounding can never leave the
// two overlapping (and a box resting on a floor does not "touch" it on the other axes).
inline constexpr float kContactSkinM = 0.001f;

// A box that entered a static's near face by at most this much (a physics prop the solver pressed
// into a pawn) may move out of it but no deeper; past it, it is inside, and free to walk out.
inline constexpr float kShallowOverlapM = 0.05f;

enum class Axis : uint8_t { x, y, z };

float component(const Vec3& v, Axis axis);
float& component(Vec3& v, Axis axis);

struct SweepResult {
  float moved_m = 0;  // signed distance actually travelled along the axis
  bool blocked = false;  // a static box stopped the move short of delta_m
};

// Moves `box` by up to `delta_m` along `axis`, stopping kContactSkinM short of the first static box
// whose cross-section overlaps the box's. A static box the moving box has entered by at most
// kShallowOverlapM past its near face stops any move further in; one it sits deeper inside is
// ignored, so a pawn placed inside geometry can walk out of it.
SweepResult sweep_axis(const Aabb& box, Axis axis, float delta_m, std::span<const Aabb> statics);

// True when `box` overlaps any static box (touching faces do not overlap).
bool overlaps_any(const Aabb& box, std::span<const Aabb> statics);

}  // namespace tickwire::world
