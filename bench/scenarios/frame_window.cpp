// The tick-keyed frame window behind the server's baselines and the client's references.
#include "frame_window.h"

#include "tickwire/core/assert.h"

namespace tickwire::bench {

FrameWindow::FrameWindow(std::size_t capacity_frames) : slots_(capacity_frames) {
  TW_ASSERT(capacity_frames > 0, "a frame window holds at least one frame");
}

void FrameWindow::put(const ReplicaFrame& frame) {
  Slot& slot = slots_[frame.tick % slots_.size()];
  slot.used = true;
  slot.acked = false;
  slot.frame = frame;
}

const ReplicaFrame* FrameWindow::find(uint32_t tick) const {
  const Slot& slot = slots_[tick % slots_.size()];
  return slot.used && slot.frame.tick == tick ? &slot.frame : nullptr;
}

void FrameWindow::mark_acked(uint32_t tick) {
  Slot& slot = slots_[tick % slots_.size()];
  if (slot.used && slot.frame.tick == tick) slot.acked = true;
}

bool FrameWindow::acked(uint32_t tick) const {
  const Slot& slot = slots_[tick % slots_.size()];
  return slot.used && slot.acked && slot.frame.tick == tick;
}

const ReplicaFrame* FrameWindow::newest_acked(uint32_t oldest_tick, uint32_t newest_tick) const {
  for (uint32_t tick = newest_tick; tick >= oldest_tick && tick != 0; --tick) {
    if (acked(tick)) return find(tick);
  }
  return nullptr;
}

}  // namespace tickwire::bench
