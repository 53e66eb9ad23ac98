// The codec's kind table, from the game's vocabulary.
#include "tickwire/replication/frames/replica_kinds.h"

#include <algorithm>
#include <cmath>

#include "tickwire/core/assert.h"
#include "tickwire/replication/frames/smallest_three.h"

namespace tickwire {

int32_t rotation_max_step(const KindPrecision& precision) {
  return precision.rotation_steps != 0 ? precision.rotation_steps : rotation_max_step(precision.rotation_bits);
}

uint16_t rotation_steps_for_angle(double max_angle_rad) {
  TW_ASSERT(max_angle_rad > 0, "an angle precision must be positive");
  const double steps = std::ceil(2.4 / max_angle_rad);
  const double lo = tickwire::rotation_max_step(kMinRotationBits);
  return static_cast<uint16_t>(std::clamp(steps, lo, static_cast<double>(kMaxRotationStep)));
}

ReplicaKinds ReplicaKinds::from(const GameVocabulary& vocabulary) {
  ReplicaKinds kinds;
  for (const KindDef& kind : vocabulary.kinds) kinds.set(kind.id, kind.precision);
  kinds.set_objects(vocabulary.objects);
  return kinds;
}

ReplicaKinds ReplicaKinds::defaults() {
  ReplicaKinds kinds;
  for (unsigned kind = 1; kind <= 255; ++kind) kinds.set(static_cast<uint8_t>(kind), KindPrecision{});
  return kinds;
}

namespace {
void check(const KindPrecision& precision) {
  TW_ASSERT(precision.position_quantum_m > 0, "a position quantum must be positive");
  TW_ASSERT(precision.rotation_bits >= kMinRotationBits && precision.rotation_bits <= kMaxRotationBits,
            "rotation bits must lie in 9..15");
  TW_ASSERT(precision.rotation_steps == 0 ||
                (precision.rotation_steps >= rotation_max_step(kMinRotationBits) && precision.rotation_steps <= kMaxRotationStep),
            "rotation steps must lie in 255..16383");
}
}  // namespace

void ReplicaKinds::set(uint8_t kind, const KindPrecision& precision) {
  check(precision);
  registered_[kind] = true;
  precision_[kind] = precision;
  note_fit_history();
}

void ReplicaKinds::set_objects(const KindPrecision& precision) {
  check(precision);
  objects_ = precision;
  note_fit_history();
}

void ReplicaKinds::note_fit_history() {
  any_fit_history_ = objects_.fit_history;
  for (std::size_t k = 0; k < precision_.size(); ++k) any_fit_history_ = any_fit_history_ || (registered_[k] && precision_[k].fit_history);
}

bool ReplicaKinds::registered(uint8_t kind) const { return registered_[kind]; }

const KindPrecision& ReplicaKinds::of(uint8_t kind) const {
  static const KindPrecision kDefault{};
  return registered_[kind] ? precision_[kind] : kDefault;
}

}  // namespace tickwire
