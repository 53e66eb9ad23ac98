// PriorityBudget: fits one client's visible entities into that client's byte budget for a tick.
// Each candidate's priority (importance plus a distance term) is added to a per-client accumulator
// every tick it waits, and a send resets it, so whatever does not fit today outranks the rest
// tomorrow and nothing starves. Entities go out in units that keep the replication rules: a child
// rides with its required parents, placed after them, and a scene frame goes whole or not at all.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "tickwire/clock/tick.h"
#include "tickwire/replication/interest/interest_marks.h"
#include "tickwire/replication/interest/interest_set.h"
#include "tickwire/replication/interest/interest_world.h"
#include "tickwire/replication/budget/lane_schedule.h"

namespace tickwire {

struct PriorityConfig {
  float distance_weight = 4.0f;  // priority added at distance 0, falling linearly to 0 at the radius
  LaneSchedule lanes;
};

// An entity's priority for one tick: importance + distance_weight * max(0, 1 - distance / radius).
// Never below the importance, so always-relevant entities beyond the radius still accumulate.
inline float interest_priority(float importance, float distance_m, float radius_m, float distance_weight) {
  const float near = radius_m > 0.0f ? 1.0f - distance_m / radius_m : 0.0f;
  return importance + (near > 0.0f ? distance_weight * near : 0.0f);
}

// One client's accumulators, one per dense entity index, reset whenever the index's incarnation
// in the world changes (a reused index starts from nothing).
class ClientPriorityState {
 public:
  explicit ClientPriorityState(uint32_t max_entities) : slots_(max_entities) {}
  uint32_t max_entities() const { return static_cast<uint32_t>(slots_.size()); }
  // The waiting priority as of the last fit (0 right after a send).
  float accumulated(uint32_t entity) const { return slots_[entity].accumulated; }

  // An accumulator as it stood before a fit (PriorityBudget::fit saves them), to put back if the
  // fit is taken back.
  struct Saved {
    uint32_t entity = 0;
    float accumulated = 0.0f;
    uint32_t incarnation = 0;
  };
  // Starts fetching an entity's accumulator (a client's are cold by its next tick): a hint.
  void prefetch(uint32_t entity) const { __builtin_prefetch(&slots_[entity]); }
  void restore(std::span<const Saved> saved) {
    for (const Saved& s : saved) slots_[s.entity] = Slot{s.accumulated, s.incarnation};
  }

 private:
  friend class PriorityBudget;
  struct Slot {  // one read per visible entity per tick
    float accumulated = 0.0f;
    uint32_t incarnation = 0;
  };
  std::vector<Slot> slots_;
};

struct SendEntry {
  uint32_t entity = kNoEntity;
  uint32_t size_bytes = 0;
  SendLane lane = SendLane::pose;  // the message it rides: a whole unit rides its trigger's lane
  bool pulled = false;             // came with a unit (a parent, a frame member), not on its own priority
};

// The entities to encode this tick, in send order (every parent before its children).
class SendList {
 public:
  explicit SendList(uint32_t capacity) : capacity_(capacity) { entries_.reserve(capacity); }
  std::span<const SendEntry> entries() const { return entries_; }
  uint32_t size() const { return static_cast<uint32_t>(entries_.size()); }
  uint32_t bytes() const { return bytes_; }

 private:
  friend class PriorityBudget;
  void clear() {
    entries_.clear();
    bytes_ = 0;
  }
  void push(const SendEntry& entry) {
    TW_ASSERT(entries_.size() < capacity_, "send list full (sized below the interest set)");
    entries_.push_back(entry);
    bytes_ += entry.size_bytes;
  }

  uint32_t capacity_;
  uint32_t bytes_ = 0;
  std::vector<SendEntry> entries_;
};

struct FitStats {
  uint32_t candidates = 0;      // entities eligible on this tick's lanes
  uint32_t sent = 0;            // entries written, pulled-in ones included
  uint32_t pulled = 0;          // entries that came with a unit rather than on their own priority
  uint32_t deferred = 0;        // candidates left for a later tick (their priority keeps growing)
  uint32_t orphaned = 0;        // units refused: a required parent not visible, removed, or too deep
  uint32_t oversize = 0;        // units bigger than the whole budget (never sendable at this budget)
  uint32_t frames_refused = 0;  // units holding a scene frame that did not fit (it waits, whole);
                                // a frame is counted once a tick however many members asked
  uint32_t bytes = 0;
};

class PriorityBudget {
 public:
  static constexpr uint32_t kPrefetchAhead = 8;  // set entries ahead whose accumulators are fetched early
  // An accumulator stops growing here (an entity that can never be sent, say one whose parent is
  // invisible, would otherwise grow until adding its priority changed nothing).
  static constexpr float kMaxAccumulated = 1e6f;

