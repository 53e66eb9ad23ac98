// The tuning of the reference game's character mover: speeds, jump, gravity, the two stances and
// the pawn's size. One value shared by server and client (it is world state, not a preference), so
// both ends step the same pawn the same way.
#pragma once

namespace tickwire::world {

// The fastest noclip flight a setting may ask for (the seed's players fly at 400 m/s).
inline constexpr float kMaxNoclipSpeedMps = 2000.0f;
// A step longer than this many substeps of max_substep_s is a programmer error. The longest step a
// room asks is its slowest tick (1 Hz) at the largest time scale (4): 240 substeps of the default
// 1/60 s (character_mover.cpp checks the bound against the contract's limits).
inline constexpr int kMaxMoverSubsteps = 256;

struct MoverSettings {
  float walk_speed_mps = 4.0f;
  float run_speed_mps = 7.0f;
  float crouch_speed_mps = 2.0f;
  // Ground speed changes (speeding up and braking) at this rate; in the air only steering does.
  float ground_accel_mps2 = 60.0f;
  float air_accel_mps2 = 12.0f;
  float jump_velocity_mps = 5.0f;
  float gravity_mps2 = 9.81f;
  float max_fall_speed_mps = 55.0f;  // terminal velocity, so a fall has a speed bound
  float standing_height_m = 1.8f;
  float standing_eye_m = 1.6f;
  float crouched_height_m = 1.0f;
  float crouched_eye_m = 0.8f;
  float radius_m = 0.3f;  // half the width of the pawn's square footprint
  float noclip_speed_mps = 10.0f;
  // A step is split into equal substeps no longer than this (sweeps already stop tunnelling; the
  // substeps keep acceleration and gravity integration the same at any tick rate).
  float max_substep_s = 1.0f / 60.0f;

  // Every value finite and positive, the stances ordered (crouched below standing, each eye inside
  // its stance), noclip no faster than kMaxNoclipSpeedMps.
  bool valid() const;
};

}  // namespace tickwire::world
