// Budget fitting: accumulate priorities, order the candidates by what they have waited for, then
// take whole units greedily while they fit. A unit that does not fit is skipped, not truncated, and
// smaller units behind it may still use the room left.
#include "tickwire/replication/budget/priority_budget.h"

#include <algorithm>

namespace tickwire {

PriorityBudget::PriorityBudget(const InterestWorld& world, const PriorityConfig& config)
    : config_(config),
      set_index_(world.max_entities(), 0),
      in_set_(world.max_entities()),
      selected_(world.max_entities()),
      in_unit_(world.max_entities()),
      frames_in_unit_(world.max_scene_frames() + 1),
      frames_refused_(world.max_scene_frames() + 1) {
  TW_ASSERT(std::isfinite(config.distance_weight) && config.distance_weight >= 0.0f, "distance_weight must be >= 0");
  candidates_.reserve(InterestSet::kMaxEntities);
  unit_.reserve(InterestSet::kMaxEntities);
}

uint32_t PriorityBudget::gather_candidates(const InterestWorld& world, const InterestViewer& viewer,
                                           const InterestSet& set, bool snapshot_tick, ClientPriorityState& state,
                                           std::vector<ClientPriorityState::Saved>* saved) {
  const std::span<const uint32_t> entities = set.entities();
  if (saved != nullptr) saved->clear();
  for (uint32_t i = 0; i < entities.size(); ++i) {
    const uint32_t entity = entities[i];
    // The world is shared by every client and stays cached; each client's accumulators are not,
    // so they are fetched ahead.
    if (i + kPrefetchAhead < entities.size()) __builtin_prefetch(&state.slots_[entities[i + kPrefetchAhead]]);
    in_set_.insert(entity);
    set_index_[entity] = i;
    if (saved != nullptr) {
      const ClientPriorityState::Slot& before = state.slots_[entity];
      saved->push_back(ClientPriorityState::Saved{entity, before.accumulated, before.incarnation});
    }
    const InterestWorld::Entry& info = world.entry(entity);
    float distance_m = 0.0f;
    const SendLane lane = lane_of(world, viewer, entity, &distance_m);
    if (lane == SendLane::world && !snapshot_tick) continue;
    ClientPriorityState::Slot& slot = state.slots_[entity];
    if (slot.incarnation != info.incarnation) slot = ClientPriorityState::Slot{0.0f, info.incarnation};
    const float priority = interest_priority(info.importance, distance_m, viewer.radius_m, config_.distance_weight);
    slot.accumulated = std::min(slot.accumulated + priority, kMaxAccumulated);
    candidates_.push_back(Candidate{slot.accumulated, entity, lane});
  }
  return static_cast<uint32_t>(candidates_.size());
}

bool PriorityBudget::add_to_unit(const InterestWorld& world, uint32_t entity) {
  if (selected_.test(entity) || !in_unit_.insert(entity)) return true;  // sent already, or queued
  // Depth (ancestors above it) orders the unit; a chain deeper than the cap is never sent.
  uint32_t depth = 0;
  for (uint32_t up = world.parent(entity); up != kNoEntity; up = world.parent(up)) {
    if (++depth > InterestWorld::kMaxParentDepth) return false;
  }
  unit_.push_back(UnitMember{depth, entity});
  return true;
}

bool PriorityBudget::build_unit(const InterestWorld& world, uint32_t trigger, bool* has_frame) {
  unit_.clear();
  in_unit_.clear();
  frames_in_unit_.clear();
  *has_frame = false;
  if (!add_to_unit(world, trigger)) return false;
  // unit_ grows while it is walked: each member brings its parent and its scene frame's members.
  for (std::size_t i = 0; i < unit_.size(); ++i) {
    const uint32_t entity = unit_[i].entity;
    bool broken = false;
    const uint32_t parent = world.parent(entity, &broken);
    if (broken) return false;
    if (parent != kNoEntity && (!in_set_.test(parent) || !add_to_unit(world, parent))) return false;
    const uint32_t frame = world.scene_frame(entity);
    if (frame == kNoSceneFrame || !frames_in_unit_.insert(frame)) continue;
    *has_frame = true;
    for (uint32_t member : world.scene_frame_members(frame)) {
      if (in_set_.test(member) && !add_to_unit(world, member)) return false;
    }
  }
  std::sort(unit_.begin(), unit_.end(), [](const UnitMember& a, const UnitMember& b) {
    return a.depth != b.depth ? a.depth < b.depth : a.entity < b.entity;
  });
  return true;
}

bool PriorityBudget::whole_set_fits(const InterestWorld& world, const InterestSet& set,
                                    std::span<const uint32_t> size_bytes, uint32_t budget_bytes) const {
  uint64_t total_bytes = 0;
  for (const uint32_t bytes : size_bytes) total_bytes += bytes;
  if (total_bytes > budget_bytes) return false;
  for (const uint32_t entity : set.entities()) {
    if (!world.entry(entity).solo()) return false;
  }
  return true;
}

uint32_t PriorityBudget::send_whole_set(const InterestWorld& world, const InterestViewer& viewer, const InterestSet& set,
                                        std::span<const uint32_t> size_bytes, bool snapshot_tick,
                                        ClientPriorityState& state, SendList& out,
                                        std::vector<ClientPriorityState::Saved>* saved) {
  const std::span<const uint32_t> entities = set.entities();
  if (saved != nullptr) saved->clear();
  uint32_t candidates = 0;
  for (uint32_t i = 0; i < entities.size(); ++i) {
    const uint32_t entity = entities[i];
    if (i + kPrefetchAhead < entities.size()) __builtin_prefetch(&state.slots_[entities[i + kPrefetchAhead]]);
    ClientPriorityState::Slot& slot = state.slots_[entity];
    if (saved != nullptr) saved->push_back(ClientPriorityState::Saved{entity, slot.accumulated, slot.incarnation});
    const SendLane lane = lane_of(world, viewer, entity);
    if (lane == SendLane::world && !snapshot_tick) continue;  // not a candidate: as gather_candidates
    ++candidates;
    slot = ClientPriorityState::Slot{0.0f, world.incarnation(entity)};
    out.push(SendEntry{entity, size_bytes[i], lane, false});
  }
  return candidates;
}

bool PriorityBudget::take_all(const InterestWorld& world, std::span<const uint32_t> size_bytes, uint32_t budget_bytes,
                              ClientPriorityState& state, SendList& out) {
  uint64_t total_bytes = 0;
  for (const Candidate& c : candidates_) {
    if (!world.entry(c.entity).solo()) return false;
    total_bytes += size_bytes[set_index_[c.entity]];
  }
  if (total_bytes > budget_bytes) return false;
  for (const Candidate& c : candidates_) send(world, c.entity, size_bytes, c.lane, false, state, out);
  return true;
}

// Into the send list, its accumulator reset (a send is what waiting was for).
void PriorityBudget::send(const InterestWorld& world, uint32_t entity, std::span<const uint32_t> size_bytes,
                          SendLane lane, bool pulled, ClientPriorityState& state, SendList& out) {
  selected_.insert(entity);
  state.slots_[entity] = ClientPriorityState::Slot{0.0f, world.incarnation(entity)};
  out.push(SendEntry{entity, size_bytes[set_index_[entity]], lane, pulled});
}

FitStats PriorityBudget::fit(const InterestWorld& world, const InterestViewer& viewer, const InterestSet& set,
                             std::span<const uint32_t> size_bytes, Tick tick, uint32_t budget_bytes,
                             ClientPriorityState& state, SendList& out,
                             std::vector<ClientPriorityState::Saved>* saved) {
  TW_ASSERT(size_bytes.size() == set.size(), "one measured size per interest set entry");
  TW_ASSERT(state.max_entities() >= world.max_entities(), "client priority state sized for a smaller world");
  FitStats stats;
  out.clear();
  in_set_.clear();
  selected_.clear();
  candidates_.clear();
  const bool snapshot_tick = config_.lanes.is_snapshot_tick(tick);
  if (whole_set_fits(world, set, size_bytes, budget_bytes)) {
    stats.candidates = send_whole_set(world, viewer, set, size_bytes, snapshot_tick, state, out, saved);
    stats.sent = out.size();
    stats.bytes = out.bytes();
    return stats;
  }
  stats.candidates = gather_candidates(world, viewer, set, snapshot_tick, state, saved);
  if (take_all(world, size_bytes, budget_bytes, state, out)) {
    stats.sent = out.size();
    stats.bytes = out.bytes();
    return stats;
  }
  // Longest wait first; ties by entity index so a run is reproducible.
  std::sort(candidates_.begin(), candidates_.end(), [](const Candidate& a, const Candidate& b) {
    return a.accumulated != b.accumulated ? a.accumulated > b.accumulated : a.entity < b.entity;
  });

  uint32_t remaining = budget_bytes;
  frames_refused_.clear();
  for (const Candidate& c : candidates_) {
    if (selected_.test(c.entity)) continue;  // came earlier as a parent or frame member
    // Every member of a frame closes over the same unit, so one refusal answers for all of them
    // (the unit could only shrink later this tick; waiting a tick is the conservative answer).
    const InterestWorld::Entry& info = world.entry(c.entity);
    const uint32_t frame = info.scene_frame;
    if (frame != kNoSceneFrame && frames_refused_.test(frame)) continue;
    bool has_frame = false;
    if (info.solo()) {  // the common case: a unit of one, no closure to walk
      unit_.clear();
      unit_.push_back(UnitMember{0, c.entity});
    } else if (!build_unit(world, c.entity, &has_frame)) {
      ++stats.orphaned;
      if (frame != kNoSceneFrame) frames_refused_.insert(frame);
      continue;
    }
    uint64_t unit_bytes = 0;
    for (const UnitMember& m : unit_) unit_bytes += size_bytes[set_index_[m.entity]];
    if (unit_bytes > remaining) {
      stats.oversize += unit_bytes > budget_bytes ? 1u : 0u;
      stats.frames_refused += has_frame ? 1u : 0u;
      if (frame != kNoSceneFrame) frames_refused_.insert(frame);
      continue;
    }
    remaining -= static_cast<uint32_t>(unit_bytes);
    for (const UnitMember& m : unit_) {
      send(world, m.entity, size_bytes, c.lane, m.entity != c.entity, state, out);
      stats.pulled += m.entity != c.entity ? 1u : 0u;
    }
  }
  for (const Candidate& c : candidates_) stats.deferred += selected_.test(c.entity) ? 0u : 1u;
  stats.sent = out.size();
  stats.bytes = out.bytes();
  return stats;
}

}  // namespace tickwire
