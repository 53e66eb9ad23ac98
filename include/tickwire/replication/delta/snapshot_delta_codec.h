// The SnapshotDelta body codec: a client's frame coded against what the client is known to hold.
// References, newest first: the baseline (the newest frame the client acknowledged), an older
// acknowledged frame for prediction, else the rest table's frame, else nothing. An unchanged
// record costs at most a bit (at rest, thousandths of one), a changed one only its differing fields
// against the (predicted) reference, a removal is explicit: the decoded frame is the full state.
// The decoder reads hostile bytes: bounded, never trusting a count, never misapplying.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "tickwire/core/status.h"
#include "tickwire/protocol/constants.h"
#include "tickwire/protocol/record_batch.h"
#include "tickwire/replication/delta/delta_refusal.h"
#include "tickwire/replication/delta/record_bits.h"
#include "tickwire/replication/frames/record_quantizer.h"
#include "tickwire/replication/frames/reference_frames.h"
#include "tickwire/replication/frames/replica_kinds.h"
#include "tickwire/replication/frames/replica_state.h"

namespace tickwire {

// Both ends must hold the same ReplicaKinds and the same reference frames (rotations are predicted
// at each kind's precision). Message ages: baselineAge = used_baseline && baseline.tick != 0 ?
// tick - baseline.tick : 0 (the rest frame is named by restRevision); predictAge = used_older ?
// tick - older.tick : 0. Snapshot ticks start at 1: tick 0 is the rest table's frame.
// What the body is coded against. `older` is used only together with `baseline` (prediction from
// two frames); `baseline` may be the rest table's frame (its tick 0) when no snapshot is acked.
// `history`, when given, holds further frames the body may fit its prediction over (ticks within
// MaxBaselineTicks of the body's, before the baseline): the body names the ones it used, and the
// decoder must be given a history holding each of them.
struct DeltaRefs {
  FrameView baseline;  // a frame or a frame pointer converts (null: none)
  FrameView older;
  const ReferenceFrames* history = nullptr;
  // The encoder fits over at most this many history frames (every k-th held one, spanning the
  // window): fewer cost less time per record and predict a little worse. 0: no fit.
  uint32_t max_fit_frames = 31;
  // Encoder only: when given, cleared and filled with each coded record's bits (the inspector's).
  RecordBitsLog* record_bits = nullptr;
};

// Bits spent per section of one body (the snapshot diagnostics).
struct DeltaBodyStats {
  std::size_t header_bits = 0;   // owner detail and counts
  std::size_t entity_bits = 0;   // entity-form records (changed or added)
  std::size_t object_bits = 0;   // object-form records (changed or added)
  std::size_t removal_bits = 0;
  std::size_t skip_bits = 0;     // kept/end/operation decisions (naming unchanged records)
  uint32_t unchanged = 0, changed = 0, added = 0, removed = 0;
  // The references the body is coded against (the message's ages must name them: an older frame
  // the encoder could not use is left out, and predictAge may then be 0).
  bool used_baseline = false, used_older = false;
  uint32_t fit_frames = 0;  // history frames the body's prediction fits over (0: none)
  std::size_t bytes() const { return (header_bits + entity_bits + object_bits + removal_bits + skip_bits + 7) / 8; }
  // Adds another body's bits and counts (totals over a run); the used_* flags stay this body's.
  DeltaBodyStats& operator+=(const DeltaBodyStats& o) {
    header_bits += o.header_bits;
    entity_bits += o.entity_bits;
    object_bits += o.object_bits;
    removal_bits += o.removal_bits;
    skip_bits += o.skip_bits;
    unchanged += o.unchanged;
    changed += o.changed;
    added += o.added;
    removed += o.removed;
    return *this;
  }
};

// The most states a decoded frame may hold: a rest table's objects plus a snapshot's records.
inline constexpr std::size_t kMaxReplicaFrameStates = protocol::MaxRestTableObjects + protocol::MaxRecordsPerSnapshot;

// Encodes `current` against `refs` into `out` (cleared first). Deterministic: the same inputs give
// the same bytes. `older` is used only when older.tick < baseline.tick < current.tick, the baseline
// is not the rest table's frame (tick 0) and both ages fit a byte; otherwise it is ignored (the body
// says which references it used). Returns count_over_max past kMaxReplicaFrameStates and
// buffer_full past MaxSnapshotBytes. Asserts: states ascend by id, rotation steps within
// kMaxRotationStep, the baseline not newer than `current`.
Result<DeltaBodyStats> encode_snapshot_delta(const FrameView& current, DeltaRefs refs, const ReplicaKinds& kinds,
                                             std::vector<uint8_t>& out);

// Decodes a body into `out` (its tick set to `tick`). Any malformed, truncated or over-cap body
// returns an error (and, when `refusal` is given, the rule it broke) and leaves `out` unspecified
// (the caller drops it); it never reads past `body`. A body using a reference `refs` lacks is
// refused; a reference given but unused is ignored. Bytes after the stream's end are refused.
Status decode_snapshot_delta(std::span<const uint8_t> body, uint32_t tick, DeltaRefs refs, const ReplicaKinds& kinds,
                             ReplicaFrame& out, DeltaRefusal* refusal = nullptr);

}  // namespace tickwire
