// One client's snapshot per tick: compose the interest set; estimate, against the client's
// baseline, what each visible entity's current state costs and what keeping its last-sent state
// costs; reserve the keeping, fit new states into what is left; assemble the frame (never a child
// without its parents) and code it against the baseline.
#include "tickwire/replication/builder/client_snapshot_builder.h"

#include <algorithm>

#include "tickwire/replication/budget/record_cost_estimate.h"
#include "tickwire/wire/codec.h"

namespace tickwire {

void ClientSnapshotBuilder::FrameIndex::index(const SentFrame* indexed) {
  frame = indexed;
  marks.clear();
  if (indexed == nullptr) return;
  for (uint32_t i = 0; i < indexed->entities.size(); ++i) {
    const uint32_t entity = indexed->entities[i].entity;
    if (entity < slot.size() && marks.insert(entity)) slot[entity] = i;
  }
}

// Reads only the index and the frame's entity list: the state itself is fetched by the caller
// (prefetched first: a client's frames are cold by the time its next tick comes).
const ReplicaState* ClientSnapshotBuilder::FrameIndex::find(uint32_t entity, uint32_t incarnation) const {
  if (!marks.test(entity)) return nullptr;
  const uint32_t i = slot[entity];
  return frame->entities[i].incarnation == incarnation ? frame->states[i] : nullptr;
}

namespace {
// A client's frames (their entity lists and state pointers; the states are in the shared world
// frames, which the walks prefetch as they go), fetched while interest is composed: the builder
// indexes the baseline and the newest frame. Not the older reference: the encoder reads it
// sparsely, in order, and fetching all of it costs more than it saves (measured).
template <class T>
[[gnu::always_inline]] inline void prefetch_all(const std::vector<T>& items) {
  const char* bytes = reinterpret_cast<const char*>(items.data());
  const std::size_t size = items.size() * sizeof(T);
  for (std::size_t line = 0; line < size; line += 64) __builtin_prefetch(bytes + line);
}
[[gnu::always_inline]] inline void prefetch_frame(const SentFrame* frame) {
  if (frame == nullptr) return;
  prefetch_all(frame->entities);  // indexed first
  prefetch_all(frame->states);
}
}  // namespace

ClientSnapshotBuilder::ClientSnapshotBuilder(const InterestWorld& world, const ReplicaKinds& kinds,
                                             const ClientSnapshotBuilderConfig& config)
    : world_(world),
      kinds_(kinds),
      config_(config),
      world_frames_(config.max_shared_frames),
      state_of_(world.max_entities(), 0),
      in_frame_(world.max_entities()),
      base_(world.max_entities()),
      last_(world.max_entities()),
      composer_(world.max_entities()),
      set_(config.max_visible),
      budget_(world, config.priority),
      send_(config.max_visible),
      selected_(world.max_entities()),
      present_(world.max_entities()),
      frames_reverted_(world.max_scene_frames() + 1),
      in_newest_(world.max_entities()),
      pick_of_(world.max_entities()) {
  TW_ASSERT(config.max_baseline_age_ticks >= 1 && config.max_baseline_age_ticks <= protocol::MaxBaselineTicks,
            "baseline age cap out of range");
  sizes_.reserve(config.max_visible);
  holds_.reserve(config.max_visible);
  bases_.reserve(config.max_visible);
  hold_bytes_.reserve(config.max_visible);
  picks_.reserve(config.max_visible);
  saved_priority_.reserve(config.max_visible);
  ordered_.reserve(config.max_visible);
  tail_.reserve(config.max_visible);
  entity_run_.reserve(config.max_visible);
  message_overhead_bytes_ = static_cast<uint32_t>(1 + wire::measure(protocol::SnapshotDelta{}));
}

void ClientSnapshotBuilder::begin_tick(const WorldTickFrame& tick) {
  TW_ASSERT(tick.world == &world_ && tick.frame != nullptr, "a world tick frame of another world");
  TW_ASSERT(tick.entities.size() == tick.frame->states.size(), "one interest index per world frame state");
  tick_ = tick;
  in_tick_ = true;
  composed_for_ = nullptr;
  in_frame_.clear();
  shared_.clear();
  // This tick's states, kept once for every client's frame to point into (copied into each frame
  // instead while every shared frame is still held).
  world_frame_.reset();  // the last tick's frame is free once no sent frame holds it
  world_frame_ = world_frames_.publish(tick.tick.wire_u32(), tick.frame->states);
  if (!world_frame_ && world_frames_.max_frames() != 0) world_frame_events_.add(WorldFrameEvent::pool_dry);
  const std::vector<ReplicaState>& states = world_states();
  for (uint32_t i = 0; i < states.size(); ++i) {
    TW_ASSERT(i == 0 || states[i - 1].id < states[i].id, "world frame states must ascend by id");
    const uint32_t entity = tick.entities[i];
    if (entity == kNoEntity) {
      shared_.push_back(i);
      continue;
    }
    TW_ASSERT(world_.contains(entity), "a world frame state whose entity the interest world does not hold");
    TW_ASSERT(in_frame_.insert(entity), "two world frame states for one interest index");
    state_of_[entity] = i;
  }
}

InterestViewer ClientSnapshotBuilder::viewer_of(const ClientView& view) const {
  InterestViewer viewer{view.client, view.x_m, view.z_m, view.radius_m, kNoEntity};
  if (view.pawn != kNoEntity && world_.contains(view.pawn)) {
    viewer.pawn = view.pawn;
    viewer.x_m = world_.x_m(view.pawn);
    viewer.z_m = world_.z_m(view.pawn);
  }
  return viewer;
}

// Per visible entity: what sending its current state adds, and what keeping its last-sent state
// costs (nothing once the baseline holds that state; nothing for one never sent: it stays absent).
// Two passes: find every reference and prefetch it, then estimate. A solo entity whose lane does
// not run this tick cannot be chosen, so what sending it would cost is not estimated.
void ClientSnapshotBuilder::measure_candidates(const InterestViewer& viewer, SnapshotDiagnostics& diag) {
  const std::span<const uint32_t> entities = set_.entities();
  bases_.clear();
  holds_.clear();
  for (uint32_t entity : entities) {
    const bool known = in_frame_.test(entity);  // interest knows it; if this tick's frame does not, never sent
    const uint32_t incarnation = world_.incarnation(entity);
    const ReplicaState* base = known ? base_.find(entity, incarnation) : nullptr;
    const ReplicaState* hold = known ? last_.find(entity, incarnation) : nullptr;
    prefetch_state(base);
    prefetch_state(hold);
    bases_.push_back(base);
    holds_.push_back(hold);
  }
  sizes_.clear();
  hold_bytes_.clear();
  hold_total_bytes_ = 0;
  const bool snapshot_tick = config_.priority.lanes.is_snapshot_tick(tick_.tick);
  for (std::size_t i = 0; i < entities.size(); ++i) {
    if (!in_frame_.test(entities[i])) {
      sizes_.push_back(0);
      hold_bytes_.push_back(0);
      continue;
    }
    const uint32_t entity = entities[i];
    const ReplicaState& current = world_states()[state_of_[entity]];
    const ReplicaState* hold = holds_[i];
    const uint32_t hold_bytes = hold != nullptr ? estimate_record_bytes(*hold, bases_[i]) : 0;
    const bool may_send = !world_.entry(entity).solo() || budget_.may_send_solo(world_, viewer, entity, snapshot_tick);
    // Sending what the client is being sent anyway adds nothing; otherwise the whole record is
    // charged (not the difference to the hold), so a state in flight is not re-sent for free every
    // tick while the others wait.
    sizes_.push_back(!may_send || (hold != nullptr && same_record(*hold, current)) ? 0 : estimate_record_bytes(current, bases_[i]));
    hold_bytes_.push_back(hold_bytes);
    hold_total_bytes_ += hold_bytes;
  }
  diag.visible = set_.size();
}

// With a loose budget only the held states are found: nothing is estimated, nothing reverted.
void ClientSnapshotBuilder::find_holds() {
  const std::span<const uint32_t> entities = set_.entities();
  bases_.clear();
  holds_.clear();
  sizes_.clear();
  hold_bytes_.clear();
  hold_total_bytes_ = 0;
  for (uint32_t entity : entities) {
    const ReplicaState* hold = in_frame_.test(entity) ? last_.find(entity, world_.incarnation(entity)) : nullptr;
    bases_.push_back(nullptr);
    holds_.push_back(hold);
    sizes_.push_back(0);
    hold_bytes_.push_back(0);
  }
}

// Loose: the client's recent snapshots took a small part of its budget and its interest has not
// grown much since, so this one is very likely to fit whole; encode() checks that it did.
bool ClientSnapshotBuilder::budget_is_loose(const ClientView& view, const ClientReplicationState& client) const {
  const SnapshotDiagnostics& last = client.last;
  if (fit_in_full_) return false;
  if (!config_.fit_budget) return true;
  if (config_.loose_below <= 0.0f || !last.sent || last.slice != SliceOutcome::whole) return false;
  constexpr uint32_t kGrowthSlack = 4;  // a few entities more than a quarter, for small sets
  return static_cast<float>(client.peak_message_bytes) <= config_.loose_below * static_cast<float>(view.budget_bytes) &&
         set_.size() <= last.visible + last.visible / 4 + kGrowthSlack;
}

// The shared states go in whole; what they add against the baseline (found by id: both ascend)
// comes off the budget before fitting.
void ClientSnapshotBuilder::measure_shared(const FrameView& base, SnapshotDiagnostics& diag) {
  shared_bytes_ = 0;
  const std::vector<ReplicaState>& states = world_states();
  std::size_t b = 0;
  for (uint32_t i : shared_) {
    const ReplicaState& current = states[i];
    const ReplicaState* reference = nullptr;
    while (b < base.size() && base[b].id < current.id) ++b;  // no baseline: empty
    if (b < base.size() && base[b].id == current.id) reference = &base[b];
    shared_bytes_ += estimate_record_bytes(current, reference);
  }
  diag.shared = static_cast<uint32_t>(shared_.size());
  diag.shared_bytes = shared_bytes_;
}

// Holds come first (the client has been sent those states); when they alone pass the budget (the
// baseline fell far behind), the last ones go back to the baseline's state until the rest fit. A
// scene frame goes back whole: its members were sent together and stay together.
void ClientSnapshotBuilder::reserve_holds(SnapshotDiagnostics& diag) {
  const std::span<const uint32_t> entities = set_.entities();
  const auto revert = [&](std::size_t i) {
    holds_[i] = bases_[i];
    hold_total_bytes_ -= hold_bytes_[i];
    hold_bytes_[i] = 0;
    ++diag.reverted;
  };
  frames_reverted_.clear();
  bool any_frame = false;
  for (std::size_t i = entities.size(); i-- > 0 && hold_total_bytes_ > diag.record_budget_bytes;) {
    if (hold_bytes_[i] == 0) continue;
    const uint32_t frame = world_.scene_frame(entities[i]);
    if (frame != kNoSceneFrame) any_frame = frames_reverted_.insert(frame) || any_frame;
    revert(i);
  }
  for (std::size_t i = 0; any_frame && i < entities.size(); ++i) {
    if (hold_bytes_[i] != 0 && frames_reverted_.test(world_.scene_frame(entities[i]))) revert(i);
  }
  diag.hold_bytes = hold_total_bytes_;
}

uint32_t ClientSnapshotBuilder::record_budget(const ClientView& view) const {
  uint32_t fixed = message_overhead_bytes_ + config_.reserve_bytes;
  if (view.owner) fixed += static_cast<uint32_t>(wire::measure(*view.owner)) + 1;  // the optional's tag
  return view.budget_bytes > fixed ? view.budget_bytes - fixed : 0;
}

void ClientSnapshotBuilder::collect_picks(SnapshotDiagnostics& diag) {
  selected_.clear();
  for (const SendEntry& entry : send_.entries()) selected_.insert(entry.entity);
  picks_.clear();
  const std::span<const uint32_t> entities = set_.entities();
  for (std::size_t i = 0; i < entities.size(); ++i) {
    const uint32_t entity = entities[i];
    if (!in_frame_.test(entity)) continue;
    const ReplicaState& current = world_states()[state_of_[entity]];
    // holds_ came from the newest frame; reverted ones (back to the baseline's) are looked up again.
    const ReplicaState* sent = holds_[i] == bases_[i] ? last_.find(entity, world_.incarnation(entity)) : holds_[i];
    const bool in_newest = sent != nullptr && sent->id == current.id;
    if (selected_.test(entity)) {
      picks_.push_back(Pick{current.id, entity, &current, in_newest});
    } else if (holds_[i] != nullptr) {
      picks_.push_back(Pick{current.id, entity, holds_[i], in_newest});
      ++diag.held;
    }
  }
  for (uint32_t i : shared_) {
    picks_.push_back(Pick{world_states()[i].id, kNoEntity, &world_states()[i], false});
  }
}

// A frame never holds a child whose required parent chain is not all in it: a held child can
// outlive a parent that left the set, was removed or turned private.
void ClientSnapshotBuilder::drop_orphans(SnapshotDiagnostics& diag) {
  if (!world_.any_parent_links()) return;  // no entity has a parent to miss
  present_.clear();
  for (const Pick& p : picks_) {
    if (p.entity != kNoEntity) present_.insert(p.entity);
  }
  std::size_t kept = 0;
  for (const Pick& p : picks_) {
    bool whole_chain = true;
    if (p.entity != kNoEntity && world_.entry(p.entity).parent != kNoEntity) {
      bool broken = false;
      uint32_t depth = 0;
      for (uint32_t up = world_.parent(p.entity, &broken); whole_chain && up != kNoEntity;
           up = world_.parent(up, &broken)) {
        whole_chain = !broken && present_.test(up) && ++depth <= InterestWorld::kMaxParentDepth;
      }
      whole_chain = whole_chain && !broken;
    }
    if (whole_chain) {
      picks_[kept++] = p;
    } else {
      ++diag.dropped_orphans;
    }
  }
  picks_.resize(kept);
}

// The frame goes out in id order. Most picks were in the newest frame the client was sent, with
// the same id, and that frame is in id order already: those are taken in its order, the few
// others sorted on their own and merged in. O(n) on a steady tick, not a sort of the whole frame.
void ClientSnapshotBuilder::order_picks() {
  const auto by_id = [](const Pick& a, const Pick& b) { return a.id < b.id; };
  in_newest_.clear();
  tail_.clear();
  shared_run_.clear();
  for (const Pick& p : picks_) {
    if (p.entity == kNoEntity) {  // a shared state: collected in the world frame's id order
      shared_run_.push_back(p);
      continue;
    }
    if (p.in_newest) {
      in_newest_.insert(p.entity);
      pick_of_[p.entity] = p;
    } else {
      tail_.push_back(p);
    }
  }
  ordered_.clear();
  if (last_.frame != nullptr) {
    for (const FrameEntity& e : last_.frame->entities) {
      if (e.entity < in_newest_.capacity() && in_newest_.test(e.entity)) ordered_.push_back(pick_of_[e.entity]);
    }
  }
  std::sort(tail_.begin(), tail_.end(), by_id);
  entity_run_.resize(ordered_.size() + tail_.size());
  std::merge(ordered_.begin(), ordered_.end(), tail_.begin(), tail_.end(), entity_run_.begin(), by_id);
  picks_.resize(entity_run_.size() + shared_run_.size());
  std::merge(entity_run_.begin(), entity_run_.end(), shared_run_.begin(), shared_run_.end(), picks_.begin(), by_id);
}

// The state as `out` keeps it: a pointer into a shared world frame `out` then holds (this tick's,
// or the one a held state was sent from, while that is at most kMaxSharedAgeTicks old and `out`
// points into fewer than SentFrame::kMaxSources), else a copy of its own (null until
// point_at_copies(): the copies may move while they are added). A held state's frame is found
// among the frames `out` already holds, then among the newest frame's and the baseline's. (An
// entity at rest costs nothing to send, so it is chosen whenever its lane runs: its state stays young.)
const ReplicaState* ClientSnapshotBuilder::share(SentFrame& out, const ReplicaState* state) {
  for (const std::shared_ptr<const WorldStates>& source : out.sources) {
    if (source->holds(state)) return state;
  }
  const std::shared_ptr<const WorldStates>* source = nullptr;
  if (world_frame_ && world_frame_->holds(state)) {
    source = &world_frame_;
  } else {
    if (last_.frame != nullptr) source = last_.frame->source_of(state);
    if (source == nullptr && refs_.baseline != nullptr) source = refs_.baseline->source_of(state);
  }
  const uint32_t now = tick_.tick.wire_u32();
  if (source != nullptr && now - (*source)->tick <= kMaxSharedAgeTicks && out.sources.size() < SentFrame::kMaxSources) {
    out.sources.push_back(*source);
    return state;
  }
  out.copies.push_back(*state);
  return nullptr;  // point_at_copies() fills it in once the copies stop moving
}

// The states share() copied, in order: pointed at once every copy is made.
void ClientSnapshotBuilder::point_at_copies(SentFrame& out) {
  std::size_t next = 0;
  for (std::size_t i = 0; next < out.copies.size() && i < out.states.size(); ++i) {
    if (out.states[i] == nullptr) out.states[i] = &out.copies[next++];
  }
  TW_ASSERT(next == out.copies.size(), "a copy no state points at");
}

void ClientSnapshotBuilder::prefetch(const ClientReplicationState& client) const {
  const SentFrameHistory::References refs = client.history.references(tick_.tick, config_.max_baseline_age_ticks);
  prefetch_frame(refs.baseline);
  prefetch_frame(client.history.newest());
  // Not the slot the new frame will be written into: fetching it for writing ahead cost more than
  // it saved (measured).
}

void ClientSnapshotBuilder::expire(ClientReplicationState& client) {
  TW_ASSERT(in_tick_, "expire() before begin_tick()");
  const SentFrameHistory::Expired expired = client.history.expire(tick_.tick);
  if (expired.released != 0) world_frame_events_.add(WorldFrameEvent::released, expired.released);
  if (expired.newest_copied != 0) world_frame_events_.add(WorldFrameEvent::newest_copied, expired.newest_copied);
}

const SentFrame& ClientSnapshotBuilder::compose(const ClientView& view, ClientReplicationState& client) {
  TW_ASSERT(in_tick_, "compose() before begin_tick()");
  expire(client);
  refs_ = client.history.references(tick_.tick, config_.max_baseline_age_ticks);
  composed_base_ = refs_.baseline != nullptr ? refs_.baseline->view() : FrameView(view.fallback);
  const SentFrame* newest = client.history.newest();
  prefetch_frame(refs_.baseline);
  prefetch_frame(newest);
  last_.index(newest);
  const InterestViewer viewer = viewer_of(view);
  composer_.compose(world_, viewer, set_);
  for (uint32_t entity : set_.entities()) client.priority.prefetch(entity);  // read by the fit, after measuring

  SnapshotDiagnostics diag;
  diag.tick = tick_.tick;
  diag.client = view.client;
  diag.estimate_scale = config_.calibrate_estimates ? client.estimate_scale : 1.0f;
  diag.loose = budget_is_loose(view, client);
  const uint32_t budget = static_cast<uint32_t>(static_cast<float>(record_budget(view)) / diag.estimate_scale);
  if (diag.loose) {
    shared_bytes_ = 0;
    diag.shared = static_cast<uint32_t>(shared_.size());
    diag.record_budget_bytes = budget;
    diag.visible = set_.size();
    find_holds();
  } else {
    base_.index(refs_.baseline);  // only estimates read the baseline by entity
    measure_shared(composed_base_, diag);
    diag.record_budget_bytes = budget > shared_bytes_ ? budget - shared_bytes_ : 0;
    measure_candidates(viewer, diag);
    reserve_holds(diag);
  }
  fit_ = budget_.fit(world_, viewer, set_, sizes_, tick_.tick, diag.record_budget_bytes - hold_total_bytes_,
                     client.priority, send_, &saved_priority_);
  diag.candidates = fit_.candidates;
  diag.selected = fit_.sent;
  diag.skipped = fit_.deferred;
  diag.frames_refused = fit_.frames_refused;
  diag.estimated_record_bytes = fit_.bytes + hold_total_bytes_;
  collect_picks(diag);
  drop_orphans(diag);
  order_picks();

  SentFrame& out = client.history.begin(tick_.tick, refs_, last_.frame);
  out.owner = view.owner;
  out.world = tick_.frame->world;
  for (const Pick& p : picks_) {
    out.states.push_back(share(out, p.state));
    out.entities.push_back(FrameEntity{p.entity, p.entity == kNoEntity ? 0 : world_.incarnation(p.entity)});
  }
  point_at_copies(out);
  diag.copied = static_cast<uint32_t>(out.copies.size());
  diag.frame_entities = static_cast<uint32_t>(picks_.size()) - diag.shared;
  diag.baseline_age_ticks = refs_.baseline ? static_cast<uint32_t>(tick_.tick - refs_.baseline->tick) : 0;
  const bool predict = config_.predict_from_older && refs_.baseline != nullptr && refs_.older != nullptr;
  diag.predict_age_ticks = predict ? static_cast<uint32_t>(tick_.tick - refs_.older->tick) : 0;
  client.last = diag;
  composed_for_ = &client;
  composed_view_ = view;
  composed_ = &out;
  return out;
}

// The encoder's record bytes against the estimate, with a 10% margin: a sample above the scale is
// taken at once (the next tick must not pass the budget again), one below eases it down slowly.
void ClientSnapshotBuilder::learn_estimate_scale(const SnapshotDiagnostics& diag, ClientReplicationState& client) {
  constexpr uint32_t kMinSampleBytes = 64;  // a sample from a few bytes says little
  constexpr float kWeight = 0.1f;
  constexpr float kMargin = 1.1f;
  if (!config_.calibrate_estimates || diag.estimated_record_bytes < kMinSampleBytes) return;
  const float real_bytes = static_cast<float>(diag.entity_bits + diag.object_bits) / 8.0f;
  const float sample = kMargin * real_bytes / static_cast<float>(diag.estimated_record_bytes);
  const float scale = sample > client.estimate_scale ? sample : (1.0f - kWeight) * client.estimate_scale + kWeight * sample;
  client.estimate_scale = std::clamp(scale, ClientReplicationState::kMinEstimateScale,
                                     ClientReplicationState::kMaxEstimateScale);
}

Result<ClientSnapshot> ClientSnapshotBuilder::build(const ClientView& view, MonoTime now,
                                                    ClientReplicationState& client, std::vector<uint8_t>& body) {
  (void)compose(view, client);
  return encode(now, client, body);
}

// Fitting works on estimates: a snapshot the budget meant for one message can spill into
// fragments, and a loose one (nothing estimated) can pass the budget.
bool ClientSnapshotBuilder::must_refit(const ClientReplicationState& client, const Result<DeltaBodyStats>& coded) const {
  const SnapshotDiagnostics& diag = client.last;
  if (diag.loose) return !coded.ok() || diag.message_bytes > composed_view_.budget_bytes;
  const bool meant_whole = composed_view_.budget_bytes <= client.fragments.whole_max_bytes();
  return coded.ok() && meant_whole && diag.slice != SliceOutcome::whole;
}

// Such a tick is composed once more, estimated and fitted in full with the scale just learnt (taken
// at once when it rose) and the priorities as they stood before: the second fit is final.
Result<ClientSnapshot> ClientSnapshotBuilder::encode(MonoTime now, ClientReplicationState& client,
                                                     std::vector<uint8_t>& body) {
  Result<DeltaBodyStats> coded = code_frame(client, body);
  if (must_refit(client, coded)) {
    client.history.discard_last();
    client.priority.restore(saved_priority_);
    ++refits_;
    fit_in_full_ = true;
    (void)compose(composed_view_, client);
    fit_in_full_ = false;
    coded = code_frame(client, body);
  }
  return publish(now, client, coded);
}

// Codes the frame the last compose() made against its references and fills the diagnostics; an
// error discards the frame from the history.
Result<DeltaBodyStats> ClientSnapshotBuilder::code_frame(ClientReplicationState& client, std::vector<uint8_t>& body) {
  TW_ASSERT(composed_for_ == &client && composed_ != nullptr, "encode() of a client compose() did not just serve");
  SnapshotDiagnostics& diag = client.last;
  DeltaRefs refs;
  refs.baseline = composed_base_;
  if (diag.predict_age_ticks != 0) refs.older = refs_.older->view();
  refs.history = &client.history;
  refs.max_fit_frames = config_.max_fit_frames;
  refs.record_bits = client.record_bits.get();
  const Result<DeltaBodyStats> encoded = encode_snapshot_delta(composed_->view(), refs, kinds_, body);
  if (!encoded) {
    client.history.discard_last();
    diag.sent = false;
    return encoded;
  }
  const DeltaBodyStats& stats = encoded.value();
  if (!stats.used_older) diag.predict_age_ticks = 0;  // the codec found the older frame no help
  diag.sent = true;
  diag.records_sent = stats.changed + stats.added;
  diag.unchanged = stats.unchanged;
  diag.removed = stats.removed;
  diag.header_bits = stats.header_bits;
  diag.entity_bits = stats.entity_bits;
  diag.object_bits = stats.object_bits;
  diag.removal_bits = stats.removal_bits;
  diag.skip_bits = stats.skip_bits;
  diag.body_bytes = body.size();
  learn_estimate_scale(diag, client);
  diag.message_bytes = message_overhead_bytes_ + body.size();
  const uint32_t eased = client.peak_message_bytes - client.peak_message_bytes / 8;
  client.peak_message_bytes = std::max(static_cast<uint32_t>(diag.message_bytes), eased);
  const std::size_t fragments = client.fragments.fragments_for(diag.message_bytes);
  diag.fragments = fragments;
  diag.slice = fragments <= 1                                ? SliceOutcome::whole
               : fragments <= protocol::MaxSnapshotFragments ? SliceOutcome::fragmented
                                                             : SliceOutcome::over_ceiling;
  return encoded;
}

// The build's outcome into the client's logs and window.
Result<ClientSnapshot> ClientSnapshotBuilder::publish(MonoTime now, ClientReplicationState& client,
                                                      const Result<DeltaBodyStats>& coded) {
  composed_for_ = nullptr;
  SnapshotDiagnostics& diag = client.last;
  diag.refits = refits_;
  refits_ = 0;
  client.window.add(diag);
  if (!coded) return coded.error();
  states_copied_ += diag.copied;
  const SliceResult slice{diag.slice, diag.slice == SliceOutcome::fragmented ? diag.fragments : 0};
  client.budget_log.record(now, tick_.tick, SnapshotComposition{diag.frame_entities, diag.message_bytes, slice});
  const bool on_fallback = refs_.baseline == nullptr && composed_base_ && coded.value().used_baseline;
  return ClientSnapshot{composed_, static_cast<uint8_t>(diag.baseline_age_ticks),
                        static_cast<uint8_t>(diag.predict_age_ticks), on_fallback, &client.last};
}

}  // namespace tickwire
