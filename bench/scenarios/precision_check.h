// The bench's precision rule ("precision is fixed, not tuned"): every decoded value against the
// float truth, every tick: positions within half a quantum, orientations within the smallest-three
// bound of the kind's bits (or the scenario's), look angles within half a step, the rest exact.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "bandwidth_scenario.h"
#include "tickwire/replication/frames/replica_kinds.h"
#include "tickwire/replication/frames/replica_state.h"

namespace tickwire::bench {

// The largest angle (radians) between a unit quaternion and its smallest-three reconstruction at
// `bits` per component: each small component off by at most half a step h = (1/sqrt 2)/(2^bits - 1),
// the largest (>= 1/2) rebuilt from them, so the chord is at most sqrt(12) h and the angle 2 sqrt(12) h.
double smallest_three_angle_bound_rad(unsigned bits);
// The angle between two rotations (either sign of either quaternion), radians.
double rotation_angle_rad(const wire::Quat& a, const wire::Quat& b);

struct PrecisionTally {
  uint64_t values_checked = 0;
  uint64_t failures = 0;
  std::string first_failure;            // "tick 12 id 7: position x off by ..." when failures > 0
  double max_position_error_quanta = 0;  // largest |decoded - truth| in quanta (bound 0.5)
  double max_angle_error_rad = 0;
  double angle_bound_rad = 0;            // the tightest bound applied (the scenario's or the kinds')
};

class PrecisionCheck {
 public:
  PrecisionCheck(const ReplicaKinds& kinds, std::optional<double> max_angle_error_rad);

  // Compares `frame` (what the client holds) with `truth`; both ascending id, one state per record.
  void check(uint32_t tick, const TruthFrame& truth, const ReplicaFrame& frame);
  const PrecisionTally& tally() const { return tally_; }

 private:
  void check_record(uint32_t tick, const protocol::Record& truth, const ReplicaState& state);
  void check_entity(uint32_t tick, uint32_t id, const protocol::EntityRecord& truth, const protocol::EntityRecord& got);
  void check_object(uint32_t tick, uint32_t id, const protocol::ObjectRecord& truth, const protocol::ObjectRecord& got);
  void fail(uint32_t tick, uint32_t id, const std::string& what);

  const ReplicaKinds& kinds_;
  std::optional<double> max_angle_error_rad_;
  PrecisionTally tally_;
};

}  // namespace tickwire::bench
