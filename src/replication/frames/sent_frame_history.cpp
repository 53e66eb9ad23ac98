// The history's choices: which acked frames are references (newest first, within the baseline
// window) and which slot a new frame may overwrite (never a reference in use).
#include "tickwire/replication/frames/sent_frame_history.h"

#include "tickwire/core/assert.h"

namespace tickwire {

SentFrameHistory::SentFrameHistory(uint32_t frames) : slots_(frames), marks_(frames) {
  TW_ASSERT(frames >= kMinFrames && frames <= kMaxFrames, "sent frame history size out of range");
}

bool SentFrameHistory::usable(const SlotMark& mark, Tick tick, uint32_t max_age_ticks) {
  const int64_t age = tick - mark.tick;
  return mark.valid && mark.acked && age > 0 && age <= static_cast<int64_t>(max_age_ticks);
}

// The baseline is the newest acked frame; the prediction reference the acked frame nearest to one
// baseline age before it (ties: the newer), since the two references' quantization noise,
// extrapolated, grows with age / span.
SentFrameHistory::References SentFrameHistory::references(Tick tick, uint32_t max_age_ticks) const {
  if (memo_.valid && memo_.tick == tick && memo_.max_age_ticks == max_age_ticks) return memo_.refs;
  memo_ = ReferencesMemo{true, tick, max_age_ticks, scan_references(tick, max_age_ticks)};
  return memo_.refs;
}

SentFrameHistory::References SentFrameHistory::scan_references(Tick tick, uint32_t max_age_ticks) const {
  std::size_t baseline = SIZE_MAX;
  for (std::size_t i = 0; i < marks_.size(); ++i) {
    if (usable(marks_[i], tick, max_age_ticks) && (baseline == SIZE_MAX || marks_[i].tick > marks_[baseline].tick)) {
      baseline = i;
    }
  }
  References refs;
  if (baseline == SIZE_MAX) return refs;
  refs.baseline = &slots_[baseline];
  const Tick baseline_tick = marks_[baseline].tick;
  const Tick target = baseline_tick - (tick - baseline_tick);
  std::size_t older = SIZE_MAX;
  int64_t best_miss = INT64_MAX;
  for (std::size_t i = 0; i < marks_.size(); ++i) {
    const SlotMark& mark = marks_[i];
    if (!usable(mark, tick, max_age_ticks) || !(mark.tick < baseline_tick)) continue;
    const int64_t miss = mark.tick > target ? mark.tick - target : target - mark.tick;
    if (miss < best_miss || (miss == best_miss && mark.tick > marks_[older].tick)) {
      older = i;
      best_miss = miss;
    }
  }
  if (older != SIZE_MAX) refs.older = &slots_[older];
  return refs;
}

const SentFrame* SentFrameHistory::newest() const { return newest_ == SIZE_MAX ? nullptr : &slots_[newest_]; }

// An empty slot, else the oldest frame that is none of `keep`'s nor `newest`.
std::size_t SentFrameHistory::free_slot(const References& keep, const SentFrame* newest) const {
  std::size_t pick = SIZE_MAX;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    const SentFrame* slot = &slots_[i];
    if (slot == keep.baseline || slot == keep.older || slot == newest) continue;
    if (!marks_[i].valid) return i;
    if (pick == SIZE_MAX || marks_[i].tick < marks_[pick].tick) pick = i;
  }
  return pick;
}

// Empties a slot's frame, keeping its vectors' capacity (no allocation once warm), and lets go of
// the world frames it pointed into.
void SentFrameHistory::clear_slot(std::size_t i) {
  SentFrame& slot = slots_[i];
  slot.owner.reset();
  slot.states.clear();
  slot.entities.clear();
  slot.sources.clear();
  slot.copies.clear();
}

SentFrame& SentFrameHistory::begin(Tick tick, const References& keep, const SentFrame* newest) {
  TW_ASSERT(!begun_ || tick > last_tick_ || (tick == last_tick_ && !marks_[last_].valid),
            "sent frames must have increasing ticks (a discarded one may be begun again)");
  begun_ = true;
  last_tick_ = tick;
  const std::size_t pick = free_slot(keep, newest);
  TW_ASSERT(pick != SIZE_MAX, "no free sent frame slot (history smaller than kMinFrames)");
  SentFrame& slot = slots_[pick];
  // The new frame is unacked, so no reference yet: the memo stands unless its slot was one.
  if (&slot == memo_.refs.baseline || &slot == memo_.refs.older) memo_.valid = false;
  clear_slot(pick);
  slot.tick = tick;
  marks_[pick] = SlotMark{tick, true, false};
  last_ = pick;
  newest_ = pick;
  return slot;
}

