// The server's per-client record of sent frames and the client's reports of them.
#include "tickwire/replication/sent_frames.h"

#include <cstdint>

#include "tickwire/core/assert.h"

namespace tickwire {

ReplicaFrame& SentFrames::record(uint32_t tick) {
  TW_ASSERT(last_tick_ == 0 || tick > last_tick_, "frames are recorded in tick order");
  Entry& entry = entries_[next_];
  next_ = (next_ + 1) % kCapacity;
  entry.recorded = true;
  entry.held = false;
  entry.frame.tick = tick;
  entry.frame.owner.reset();
  entry.frame.states.clear();
  last_tick_ = tick;
  return entry.frame;
}

void SentFrames::forget(uint32_t tick) {
  for (Entry& entry : entries_) {
    if (entry.recorded && entry.frame.tick == tick) entry.recorded = false;
  }
}

void SentFrames::on_held(const protocol::SnapshotsHeld& held) {
  for (Entry& entry : entries_) {
    if (!entry.recorded || entry.held || entry.frame.tick > held.newest_tick) continue;
    const uint32_t back = held.newest_tick - entry.frame.tick;  // 0: the newest itself
    if (back == 0 || (back <= 32 && ((held.held_mask >> (back - 1)) & 1u) != 0)) entry.held = true;
  }
}

const SentFrames::Entry* SentFrames::newest_held_before(uint32_t tick, uint32_t oldest_tick) const {
  const Entry* best = nullptr;
  for (const Entry& entry : entries_) {
    if (!entry.recorded || !entry.held) continue;
    const uint32_t t = entry.frame.tick;
    if (t >= tick || t < oldest_tick) continue;
    if (best == nullptr || t > best->frame.tick) best = &entry;
  }
  return best;
}

DeltaRefs SentFrames::refs(uint32_t tick) const {
  const uint32_t window = static_cast<uint32_t>(protocol::MaxBaselineTicks);
  const uint32_t oldest = tick > window ? tick - window : 1;
  DeltaRefs refs;
  const Entry* baseline = newest_held_before(tick, oldest);
  if (baseline == nullptr) return refs;
  refs.baseline = &baseline->frame;
  // The prediction reference about as far behind the baseline as the baseline is behind this
  // tick: the two references' quantization noise, extrapolated, grows with age / span.
  const uint32_t age = tick - baseline->frame.tick;
  const uint32_t target = baseline->frame.tick > age ? baseline->frame.tick - age : 0;
  const Entry* older = nullptr;
  uint32_t best_miss = UINT32_MAX;
  for (const Entry& entry : entries_) {
    const uint32_t t = entry.frame.tick;
    if (!entry.recorded || !entry.held || t >= baseline->frame.tick || t < oldest) continue;
    const uint32_t miss = t > target ? t - target : target - t;
    if (miss < best_miss || (miss == best_miss && t > older->frame.tick)) {
      older = &entry;
      best_miss = miss;
    }
  }
  if (older != nullptr) refs.older = &older->frame;
  refs.history = this;
  return refs;
}

const ReplicaFrame* SentFrames::held_frame(uint32_t tick) const {
  for (const Entry& entry : entries_) {
    if (entry.recorded && entry.held && entry.frame.tick == tick) return &entry.frame;
  }
  return nullptr;
}

void SentFrames::reset() {
  for (Entry& entry : entries_) {
    entry.recorded = false;
    entry.held = false;
  }
  next_ = 0;
  last_tick_ = 0;
}

}  // namespace tickwire