  PriorityBudget(const InterestWorld& world, const PriorityConfig& config);

  const PriorityConfig& config() const { return config_; }

  // Fills `out` with what `viewer` is sent this tick within `budget_bytes`. size_bytes[i] is the
  // measured record size of set.entities()[i] for this client. World-lane entities are candidates
  // only on snapshot ticks (a unit may still pull one in as a parent or frame member).
  // `saved`, when given, receives every set entity's accumulator as it stood before (for
  // ClientPriorityState::restore if the fit is taken back), read where the fit reads it anyway.
  FitStats fit(const InterestWorld& world, const InterestViewer& viewer, const InterestSet& set,
               std::span<const uint32_t> size_bytes, Tick tick, uint32_t budget_bytes, ClientPriorityState& state,
               SendList& out, std::vector<ClientPriorityState::Saved>* saved = nullptr);

  // Whether `entity` can be a candidate on its own this tick: its lane runs (`snapshot_tick`:
  // config().lanes.is_snapshot_tick). An entity that is not solo may still be pulled into a unit,
  // so its size is always needed; a solo one's only here.
  bool may_send_solo(const InterestWorld& world, const InterestViewer& viewer, uint32_t entity,
                     bool snapshot_tick) const {
    return snapshot_tick || lane_of(world, viewer, entity) == SendLane::pose;
  }

 private:
  struct Candidate {
    float accumulated;
    uint32_t entity;
    SendLane lane;
  };
  struct UnitMember {
    uint32_t depth;  // ancestors above it: sorting by depth puts parents first
    uint32_t entity;
  };
  SendLane lane_of(const InterestWorld& world, const InterestViewer& viewer, uint32_t entity,
                  float* distance_m = nullptr) const {
    const float dx = world.x_m(entity) - viewer.x_m;
    const float dz = world.z_m(entity) - viewer.z_m;
    const float distance = std::sqrt(dx * dx + dz * dz);
    if (distance_m != nullptr) *distance_m = distance;
    return config_.lanes.lane_for(distance, (world.entry(entity).flags & kInterestImportant) != 0);
  }
  uint32_t gather_candidates(const InterestWorld& world, const InterestViewer& viewer, const InterestSet& set,
                             bool snapshot_tick, ClientPriorityState& state,
                             std::vector<ClientPriorityState::Saved>* saved);
  // The whole set fits and every entity in it is a unit of one: each candidate goes out in set
  // order with its accumulator reset, without first adding a priority the send resets. Returns
  // the candidates.
  bool whole_set_fits(const InterestWorld& world, const InterestSet& set, std::span<const uint32_t> size_bytes,
                      uint32_t budget_bytes) const;
  uint32_t send_whole_set(const InterestWorld& world, const InterestViewer& viewer, const InterestSet& set,
                          std::span<const uint32_t> size_bytes, bool snapshot_tick, ClientPriorityState& state,
                          SendList& out, std::vector<ClientPriorityState::Saved>* saved);
  // Everything fits and every candidate is a unit of one: all go, no ordering needed.
  bool take_all(const InterestWorld& world, std::span<const uint32_t> size_bytes, uint32_t budget_bytes,
                ClientPriorityState& state, SendList& out);
  void send(const InterestWorld& world, uint32_t entity, std::span<const uint32_t> size_bytes, SendLane lane,
            bool pulled, ClientPriorityState& state, SendList& out);
  // Builds the unit `trigger` needs (closed under required parents and scene frames, minus what is
  // already selected), parents first. False when a required parent cannot be sent.
  bool build_unit(const InterestWorld& world, uint32_t trigger, bool* has_frame);
  bool add_to_unit(const InterestWorld& world, uint32_t entity);

  PriorityConfig config_;
  std::vector<Candidate> candidates_;  // reserved to InterestSet::kMaxEntities
  std::vector<UnitMember> unit_;       // reserved to InterestSet::kMaxEntities
  std::vector<uint32_t> set_index_;    // entity -> its index in the set (valid where in_set_)
  EntityMarks in_set_;
  EntityMarks selected_;
  EntityMarks in_unit_;
  EntityMarks frames_in_unit_;
  EntityMarks frames_refused_;  // frames whose unit was refused this tick
};

}  // namespace tickwire
