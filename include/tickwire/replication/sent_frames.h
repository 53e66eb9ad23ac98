// SentFrames: the server's record, per client, of the frames it sent in the last MaxBaselineTicks
// ticks and which of them the client says it holds (its SnapshotsHeld report). The delta baseline
// is the newest held frame, the prediction reference a held frame about as far behind the
// baseline as the baseline is behind the new tick: a frame the client never
// reported is never a reference, so a reordered, abandoned or set-aside snapshot cannot poison the
// chain. Allocated once; frames keep their capacity across ticks.
#pragma once

#include <array>
#include <cstdint>

#include "tickwire/protocol/constants.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/replication/reference_frames.h"
#include "tickwire/replication/replica_state.h"
#include "tickwire/replication/snapshot_delta_codec.h"

namespace tickwire {

class SentFrames final : public ReferenceFrames {
 public:
  static constexpr std::size_t kCapacity = protocol::MaxBaselineTicks;

  // The frame to fill for `tick` (> every tick recorded before): it replaces the oldest entry and
  // is not held until the client reports it.
  ReplicaFrame& record(uint32_t tick);
  // The tick's frame was not sent after all (refused by the transport): it can never be held.
  void forget(uint32_t tick);
  // The client's report: marks every recorded frame it names (a hostile report only names
  // frames we sent; a frame it claims falsely is the client's own loss).
  void on_held(const protocol::SnapshotsHeld& held);
  // The references for a frame of `tick`: the newest held frame at most MaxBaselineTicks back,
  // the held frame nearest to one baseline age before it, and this record as the history (the
  // body may fit over every frame the client reported holding).
  DeltaRefs refs(uint32_t tick) const;
  // A recorded frame the client reported holding, else null.
  const ReplicaFrame* held_frame(uint32_t tick) const override;
  void reset();

 private:
  struct Entry {
    ReplicaFrame frame;
    bool recorded = false;
    bool held = false;
  };
  const Entry* newest_held_before(uint32_t tick, uint32_t oldest_tick) const;

  std::array<Entry, kCapacity> entries_{};
  std::size_t next_ = 0;  // the entry the next record() takes
  uint32_t last_tick_ = 0;
};

}  // namespace tickwire
