// The server's per-client record of sent frames and the client's reports of them.
#include "tickwire/replication/sent_frames.h"

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
  const Entry* older = newest_held_before(baseline->frame.tick, oldest);
  if (older != nullptr) refs.older = &older->frame;
  return refs;
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
