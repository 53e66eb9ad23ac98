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

SentFrame& SentFrameHistory::begin(Tick tick, const References& keep, const SentFrame* newest) {
  TW_ASSERT(!begun_ || tick > last_tick_, "sent frames must have increasing ticks");
  begun_ = true;
  last_tick_ = tick;
  std::size_t pick = SIZE_MAX;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    const SentFrame& slot = slots_[i];
    if (&slot == keep.baseline || &slot == keep.older || &slot == newest) continue;
    if (!slot.valid) {
      pick = i;
      break;
    }
    if (pick == SIZE_MAX || slot.tick < slots_[pick].tick) pick = i;
  }
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
