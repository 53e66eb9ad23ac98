// ReplicaKinds: the codec's table of what each kind is on the wire, built from the game's
// GameVocabulary (seed 000, NetKind): which kinds exist (a record of an unregistered kind is ignored
// by the client) and each kind's precision, looked up per record on the hot paths in one index.
#pragma once

#include <array>
#include <cstdint>

#include "tickwire/protocol/vocabulary.h"

namespace tickwire {

using ReplicaPrecision = KindPrecision;

// The smallest-three grid's max step M a precision codes rotations on.
int32_t rotation_max_step(const KindPrecision& precision);
// The coarsest grid whose decoded orientations lie within `max_angle_rad` of the truth (measured
// over random unit quaternions: the worst angle error is about 2.2 / M radians, float rounding
// included; this takes M = 2.4 / max_angle_rad for margin).
uint16_t rotation_steps_for_angle(double max_angle_rad);

class ReplicaKinds {
 public:
  // The game's kinds and object precision, as its vocabulary registers them.
  static ReplicaKinds from(const GameVocabulary& vocabulary);
  // Every kind id 1..255 at the default precision: a codec test's or bench's table, not a game's.
  static ReplicaKinds defaults();
  void set(uint8_t kind, const KindPrecision& precision);
  bool registered(uint8_t kind) const;
  const KindPrecision& of(uint8_t kind) const;  // an unregistered kind reads the default
  const KindPrecision& objects() const { return objects_; }
  void set_objects(const KindPrecision& precision);
  // Some registered kind (or the objects) fits its prediction over history: when none does, a
  // codec never needs to look at a frame's kinds to know.
  bool any_fit_history() const { return any_fit_history_; }

 private:
  void note_fit_history();
  bool any_fit_history_ = false;
  std::array<bool, 256> registered_{};
  std::array<KindPrecision, 256> precision_{};
  KindPrecision objects_;
};

}  // namespace tickwire
