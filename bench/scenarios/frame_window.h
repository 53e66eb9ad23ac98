// A bounded window of frames keyed by tick: the server's sent frames (with whether each is known
// acknowledged) and the simulated client's received ones. Slot = tick % capacity, so a frame older
// than the window is simply gone, as it would be in a real baseline store.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tickwire/replication/replica_state.h"

namespace tickwire::bench {

class FrameWindow {
 public:
  explicit FrameWindow(std::size_t capacity_frames);

  // Stores a copy of `frame` under its tick (replacing whatever held the slot).
  void put(const ReplicaFrame& frame);
  // The frame of `tick`, or nullptr when it was never stored or has been overwritten.
  const ReplicaFrame* find(uint32_t tick) const;
  void mark_acked(uint32_t tick);
  bool acked(uint32_t tick) const;
  // The newest acked frame with tick in [oldest_tick, newest_tick]; nullptr if none.
  const ReplicaFrame* newest_acked(uint32_t oldest_tick, uint32_t newest_tick) const;

 private:
  struct Slot {
    bool used = false;
    bool acked = false;
    ReplicaFrame frame;
  };
  std::vector<Slot> slots_;
};

}  // namespace tickwire::bench
