// The history's choices: which acked frames are references (newest first, within the baseline
// window) and which slot a new frame may overwrite (never a reference in use).
#include "tickwire/replication/sent_frame_history.h"

#include "tickwire/core/assert.h"

namespace tickwire {

SentFrameHistory::SentFrameHistory(uint32_t frames) : slots_(frames) {
  TW_ASSERT(frames >= kMinFrames && frames <= kMaxFrames, "sent frame history size out of range");
}

SentFrameHistory::References SentFrameHistory::references(Tick tick, uint32_t max_age_ticks) const {
  References refs;
  for (const SentFrame& slot : slots_) {
    if (!slot.valid || !slot.acked) continue;
    const int64_t age = tick - slot.tick;
    if (age <= 0 || age > static_cast<int64_t>(max_age_ticks)) continue;
    if (refs.baseline == nullptr || slot.tick > refs.baseline->tick) {
      refs.older = refs.baseline;
      refs.baseline = &slot;
    } else if (refs.older == nullptr || slot.tick > refs.older->tick) {
      refs.older = &slot;
    }
  }
  return refs;
}

const SentFrame* SentFrameHistory::newest() const {
  const SentFrame* best = nullptr;
  for (const SentFrame& slot : slots_) {
    if (slot.valid && (best == nullptr || slot.tick > best->tick)) best = &slot;
  }
  return best;
}

// A frame older than the older reference can never be a reference again (references are the two
// newest acked frames, and acks only add newer ones), so its slot is free. The newest such frame
// was read a tick or two ago (it was the older reference then) and is likely still in cache: a
// client's frames cycle through the few slots its round trip needs instead of the whole history.
std::size_t SentFrameHistory::slot_to_reuse(const References& keep, const SentFrame* newest) const {
  std::size_t empty = SIZE_MAX, dead = SIZE_MAX, oldest = SIZE_MAX;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    const SentFrame& slot = slots_[i];
    if (&slot == keep.baseline || &slot == keep.older || &slot == newest) continue;
    if (!slot.valid) {
      if (empty == SIZE_MAX) empty = i;
      continue;
    }
    if (keep.older != nullptr && slot.tick < keep.older->tick && (dead == SIZE_MAX || slot.tick > slots_[dead].tick)) {
      dead = i;
    }
    if (oldest == SIZE_MAX || slot.tick < slots_[oldest].tick) oldest = i;
  }
  if (dead != SIZE_MAX) return dead;
  return empty != SIZE_MAX ? empty : oldest;
}

SentFrame& SentFrameHistory::begin(Tick tick, const References& keep, const SentFrame* newest) {
  TW_ASSERT(!begun_ || tick > last_tick_, "sent frames must have increasing ticks");
  begun_ = true;
  last_tick_ = tick;
  const std::size_t pick = slot_to_reuse(keep, newest);
  TW_ASSERT(pick != SIZE_MAX, "no free sent frame slot (history smaller than kMinFrames)");
  SentFrame& slot = slots_[pick];
  slot.tick = tick;
  slot.frame.tick = tick.wire_u32();
  slot.frame.owner.reset();
  slot.frame.states.clear();  // keeps its capacity: no allocation once warm
  slot.entities.clear();
  slot.valid = true;
  slot.acked = false;
  last_ = pick;
  return slot;
}

void SentFrameHistory::discard_last() {
  if (last_ < slots_.size()) slots_[last_].valid = false;
}

bool SentFrameHistory::acknowledge(Tick tick) {
  for (SentFrame& slot : slots_) {
    if (slot.valid && slot.tick == tick) {
      slot.acked = true;
      return true;
    }
  }
  return false;
}

const SentFrame* SentFrameHistory::find(Tick tick) const {
  for (const SentFrame& slot : slots_) {
    if (slot.valid && slot.tick == tick) return &slot;
  }
  return nullptr;
}

}  // namespace tickwire
