// The character mover's step: look, frozen, stance, noclip flight, then walking physics in equal
// substeps (accelerate toward the wished velocity, gravity, one swept move per axis). Every velocity
// is clamped to max_speed_mps, and each move is the trapezoid of the substep's two velocities, so
// no step moves the pawn faster than the limit a forgiveness gate bounds claims with.
#include "tickwire/world/character_mover.h"

#include <algorithm>
#include <cmath>

#include "tickwire/core/assert.h"
#include "tickwire/protocol/world_settings.h"
#include "tickwire/world/box_sweep.h"
#include "tickwire/world/look_frame.h"
#include "tickwire/world/pawn_buttons.h"
#include "tickwire/world/turned_box.h"

namespace tickwire::world {

namespace {

// How far a rising box's top may pass a pawn's feet in one substep and still stand it on top (a
// lift catching a pawn that stepped on as it rose); deeper, the pawn is inside it and left alone.
constexpr float kMaxScoopM = 0.25f;
// A dt a hair over a whole number of substeps (float rounding of 1/30 against 1/60) is not one more.
constexpr float kSubstepRoundingSlack = 1e-4f;
// Every step a room can ask (the contract's slowest tick, 1 Hz, at the largest time scale) fits the
// bound at the default substep: a slow room steps, it never meets the step's assertion.
static_assert(static_cast<float>(kMaxMoverSubsteps) * (1.0f / 60.0f) >= protocol::kMaxWorldTimeScale / 1.0f);

// The move axes, each in [-1, 1] (a non-finite axis reads as 0), as a vector no longer than 1 so
// a diagonal is no faster than a straight line.
struct MoveAxes {
  float x = 0, y = 0;
};

MoveAxes move_axes(const protocol::InputCmd& cmd) {
  auto axis = [](float v) { return std::isfinite(v) ? std::clamp(v, -1.0f, 1.0f) : 0.0f; };
  MoveAxes m{axis(cmd.move_x), axis(cmd.move_y)};
  const float length_sq = m.x * m.x + m.y * m.y;
  if (length_sq > 1.0f) {
    const float scale = 1.0f / std::sqrt(length_sq);
    m.x *= scale;
    m.y *= scale;
  }
  return m;
}

void take_look(PawnState& s, const protocol::InputCmd& cmd) {
  if (std::isfinite(cmd.yaw_deg)) s.yaw_deg = cmd.yaw_deg;
  if (std::isfinite(cmd.pitch_deg)) s.pitch_deg = std::clamp(cmd.pitch_deg, -90.0f, 90.0f);
}

// Crouching is always allowed; standing up needs the standing box clear (noclip stands anywhere).
void take_stance(PawnState& s, bool want_crouch, const MoverSettings& settings, const FixedSolids& statics) {
  if (want_crouch == s.crouched) return;
  if (!want_crouch && !s.noclip) {
    PawnState standing = s;
    standing.stance_height_m = settings.standing_height_m;
    if (overlaps_any(pawn_bounds(standing, settings.radius_m), statics)) return;
  }
  s.crouched = want_crouch;
  s.stance_height_m = want_crouch ? settings.crouched_height_m : settings.standing_height_m;
  s.eye_height_m = want_crouch ? settings.crouched_eye_m : settings.standing_eye_m;
}

float horizontal_length(const Vec3& v) { return std::sqrt(v.x * v.x + v.z * v.z); }

// The velocity held inside the speed limit: horizontal length, and vertical between the terminal
// fall speed and the vertical limit.
Vec3 clamp_velocity(Vec3 v, const MoverSpeedLimit& limit, const MoverSettings& settings) {
  const float horizontal = horizontal_length(v);
  if (horizontal > limit.horizontal_mps) {
    const float scale = limit.horizontal_mps / horizontal;
    v.x *= scale;
    v.z *= scale;
  }
  v.y = std::clamp(v.y, -settings.max_fall_speed_mps, limit.vertical_mps);
  return v;
}

// The horizontal part of `from` moved toward `to` by at most max_change_mps (y untouched).
Vec3 approach_horizontal(Vec3 from, const Vec3& to, float max_change_mps) {
  const Vec3 diff{to.x - from.x, 0.0f, to.z - from.z};
  const float distance = horizontal_length(diff);
  if (distance <= max_change_mps) return {to.x, from.y, to.z};
  const float scale = max_change_mps / distance;
  from.x += diff.x * scale;
  from.z += diff.z * scale;
  return from;
}

void fly(PawnState& s, const MoveAxes& m, const MoverSettings& settings, float dt_s) {
  const LookFrame frame = look_frame(s.yaw_deg, s.pitch_deg);
  s.velocity_mps = (frame.forward * m.y + frame.right * m.x) * settings.noclip_speed_mps;
  s.feet += s.velocity_mps * dt_s;
  s.grounded = false;
}

// What a substep collides with: the statics (axis-aligned and turned), and the moving boxes where
// they stand at `t` (the fraction of the step elapsed at the substep's end).
struct Solids {
  FixedSolids statics;
  std::span<const MovingBox> moving;
  float t = 0;
};

SweepResult sweep(const Aabb& box, Axis axis, float delta_m, const Solids& solids) {
  SweepResult r = sweep_axis(box, axis, delta_m, solids.statics);
  for (const MovingBox& m : solids.moving) {
    const Aabb at = m.at(solids.t);
    const SweepResult one = sweep_axis(box, axis, r.moved_m, std::span<const Aabb>(&at, 1));
    if (one.blocked) r = one;
  }
  return r;
}

// The moving box the pawn stands on at `t` (grounded, feet on its top within the probe, overlapping
// it across), or null.
const MovingBox* carrier(const PawnState& s, const MoverSettings& settings, const Solids& solids, float t) {
  if (!s.grounded) return nullptr;
  const Aabb feet = pawn_bounds(s, settings.radius_m);
  for (const MovingBox& m : solids.moving)
    if (stands_on(feet, m.at(t))) return &m;
  return nullptr;
}

// A rider goes where its carrier goes this substep, swept through the statics (a lift never pushes
// it into a ceiling).
void carry(PawnState& s, const MoverSettings& settings, const MovingBox& m, float fraction, const FixedSolids& statics) {
  const Vec3 move_m = m.delta_m * fraction;
  for (Axis axis : {Axis::y, Axis::x, Axis::z}) {
    component(s.feet, axis) += sweep_axis(pawn_bounds(s, settings.radius_m), axis, component(move_m, axis), statics).moved_m;
  }
}

// A rising box that passed the pawn's feet this substep (by at most kMaxScoopM) stands the pawn on
// it, where the statics leave room (a lift never pushes a rider into a ceiling).
void scoop(PawnState& s, Vec3& v, const MoverSettings& settings, const Solids& solids) {
  for (const MovingBox& m : solids.moving) {
    if (m.delta_m.y <= 0.0f) continue;
    const Aabb at = m.at(solids.t);
    const Aabb feet = pawn_bounds(s, settings.radius_m);
    if (!feet.overlaps(at) || at.max.y - feet.min.y > kMaxScoopM) continue;
    PawnState lifted = s;
    lifted.feet.y = at.max.y + kContactSkinM;
    if (overlaps_any(pawn_bounds(lifted, settings.radius_m), solids.statics)) continue;  // no room: left where it is
    s = lifted;
    if (v.y < 0.0f) v.y = 0.0f;
  }
}

// One substep of walking physics. `wish_mps` is the horizontal velocity the input asks for.
void walk_substep(PawnState& s, const Vec3& wish_mps, bool steering, const MoverSettings& settings, float dt_s,
                  const Solids& solids) {
  const MoverSpeedLimit limit = max_speed_mps(settings, s);
  const Vec3 v0 = clamp_velocity(s.velocity_mps, limit, settings);
  Vec3 v1 = v0;
  // On the ground the wished velocity is always approached (no input brakes to a stop); in the
  // air only an input steers, so a jump keeps its momentum.
  if (s.grounded || steering) {
    const float accel_mps2 = s.grounded ? settings.ground_accel_mps2 : settings.air_accel_mps2;
    v1 = approach_horizontal(v1, wish_mps, accel_mps2 * dt_s);
  }
  v1.y -= settings.gravity_mps2 * dt_s;
  v1 = clamp_velocity(v1, limit, settings);
  // The trapezoid is exact for constant acceleration and never longer than the faster endpoint.
  const Vec3 move_m = (v0 + v1) * (0.5f * dt_s);
  for (Axis axis : {Axis::y, Axis::x, Axis::z}) {
    const SweepResult r = sweep(pawn_bounds(s, settings.radius_m), axis, component(move_m, axis), solids);
    component(s.feet, axis) += r.moved_m;
    if (r.blocked) component(v1, axis) = 0.0f;
  }
  if (!solids.moving.empty()) scoop(s, v1, settings, solids);
  // A pawn just above a floor is grounded (it may jump, it brakes) but keeps falling onto it: no
  // snap down, so a landing never moves the pawn faster than max_speed_mps.
  s.grounded = v1.y <= 0.0f && sweep(pawn_bounds(s, settings.radius_m), Axis::y, -kGroundProbeM, solids).blocked;
  s.velocity_mps = v1;
}

// The horizontal velocity the move axes ask for, along the pawn's look at its stance's speed.
Vec3 walk_wish(const PawnState& s, const MoveAxes& m, bool run, const MoverSettings& settings) {
  const float speed_mps = s.crouched ? settings.crouch_speed_mps : run ? settings.run_speed_mps : settings.walk_speed_mps;
  const LookFrame frame = look_frame(s.yaw_deg, s.pitch_deg);
  return (frame.forward_flat * m.y + frame.right * m.x) * speed_mps;
}

int substep_count(float dt_s, float max_substep_s) {
  const float n = std::ceil(dt_s / max_substep_s - kSubstepRoundingSlack);
  return std::clamp(static_cast<int>(n), 1, kMaxMoverSubsteps);
}

}  // namespace

bool stands_on(const Aabb& pawn_box, const Aabb& top) {
  const float gap_m = pawn_box.min.y - top.max.y;
  const bool across = pawn_box.min.x < top.max.x && pawn_box.max.x > top.min.x && pawn_box.min.z < top.max.z &&
                      pawn_box.max.z > top.min.z;
  return across && gap_m >= -kContactSkinM && gap_m <= kGroundProbeM;
}

MoverSpeedLimit max_speed_mps(const MoverSettings& settings, const PawnState& pawn) {
  if (pawn.frozen) return {0.0f, 0.0f};
  if (pawn.noclip) return {settings.noclip_speed_mps, settings.noclip_speed_mps};
  return {std::max({settings.walk_speed_mps, settings.run_speed_mps, settings.crouch_speed_mps}),
          std::max(settings.jump_velocity_mps, settings.max_fall_speed_mps)};
}

CharacterMover::CharacterMover(const MoverSettings& settings) { set_settings(settings); }

void CharacterMover::set_settings(const MoverSettings& settings) {
  TW_ASSERT(settings.valid(), "mover settings out of range");
  settings_ = settings;
}

Vec3 CharacterMover::wish_velocity(const PawnState& pawn, const protocol::InputCmd& cmd) const {
  if (pawn.frozen || pawn.noclip) return {};
  return walk_wish(pawn, move_axes(cmd), button_held(cmd.buttons, kButtonRun), settings_);
}

PawnState CharacterMover::step(const PawnState& pawn, const protocol::InputCmd& cmd, float dt_s,
                               std::span<const Aabb> static_boxes, std::span<const MovingBox> moving_boxes,
                               std::span<const TurnedBox> turned_boxes) const {
  TW_ASSERT(std::isfinite(dt_s) && dt_s >= 0.0f &&
                dt_s <= settings_.max_substep_s * (static_cast<float>(kMaxMoverSubsteps) + kSubstepRoundingSlack),
            "step dt must be within [0, kMaxMoverSubsteps * max_substep_s]");
  PawnState s = pawn;
  take_look(s, cmd);
  if (s.frozen) {
    s.velocity_mps = {};
    return s;
  }
  const FixedSolids fixed{static_boxes, turned_boxes};
  take_stance(s, button_held(cmd.buttons, kButtonCrouch), settings_, fixed);
  const MoveAxes m = move_axes(cmd);
  if (s.noclip) {
    fly(s, m, settings_, dt_s);
    return s;
  }
  if (dt_s == 0.0f) return s;
  if (s.grounded && button_held(cmd.buttons, kButtonJump)) {
    s.velocity_mps.y = settings_.jump_velocity_mps;
    s.grounded = false;
  }
  const Vec3 wish_mps = walk_wish(s, m, button_held(cmd.buttons, kButtonRun), settings_);
  const bool steering = m.x != 0.0f || m.y != 0.0f;
  const int substeps = substep_count(dt_s, settings_.max_substep_s);
  const float substep_s = dt_s / static_cast<float>(substeps);
  const float fraction = 1.0f / static_cast<float>(substeps);
  for (int i = 0; i < substeps; ++i) {
    const Solids solids{fixed, moving_boxes, static_cast<float>(i + 1) * fraction};
    if (const MovingBox* under = carrier(s, settings_, solids, static_cast<float>(i) * fraction)) {
      carry(s, settings_, *under, fraction, fixed);
    }
    walk_substep(s, wish_mps, steering, settings_, substep_s, solids);
  }
  return s;
}

}  // namespace tickwire::world
