// The client's decoded reference frames and its report of them.
#include "tickwire/replication/frames/held_frames.h"

namespace tickwire {

const ReplicaFrame* HeldFrames::find(uint32_t tick) const {
  if (tick == 0) return nullptr;
  const Entry& entry = entries_[tick % kCapacity];
  return entry.held && entry.frame.tick == tick ? &entry.frame : nullptr;
}

void HeldFrames::keep(const ReplicaFrame& frame) {
  if (frame.tick == 0 || find(frame.tick) != nullptr) return;
  if (newest_ >= kCapacity && frame.tick <= newest_ - kCapacity) return;  // older than the window
  Entry& entry = entries_[frame.tick % kCapacity];
  entry.frame.tick = frame.tick;
  entry.frame.owner = frame.owner;
  entry.frame.world = frame.world;
  entry.frame.states.assign(frame.states.begin(), frame.states.end());
  entry.held = true;
  if (frame.tick > newest_) newest_ = frame.tick;
}

protocol::SnapshotsHeld HeldFrames::report(uint32_t rest_revision) const {
  protocol::SnapshotsHeld held;
  held.rest_revision = rest_revision;
  held.newest_tick = newest_;
  for (uint32_t back = 1; back <= 32 && back < newest_; ++back) {
    if (find(newest_ - back) != nullptr) held.held_mask |= 1u << (back - 1);
  }
  return held;
}

void HeldFrames::reset() {
  for (Entry& entry : entries_) entry.held = false;
  newest_ = 0;
}

}  // namespace tickwire
