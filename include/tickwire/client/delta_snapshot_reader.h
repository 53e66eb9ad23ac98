// DeltaSnapshotReader: the client's half of delta snapshots. It resolves a SnapshotDelta's
// references among the frames it holds (never guessing: a missing reference drops the snapshot,
// counted), decodes the body into the full frame, keeps it as a future reference, and hands the
// game the same protocol::Snapshot a full snapshot would have been (records of kinds the game did
// not register are left out). It assembles the rest table the server sends ahead of the snapshots
// that fall back on it, and sets aside (one slot) a snapshot naming a revision not yet whole.
// Its report tells the server which frames, and which rest table, it may code against.
#pragma once

#include <cstdint>
#include <vector>

#include "tickwire/core/reasons.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/protocol/contract_hash.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/rest_table_chunk.h"
#include "tickwire/protocol/snapshot.h"
#include "tickwire/protocol/snapshot_delta.h"
#include "tickwire/replication/frames/held_frames.h"
#include "tickwire/replication/frames/replica_kinds.h"
#include "tickwire/replication/rest_table/rest_table_assembler.h"
#include "tickwire/replication/delta/snapshot_delta_codec.h"

namespace tickwire {

TW_REASONS(DeltaDrop,
  baseline_missing,    // names a baseline or prediction frame this client does not hold
  rest_table_missing,  // names a rest table revision this client does not hold (set aside)
  set_aside_replaced,  // a set-aside snapshot replaced by a newer one before its table came
  body_malformed      // the body did not decode against its references
)

class DeltaSnapshotReader {
 public:
  explicit DeltaSnapshotReader(const ReplicaKinds& kinds);
  DeltaSnapshotReader(const DeltaSnapshotReader&) = delete;  // the assembler points at kinds_
  DeltaSnapshotReader& operator=(const DeltaSnapshotReader&) = delete;

  // The contract the welcome named: decoded snapshots carry its hash (the message carries its tag).
  void set_contract_hash(const ContractHash& hash) { contract_hash_ = hash; }
  // Decodes `message` (its contract tag already checked); on success fills `out` and returns true.
  bool read(const protocol::SnapshotDelta& message, protocol::Snapshot& out);
  // A chunk of the rest table; returns true when it completed a table.
  bool accept_rest_chunk(const protocol::RestTableChunk& chunk);
  // The snapshot set aside for a rest table that has since arrived, decoded (once), or false.
  bool read_set_aside(protocol::Snapshot& out);
  protocol::SnapshotsHeld report() const { return held_.report(rest_.revision()); }
  // The decoded frame of `tick` as this client holds it (null: not held), to judge against the
  // frame the server sent (the whole-system sims do, every frame).
  const ReplicaFrame* held(uint32_t tick) const { return held_.find(tick); }
  const RestTableAssembler& rest_table() const { return rest_; }
  const ReasonCounters<DeltaDrop>& drops() const { return drops_; }
  uint64_t records_ignored() const { return records_ignored_; }  // of unregistered kinds
  const ReplicaKinds& kinds() const { return kinds_; }
  void reset();

 private:
  bool resolve(const protocol::SnapshotDelta& message, DeltaRefs& refs);
  void to_snapshot(const protocol::SnapshotDelta& message, protocol::Snapshot& out);

  ReplicaKinds kinds_;
  ContractHash contract_hash_;
  HeldFrames held_;
  RestTableAssembler rest_;
  std::optional<protocol::SnapshotDelta> set_aside_;
  ReplicaFrame frame_;
  std::vector<uint8_t> body_;
  ReasonCounters<DeltaDrop> drops_;
  uint64_t records_ignored_ = 0;
};

}  // namespace tickwire
