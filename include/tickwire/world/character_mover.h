// CharacterMover: the one step function that moves a pawn, shared verbatim by the server (which
// simulates every pawn from its inputs) and the client (which predicts its own and replays un-acked
// inputs through it). Deterministic and allocation-free: the same binary gives bit-identical states.
#pragma once

#include <span>

#include "tickwire/protocol/input_frame.h"
#include "tickwire/world/mover_settings.h"
#include "tickwire/world/pawn_state.h"
#include "tickwire/world/vec3.h"

namespace tickwire::world {

struct TurnedBox;

// The fastest this pawn can move per second under these settings, by construction of the mover
// (it clamps to these), so a forgiveness gate can bound what a claim may say.
struct MoverSpeedLimit {
  float horizontal_mps = 0;
  float vertical_mps = 0;  // up or down
};

MoverSpeedLimit max_speed_mps(const MoverSettings& settings, const PawnState& pawn);

// Feet within this of a box top (and not rising) stand on it.
inline constexpr float kGroundProbeM = 0.02f;

// Whether a pawn's box stands on `top`: its feet on the top within the ground probe, across it.
bool stands_on(const Aabb& pawn_box, const Aabb& top);

// A solid the tick moves (a door, a lift: a kinematic body, LogicBodies): where it stands entering
// the step and how far the step moves it (its velocity x dt, seed 000's "real velocity"). It moves
// evenly through the step's substeps.
struct MovingBox {
  Aabb start;
  Vec3 delta_m;

  Aabb at(float t) const { return Aabb{start.min + delta_m * t, start.max + delta_m * t}; }
};

class CharacterMover {
 public:
  explicit CharacterMover(const MoverSettings& settings);

  // Advances `pawn` by dt_s seconds of `cmd` against the static boxes:
  // - look: yaw and pitch follow the command (pitch clamped to [-90, 90]);
  // - frozen: nothing else changes, and velocity is zero;
  // - stance: crouch takes the crouched height and eye at once; standing up is refused while a box
  //   is in the way of the standing box (noclip stands anywhere);
  // - noclip: flies along the look frame at noclip_speed_mps, through everything, no gravity;
  // - otherwise walk (crouch, walk or run speed), jump when grounded, gravity, and sweep the box
  //   through the statics axis by axis (y, x, z): a blocked axis loses its velocity, the rest slide;
  //   a pawn whose feet rest on a box top is grounded.
  // - moving boxes: a pawn standing on one (grounded, feet on its top) is carried by its motion,
  //   substep by substep, swept through the statics (its ground's point velocity: a rider moves
  //   exactly as far as the box); every pawn collides with each where it stands at the end of the
  //   substep, and one a rising box has scooped up (its top passed the feet by at most a step) is
  //   stood on it.
  // dt_s must be in [0, kMaxMoverSubsteps * max_substep_s].
  // `turned_boxes` are statics turned by a rotation (physics props): met at their faces.
  PawnState step(const PawnState& pawn, const protocol::InputCmd& cmd, float dt_s, std::span<const Aabb> static_boxes,
                 std::span<const MovingBox> moving_boxes = {}, std::span<const TurnedBox> turned_boxes = {}) const;

  // The horizontal velocity `cmd` asks a pawn standing as `pawn` does (its look and stance already
  // the command's: a stepped pawn) to walk at; zero when frozen or flying. What a push shoves with.
  Vec3 wish_velocity(const PawnState& pawn, const protocol::InputCmd& cmd) const;

  const MoverSettings& settings() const { return settings_; }
  void set_settings(const MoverSettings& settings);

 private:
  MoverSettings settings_;
};

}  // namespace tickwire::world
