// DeltaSnapshotReader: the client's half of delta snapshots. It resolves a SnapshotDelta's
// references among the frames it holds (never guessing: a missing reference drops the snapshot,
// counted), decodes the body into the full frame, keeps it as a future reference, and hands the
// game the same protocol::Snapshot a full snapshot would have been (records of kinds the game did
// not register are left out). Its report tells the server which frames it may code against.
#pragma once

#include <cstdint>
#include <vector>

#include "tickwire/core/reason_counters.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/snapshot.h"
#include "tickwire/protocol/snapshot_delta.h"
#include "tickwire/replication/held_frames.h"
#include "tickwire/replication/replica_kinds.h"
#include "tickwire/replication/snapshot_delta_codec.h"

namespace tickwire {

enum class DeltaDrop : uint8_t {
  baseline_missing,    // names a baseline or prediction frame this client does not hold
  rest_table_missing,  // names a rest table revision this client does not hold (set aside)
  body_malformed,      // the body did not decode against its references
  count_,
};

class DeltaSnapshotReader {
 public:
  explicit DeltaSnapshotReader(const ReplicaKinds& kinds);

  // Decodes `message` (its contract hash already checked); on success fills `out` and returns true.
  bool read(const protocol::SnapshotDelta& message, protocol::Snapshot& out);
  protocol::SnapshotsHeld report() const { return held_.report(0); }
  const ReasonCounters<DeltaDrop>& drops() const { return drops_; }
  uint64_t records_ignored() const { return records_ignored_; }  // of unregistered kinds
  void reset();

 private:
  void to_snapshot(const protocol::SnapshotDelta& message, protocol::Snapshot& out);

  ReplicaKinds kinds_;
  HeldFrames held_;
  ReplicaFrame frame_;
  std::vector<uint8_t> body_;
  ReasonCounters<DeltaDrop> drops_;
  uint64_t records_ignored_ = 0;
};

}  // namespace tickwire
