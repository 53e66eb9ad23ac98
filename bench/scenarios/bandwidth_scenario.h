// The seam between a bandwidth scenario (what the world does, in floats) and the harness that codes
// it: each tick a scenario hands over its true state as records, the harness runs them through the
// room's ReplicationServer, delivers and checks them. A scenario knows nothing about baselines,
// loss or the codec.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tickwire/protocol/record_batch.h"
#include "tickwire/protocol/snapshot.h"
#include "tickwire/protocol/vocabulary.h"
#include "tickwire/replication/frames/replica_kinds.h"
#include "tickwire/replication/frames/replica_state.h"

namespace tickwire::bench {

// One tick's truth: the owner's detail (when the receiving client owns a pawn) and every record,
// ascending entity id, with float positions and rotations as the simulation produced them.
struct TruthFrame {
  std::optional<protocol::OwnerDetail> owner;
  std::vector<protocol::Record> records;
};

// A named figure a scenario adds to its report beyond the common ones (mean over the ticks).
struct ExtraFigure {
  std::string name;
  double sum = 0;
  uint64_t samples = 0;
  double mean() const { return samples == 0 ? 0.0 : sum / static_cast<double>(samples); }
};

class BandwidthScenario {
 public:
  virtual ~BandwidthScenario() = default;

  virtual std::string name() const = 0;
  virtual uint32_t tick_hz() const = 0;
  virtual uint32_t ticks() const = 0;
  // The scenario's vocabulary: its kinds and their precision.
  virtual const GameVocabulary& vocabulary() const = 0;
  // Its map objects, whole: the rest table the client holds before the first snapshot (none: empty).
  virtual void rest_records(std::vector<protocol::Record>& out) const { (void)out; }
  // The largest orientation error allowed, radians; unset: the smallest-three bound of the kind.
  virtual std::optional<double> max_angle_error_rad() const { return std::nullopt; }
  // The truth at tick `tick` (1..ticks()), asked for in ascending order, once each.
  virtual void truth_at(uint32_t tick, TruthFrame& out) = 0;
  // Called after the tick was coded: a scenario may measure alternatives (e.g. no delta at all).
  virtual void observe(const TruthFrame& truth, const ReplicaFrame& frame, std::vector<ExtraFigure>& extras) {
    (void)truth, (void)frame, (void)extras;
  }
};

}  // namespace tickwire::bench
