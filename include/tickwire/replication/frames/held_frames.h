// HeldFrames: the client's decoded frames of the last MaxBaselineTicks snapshot ticks, the
// references later deltas are coded against, and the SnapshotsHeld report that tells the server
// which of them it may use. Allocated once; frames keep their capacity.
#pragma once

#include <array>
#include <cstdint>

#include "tickwire/protocol/constants.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/replication/frames/reference_frames.h"
#include "tickwire/replication/frames/replica_state.h"

namespace tickwire {

class HeldFrames final : public ReferenceFrames {
 public:
  static constexpr std::size_t kCapacity = protocol::MaxBaselineTicks;

  // The held frame of `tick`, or null.
  const ReplicaFrame* find(uint32_t tick) const;
  FrameView held_frame(uint32_t tick) const override { return find(tick); }
  // Keeps `frame` (by copy into the slot of the oldest frame), unless a frame of its tick is held.
  void keep(const ReplicaFrame& frame);
  // What to tell the server: the newest held tick and the 32 before it, and the rest revision.
  protocol::SnapshotsHeld report(uint32_t rest_revision) const;
  bool empty() const { return newest_ == 0; }
  void reset();

 private:
  struct Entry {
    ReplicaFrame frame;
    bool held = false;
  };
  std::array<Entry, kCapacity> entries_{};
  uint32_t newest_ = 0;
};

}  // namespace tickwire
