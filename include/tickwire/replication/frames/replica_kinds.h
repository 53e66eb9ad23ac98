// ReplicaKinds: the game's registry of what each kind is on the wire (seed 000, NetKind): which
// kinds exist (a record of an unregistered kind is ignored by the client) and each kind's
// precision. Registered on both ends by the game; values are only ever appended.
#pragma once

#include <array>
#include <cstdint>

namespace tickwire {

struct ReplicaPrecision {
  float position_quantum_m = 1.0f / 512.0f;  // decoded positions lie within half of it of the truth
  uint8_t rotation_bits = 9;                  // smallest-three bits per component (9..15)
  // When set, the smallest-three grid's max step M itself (255..16383), overriding rotation_bits:
  // a precision between two bit counts (the codec's cost follows M, not a power of two).
  uint16_t rotation_steps = 0;
  // The kind moves smoothly (physics bodies on curved paths, projectiles): its records' prediction
  // is fitted over every frame the client holds. Measured: 250 smooth bodies 15.1 -> 8.9 bits per
  // update; random walkers and bouncing cubes code better (and far cheaper) from two frames.
  bool fit_history = false;

  int32_t rotation_max_step() const;
  // The coarsest grid whose decoded orientations lie within `max_angle_rad` of the truth
  // (measured over random unit quaternions: the worst angle error is about 2.2 / M radians, float
  // rounding included; this takes M = 2.4 / max_angle_rad for margin).
  static uint16_t rotation_steps_for_angle(double max_angle_rad);
};

class ReplicaKinds {
 public:
  // Every kind the protocol names (NetKind 1..6) at the default precision; objects use `objects()`.
  static ReplicaKinds defaults();
  void set(uint8_t kind, const ReplicaPrecision& precision);
  bool registered(uint8_t kind) const;
  const ReplicaPrecision& of(uint8_t kind) const;  // an unregistered kind reads the default
  const ReplicaPrecision& objects() const { return objects_; }
  void set_objects(const ReplicaPrecision& precision);
  // Some registered kind (or the objects) fits its prediction over history: when none does, a
  // codec never needs to look at a frame's kinds to know.
  bool any_fit_history() const { return any_fit_history_; }

 private:
  void note_fit_history();
  bool any_fit_history_ = false;
  std::array<bool, 256> registered_{};
  std::array<ReplicaPrecision, 256> precision_{};
  ReplicaPrecision objects_;
};

}  // namespace tickwire
