// SnapshotTimeline: the client's replica ring on the server-tick timeline. It keeps the snapshots of
// the last `buffer_ticks` server ticks, slot = tick mod buffer_ticks, so arrival order and arrival
// time play no part: a snapshot sits at its tick, a lost one is simply an empty slot, a late one
// still lands in place. Each slot holds its entities sorted by handle (capped, storage allocated once).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "tickwire/core/reasons.h"
#include "tickwire/client/entity_sample.h"
#include "tickwire/clock/tick.h"
#include "tickwire/core/reason_counters.h"

namespace tickwire {

inline constexpr uint32_t kMaxTimelineBufferTicks = 256;          // the contract's buffer ceiling
inline constexpr uint32_t kDefaultMaxEntitiesPerSnapshot = 256;   // entity samples one slot holds
inline constexpr uint32_t kMaxEntitiesPerSnapshotCap = static_cast<uint32_t>(protocol::MaxRecordsPerSnapshot);

TW_REASONS(SnapshotDropReason,
  duplicate,          // this tick is already held
  too_old,            // older than the ring's window
  too_many_entities,  // more samples than max_entities_per_snapshot
  duplicate_entity,   // one entity twice in one snapshot
  malformed_sample   // a non-finite number or a channel count past kSampleChannels
)

using SnapshotDropCounters = ReasonCounters<SnapshotDropReason>;

struct TimelineConfig {
  uint32_t buffer_ticks = 16;  // the ring's span in server ticks (the contract's buffer_ticks)
  uint32_t max_entities_per_snapshot = kDefaultMaxEntitiesPerSnapshot;
};

// One entity's sample at a held tick.
struct TimedSample {
  Tick tick;
  const EntitySample* sample = nullptr;
};

// What the ring holds around a render time for one entity.
struct SampleBracket {
  std::optional<TimedSample> from;      // newest held snapshot at or before the time that has the entity
  std::optional<TimedSample> to;        // next held snapshot after the time, when it still has the entity
  std::optional<TimedSample> previous;  // the entity's sample before `from` (for extrapolation)
  bool leaving = false;  // the next held snapshot no longer has the entity: it left (presence is lifecycle)
};

class SnapshotTimeline {
 public:
  explicit SnapshotTimeline(const TimelineConfig& config);

  // Stores the snapshot of `tick` (samples in any order); false when dropped, the reason counted.
  bool insert(Tick tick, std::span<const EntitySample> samples);
  // Empties the ring and its counters (a new session).
  void clear();

  bool empty() const { return stored_ == 0; }
  std::size_t stored() const { return stored_; }
  // The newest tick ever stored (the ring's head). Only when !empty().
  Tick newest() const;
  // The oldest tick the ring's window can hold: newest - (buffer_ticks - 1).
  Tick window_start() const;
  // The samples held for `tick`, sorted by handle, or null.
  const std::vector<EntitySample>* at(Tick tick) const;
  // The entity's samples around `render_tick` (a tick on the timeline, fractional).
  SampleBracket bracket(EntityNetHandle entity, double render_tick) const;

  const TimelineConfig& config() const { return config_; }
  const SnapshotDropCounters& drops() const { return drops_; }
  uint64_t inserted() const { return inserted_; }

 private:
  struct Slot {
    bool held = false;
    Tick tick;
    std::vector<EntitySample> samples;  // capacity max_entities_per_snapshot, reserved once
  };

  const Slot& slot_for(Tick tick) const;
  Slot& slot_for(Tick tick);
  bool accept(Tick tick, std::span<const EntitySample> samples);
  void advance_head(Tick tick);
  std::optional<TimedSample> find_in(Tick tick, EntityNetHandle entity) const;
  std::optional<TimedSample> sampled_before(EntityNetHandle entity, Tick tick, Tick first) const;

  TimelineConfig config_;
  std::vector<Slot> slots_;
  std::vector<EntitySample> scratch_;  // sorted copy of an arriving snapshot, checked before commit
  bool has_head_ = false;
  Tick newest_;
  std::size_t stored_ = 0;
  uint64_t inserted_ = 0;
  SnapshotDropCounters drops_;
};

}  // namespace tickwire
