// The registry of replicated kinds and their precision, filled by the game on both ends.
#include "tickwire/replication/replica_kinds.h"

#include "tickwire/core/assert.h"
#include "tickwire/replication/smallest_three.h"

namespace tickwire {

ReplicaKinds ReplicaKinds::defaults() {
  ReplicaKinds kinds;
  for (uint8_t kind = 1; kind <= 6; ++kind) kinds.set(kind, ReplicaPrecision{});
  return kinds;
}

namespace {
void check(const ReplicaPrecision& precision) {
  TW_ASSERT(precision.position_quantum_m > 0, "a position quantum must be positive");
  TW_ASSERT(precision.rotation_bits >= kMinRotationBits && precision.rotation_bits <= kMaxRotationBits,
            "rotation bits must lie in 9..15");
}
}  // namespace

void ReplicaKinds::set(uint8_t kind, const ReplicaPrecision& precision) {
  check(precision);
  registered_[kind] = true;
  precision_[kind] = precision;
}

void ReplicaKinds::set_objects(const ReplicaPrecision& precision) {
  check(precision);
  objects_ = precision;
}

bool ReplicaKinds::registered(uint8_t kind) const { return registered_[kind]; }

const ReplicaPrecision& ReplicaKinds::of(uint8_t kind) const {
  static const ReplicaPrecision kDefault{};
  return registered_[kind] ? precision_[kind] : kDefault;
}

}  // namespace tickwire
