// The replica ring: tick-indexed slots, validated before anything is evicted, allocation up front.
#include "tickwire/client/snapshot_timeline.h"

#include <algorithm>
#include <cmath>

#include "tickwire/core/assert.h"

namespace tickwire {

namespace {

bool by_handle(const EntitySample& a, const EntitySample& b) { return a.entity.raw() < b.entity.raw(); }

int64_t floor_tick(double render_tick) { return static_cast<int64_t>(std::floor(render_tick)); }

}  // namespace

SnapshotTimeline::SnapshotTimeline(const TimelineConfig& config) : config_(config) {
  TW_ASSERT(config.buffer_ticks >= 2 && config.buffer_ticks <= kMaxTimelineBufferTicks,
            "the replica ring holds 2..kMaxTimelineBufferTicks ticks");
  TW_ASSERT(config.max_entities_per_snapshot >= 1 && config.max_entities_per_snapshot <= kMaxEntitiesPerSnapshotCap,
            "entities per snapshot: 1..kMaxEntitiesPerSnapshotCap");
  slots_.resize(config.buffer_ticks);
  for (Slot& slot : slots_) slot.samples.reserve(config.max_entities_per_snapshot);
  scratch_.reserve(config.max_entities_per_snapshot);
}

const SnapshotTimeline::Slot& SnapshotTimeline::slot_for(Tick tick) const {
  const auto n = static_cast<int64_t>(config_.buffer_ticks);
  return slots_[static_cast<std::size_t>(((tick.value() % n) + n) % n)];
}

SnapshotTimeline::Slot& SnapshotTimeline::slot_for(Tick tick) {
  return const_cast<Slot&>(static_cast<const SnapshotTimeline&>(*this).slot_for(tick));
}

Tick SnapshotTimeline::newest() const {
  TW_ASSERT(has_head_, "newest() of an empty timeline");
  return newest_;
}

Tick SnapshotTimeline::window_start() const { return newest() - (static_cast<int64_t>(config_.buffer_ticks) - 1); }

// Everything that can refuse a snapshot, checked before the ring changes.
bool SnapshotTimeline::accept(Tick tick, std::span<const EntitySample> samples) {
  if (samples.size() > config_.max_entities_per_snapshot) {
    drops_.add(SnapshotDropReason::too_many_entities);
    return false;
  }
  if (has_head_ && tick < window_start()) {
    drops_.add(SnapshotDropReason::too_old);
    return false;
  }
  const Slot& slot = slot_for(tick);
  if (slot.held && slot.tick == tick) {
    drops_.add(SnapshotDropReason::duplicate);
    return false;
  }
  scratch_.clear();
  for (const EntitySample& sample : samples) {
    if (!sample_is_well_formed(sample)) {
      drops_.add(SnapshotDropReason::malformed_sample);
      return false;
    }
    scratch_.push_back(sample);  // within the reserved capacity: size was checked above
  }
  std::sort(scratch_.begin(), scratch_.end(), by_handle);
  const auto dup = std::adjacent_find(scratch_.begin(), scratch_.end(),
                                      [](const EntitySample& a, const EntitySample& b) { return a.entity == b.entity; });
  if (dup != scratch_.end()) {
    drops_.add(SnapshotDropReason::duplicate_entity);
    return false;
  }
  return true;
}

// Moves the head to `tick`, emptying the slots of every tick that left the window (at most the ring).
void SnapshotTimeline::advance_head(Tick tick) {
  if (has_head_ && tick <= newest_) return;
  const int64_t jump = has_head_ ? std::min<int64_t>(tick - newest_, config_.buffer_ticks) : config_.buffer_ticks;
  for (int64_t i = 0; i < jump; ++i) {
    Slot& slot = slot_for(tick - i);
    if (slot.held) --stored_;
    slot.held = false;
  }
  has_head_ = true;
  newest_ = tick;
}

bool SnapshotTimeline::insert(Tick tick, std::span<const EntitySample> samples) {
  if (!accept(tick, samples)) return false;
  advance_head(tick);
  Slot& slot = slot_for(tick);
  TW_ASSERT(!slot.held || slot.tick != tick, "an accepted tick is not held yet");
  if (slot.held) --stored_;  // an older tick sharing the slot (cannot happen inside the window)
  slot.samples.swap(scratch_);  // both keep their reserved capacity: no allocation
  slot.tick = tick;
  slot.held = true;
  ++stored_;
  ++inserted_;
  return true;
}

void SnapshotTimeline::clear() {
  for (Slot& slot : slots_) {
    slot.held = false;
    slot.samples.clear();
  }
  has_head_ = false;
  stored_ = 0;
  inserted_ = 0;
  drops_.reset();
}

const std::vector<EntitySample>* SnapshotTimeline::at(Tick tick) const {
  if (!has_head_ || tick > newest_ || tick < window_start()) return nullptr;
  const Slot& slot = slot_for(tick);
  return slot.held && slot.tick == tick ? &slot.samples : nullptr;
}

std::optional<TimedSample> SnapshotTimeline::find_in(Tick tick, EntityNetHandle entity) const {
  const std::vector<EntitySample>* samples = at(tick);
  if (samples == nullptr) return std::nullopt;
  EntitySample key;
  key.entity = entity;
  const auto it = std::lower_bound(samples->begin(), samples->end(), key, by_handle);
  if (it == samples->end() || it->entity != entity) return std::nullopt;
  return TimedSample{tick, &*it};
}

SampleBracket SnapshotTimeline::bracket(EntityNetHandle entity, double render_tick) const {
  SampleBracket out;
  if (empty()) return out;
  const Tick first = window_start();
  const Tick floor = Tick::from_value(floor_tick(render_tick));
  // `from`: the newest held snapshot at or before the render time decides presence.
  Tick from_tick = std::min(floor, newest_);
  bool found_from_snapshot = false;
  for (; from_tick >= first; from_tick -= 1) {
    if (at(from_tick) == nullptr) continue;
    found_from_snapshot = true;
    out.from = find_in(from_tick, entity);
    break;
  }
  if (found_from_snapshot && !out.from) return out;  // not present at the render time
  // A carried sample (its lane did not run that tick) says the entity is there, not where: the
  // motion is drawn between the samples that were taken.
  if (out.from && out.from->sample->carried) {
    if (auto sampled = sampled_before(entity, out.from->tick, first)) out.from = sampled;
  }
  // `to`: the next held snapshot after the render time (or after the ring's start) with a sample
  // taken; the entity missing from a later snapshot means it left.
  for (Tick t = std::max(floor + 1, first); t <= newest_; ++t) {
    if (at(t) == nullptr) continue;
    const auto found = find_in(t, entity);
    if (!found) {
      out.leaving = out.from.has_value();
      break;
    }
    if (found->sample->carried) continue;
    out.to = found;
    break;
  }
  if (!out.from || out.to || out.leaving) return out;
  // Past the entity's newest sample: the one before it, for extrapolation.
  out.previous = sampled_before(entity, out.from->tick, first);
  return out;
}

// The entity's newest taken (not carried) sample before `tick`, back to `first`; none when a held
// snapshot without it comes first.
std::optional<TimedSample> SnapshotTimeline::sampled_before(EntityNetHandle entity, Tick tick, Tick first) const {
  for (Tick t = tick - 1; t >= first; t -= 1) {
    if (at(t) == nullptr) continue;
    const auto found = find_in(t, entity);
    if (!found) return std::nullopt;
    if (!found->sample->carried) return found;
  }
  return std::nullopt;
}

}  // namespace tickwire
