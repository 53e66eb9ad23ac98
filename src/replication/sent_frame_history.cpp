// The history's choices: which acked frames are references (newest first, within the baseline
// window) and which slot a new frame may overwrite (never a reference in use).
#include "tickwire/replication/sent_frame_history.h"

#include "tickwire/core/assert.h"

namespace tickwire {

SentFrameHistory::SentFrameHistory(uint32_t frames) : slots_(frames) {
  TW_ASSERT(frames >= kMinFrames && frames <= kMaxFrames, "sent frame history size out of range");
}

// The baseline is the newest acked frame; the prediction reference the acked frame nearest to one
// baseline age before it (ties: the newer), since the two references' quantization noise,
// extrapolated, grows with age / span.
SentFrameHistory::References SentFrameHistory::references(Tick tick, uint32_t max_age_ticks) const {
  const auto usable = [&](const SentFrame& slot) {
    const int64_t age = tick - slot.tick;
    return slot.valid && slot.acked && age > 0 && age <= static_cast<int64_t>(max_age_ticks);
  };
  References refs;
  for (const SentFrame& slot : slots_) {
    if (usable(slot) && (refs.baseline == nullptr || slot.tick > refs.baseline->tick)) refs.baseline = &slot;
  }
  if (refs.baseline == nullptr) return refs;
  const int64_t age = tick - refs.baseline->tick;
  const Tick target = refs.baseline->tick - age;
  int64_t best_miss = INT64_MAX;
  for (const SentFrame& slot : slots_) {
    if (!usable(slot) || !(slot.tick < refs.baseline->tick)) continue;
    const int64_t miss = slot.tick > target ? slot.tick - target : target - slot.tick;
    if (miss < best_miss || (miss == best_miss && slot.tick > refs.older->tick)) {
      refs.older = &slot;
      best_miss = miss;
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
  TW_ASSERT(!begun_ || tick > last_tick_ || (tick == last_tick_ && !slots_[last_].valid),
            "sent frames must have increasing ticks (a discarded one may be begun again)");
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

uint32_t SentFrameHistory::on_held(const protocol::SnapshotsHeld& held) {
  uint32_t marked = 0;
  for (SentFrame& slot : slots_) {
    const uint32_t t = slot.frame.tick;
    if (!slot.valid || slot.acked || t > held.newest_tick) continue;
    const uint32_t back = held.newest_tick - t;  // 0: the newest itself
    if (back == 0 || (back <= 32 && ((held.held_mask >> (back - 1)) & 1u) != 0)) {
      slot.acked = true;
      ++marked;
    }
  }
  return marked;
}

const ReplicaFrame* SentFrameHistory::held_frame(uint32_t tick) const {
  for (const SentFrame& slot : slots_) {
    if (slot.valid && slot.acked && slot.frame.tick == tick) return &slot.frame;
  }
  return nullptr;
}

DeltaRefs SentFrameHistory::delta_refs(Tick tick, uint32_t max_age_ticks) const {
  const References refs = references(tick, max_age_ticks);
  DeltaRefs out;
  if (refs.baseline != nullptr) out.baseline = &refs.baseline->frame;
  if (refs.older != nullptr) out.older = &refs.older->frame;
  out.history = this;
  return out;
}

const SentFrame* SentFrameHistory::find(Tick tick) const {
  for (const SentFrame& slot : slots_) {
    if (slot.valid && slot.tick == tick) return &slot;
  }
  return nullptr;
}

}  // namespace tickwire