// The newest frame is then the newest valid one left (rare: a scan).
void SentFrameHistory::discard_last() {
  if (last_ >= slots_.size()) return;
  marks_[last_].valid = false;
  memo_.valid = false;
  clear_slot(last_);
  newest_ = SIZE_MAX;
  for (std::size_t i = 0; i < marks_.size(); ++i) {
    if (marks_[i].valid && (newest_ == SIZE_MAX || marks_[i].tick > marks_[newest_].tick)) newest_ = i;
  }
}

SentFrameHistory::Expired SentFrameHistory::expire(Tick now) {
  Expired out;
  for (std::size_t i = 0; i < marks_.size(); ++i) {
    SlotMark& mark = marks_[i];
    if (!mark.valid || now - mark.tick <= static_cast<int64_t>(kExpireAfterTicks)) continue;
    if (i == newest_) {
      out.newest_copied += slots_[i].own_states() ? 1u : 0u;
      continue;
    }
    mark.valid = false;
    memo_.valid = false;
    clear_slot(i);
    ++out.released;
  }
  return out;
}

bool SentFrameHistory::acknowledge(Tick tick) {
  for (SlotMark& mark : marks_) {
    if (mark.valid && mark.tick == tick) {
      mark.acked = true;
      memo_.valid = false;
      return true;
    }
  }
  return false;
}

uint32_t SentFrameHistory::on_held(const protocol::SnapshotsHeld& held) {
  uint32_t marked = 0;
  for (SlotMark& mark : marks_) {
    const uint32_t t = mark.tick.wire_u32();
    if (!mark.valid || mark.acked || t > held.newest_tick) continue;
    const uint32_t back = held.newest_tick - t;  // 0: the newest itself
    if (back == 0 || (back <= 32 && ((held.held_mask >> (back - 1)) & 1u) != 0)) {
      mark.acked = true;
      memo_.valid = false;
      ++marked;
    }
  }
  return marked;
}

FrameView SentFrameHistory::held_frame(uint32_t tick) const {
  for (std::size_t i = 0; i < marks_.size(); ++i) {
    if (marks_[i].valid && marks_[i].acked && marks_[i].tick.wire_u32() == tick) return slots_[i].view();
  }
  return {};
}

DeltaRefs SentFrameHistory::delta_refs(Tick tick, uint32_t max_age_ticks) const {
  const References refs = references(tick, max_age_ticks);
  DeltaRefs out;
  if (refs.baseline != nullptr) out.baseline = refs.baseline->view();
  if (refs.older != nullptr) out.older = refs.older->view();
  out.history = this;
  return out;
}

const SentFrame* SentFrameHistory::find(Tick tick) const {
  for (std::size_t i = 0; i < marks_.size(); ++i) {
    if (marks_[i].valid && marks_[i].tick == tick) return &slots_[i];
  }
  return nullptr;
}

void SentFrame::assign(const ReplicaFrame& frame) {
  owner = frame.owner;
  world = frame.world;
  sources.clear();
  copies.assign(frame.states.begin(), frame.states.end());
  states.clear();
  for (const ReplicaState& state : copies) states.push_back(&state);
}

bool SentFrame::own_states() {
  if (sources.empty()) return false;
  std::vector<ReplicaState> own;
  own.reserve(states.size());
  for (const ReplicaState* state : states) own.push_back(*state);
  copies.swap(own);  // the old copies go with `own`, read already
  for (std::size_t i = 0; i < states.size(); ++i) states[i] = &copies[i];
  sources.clear();
  return true;
}

const std::shared_ptr<const WorldStates>* SentFrame::source_of(const ReplicaState* state) const {
  for (const std::shared_ptr<const WorldStates>& source : sources) {
    if (source->holds(state)) return &source;
  }
  return nullptr;
}

}  // namespace tickwire
