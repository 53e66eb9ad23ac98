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

 private:
  std::array<bool, 256> registered_{};
  std::array<ReplicaPrecision, 256> precision_{};
  ReplicaPrecision objects_;
};

}  // namespace tickwire
