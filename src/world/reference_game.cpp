// The reference game's simulation: mover-driven pawns, a map of objects run by its logic (Use
// presses, interactions and plates drive it), a few lights flickering. Its records are written in
// reference_game_records.cpp.
#include "tickwire/world/reference_game.h"

#include <algorithm>
#include <cmath>

#include "tickwire/client/prediction_model.h"
#include "tickwire/core/assert.h"
#include "tickwire/world/client_props.h"
#include "tickwire/world/mover_prediction_model.h"
#include "tickwire/world/logic_components.h"
#include "tickwire/world/pawn_buttons.h"

namespace tickwire::world {

void apply_reference_policy(RoomPolicy& policy) {
  policy.vocabulary = reference_vocabulary();
  // Its pawn is a CharacterMover (a kinematic controller) its clients step with the server's own
  // step: it asks for client prediction, which the contract grants.
  policy.prediction = {PawnBody::kinematic_controller, MovementAuthority::client_predicted};
  policy.limits.interaction_range_m = kUseReachM;
  policy.limits.interactions_per_second = kUsesPerSecond;
  const double guess_ticks = std::round(kReferenceGuessSeconds * static_cast<double>(policy.cadence.tick_rate_hz));
  policy.input.starvation_ticks =
      static_cast<uint32_t>(std::clamp(guess_ticks, 1.0, static_cast<double>(kContractMaxStarvationTicks)));
}

ReferenceGame::ReferenceGame(const Map& map, const MoverSettings& settings, const PropPhysicsSettings& props,
                             const PropPushSettings& push)
    : map_(&map), mover_(settings), props_(ReplicaKinds::from(reference_vocabulary()), props, push) {
  install_objects();
}

void ReferenceGame::begin(const NetcodeContract& contract) {
  TW_ASSERT(contract.vocabulary == reference_vocabulary(), "the reference game runs in a room of its own vocabulary");
  gate_.set_config(ForgivenessConfig{contract.input.forgiveness, ForgivenessConfig{}.radius_at_zero_m,
                                     contract.vocabulary.claimable_flag_mask()});
  interaction_range_m_ = contract.limits.interaction_range_m;
  interactions_per_second_ = contract.limits.interactions_per_second;
  tick_length_ = Duration::from_seconds(1.0 / contract.cadence.tick_rate_hz);
  // The rewind reaches the contract's bound and the tick after it (a render time between the two).
  const double rewind_ticks = std::ceil(contract.limits.max_rewind_ms / 1000.0 * contract.cadence.tick_rate_hz);
  history_ = RewindHistory(static_cast<uint32_t>(std::min<double>(rewind_ticks + 2, kMaxRewindTicks)));
  fire_eye_tolerance_m_ = contract.limits.fire_eye_tolerance_m;
  time_scale_ = contract.cadence.time_scale;
  install_logic();
}

void ReferenceGame::world_settings_changed(const protocol::WorldSettings& settings) {
  ForgivenessConfig gate = gate_.config();
  gate.forgiveness = settings.forgiveness;
  gate_.set_config(gate);
  time_scale_ = settings.time_scale;
  if (logic_) logic_->runtime().set_time_scale(time_scale_);
}

// A new runtime over the objects as they stand (their authored state after install_objects),
// its ticks going on from the runtime discarded before it.
void ReferenceGame::install_logic() {
  discard_logic();
  if (tick_length_ == Duration{}) return;
  LogicSettings settings;
  settings.tick_length = tick_length_;
  settings.time_scale = time_scale_;
  logic_ = std::make_unique<MapLogicHost>(
      *map_, object_tables_.of(*map_), settings,
      [this](uint32_t index, std::size_t component) -> ObjectComponent& { return objects_[index].components[component]; },
      [this](uint32_t index) { return live_outputs(index); });
  if (last_logic_tick_) logic_->continue_ticks_after(*last_logic_tick_);
  for (uint32_t index = 0; index < objects_.size(); ++index)  // despawned before the logic began
    if (!objects_[index].spawned) (void)logic_->despawn(index);
  refresh_usable();
}

// The old runtime goes, and everything it had scheduled with it: its touch volumes settle at empty
// first (onEndTouch fires into the objects it still writes), then every node is unloaded, so what
// it still holds is nothing (asserted, and kept for the stats with its drops).
void ReferenceGame::discard_logic() {
  usable_.clear();
  if (!logic_) return;
  lifecycle_.last_discarded = logic_->despawn_all();
  TW_ASSERT(lifecycle_.last_discarded == LogicRuntimeSizes{}, "a runtime with every node unloaded holds nothing");
  ++lifecycle_.runtimes_discarded;
  discarded_logic_drops_.merge(logic_->runtime().drops());
  if (const std::optional<Tick> last = logic_->runtime().last_tick()) last_logic_tick_ = last;
  logic_.reset();
}

// The objects a press may pick: the loaded interactive ones, with their positions.
void ReferenceGame::refresh_usable() {
  usable_.clear();
  if (!logic_) return;
  for (uint32_t index : logic_->usable_objects())
    usable_.push_back(UseCandidate{index, map_->objects()[map_positions_[index]].position});
}

// Every map object at its authored state, held by its object index (the MapObjectTable's).
void ReferenceGame::install_objects() {
  discard_logic();  // it writes into objects_: gone before they are rebuilt
  const MapObjectTable& table = object_tables_.of(*map_);
  const auto objects = map_->objects();
  objects_.clear();
  map_positions_.clear();
  client_only_.clear();
  flickering_.clear();
  pools_ = water_pools(*map_);
  objects_.reserve(table.size());
  map_positions_.reserve(table.size());
  uint32_t lights = 0;
  for (uint32_t index = 0; index < table.size(); ++index) {
    const std::optional<uint32_t> at = map_->object_index(table.key_of(index));
    TW_ASSERT(at.has_value(), "the object table names a key the map does not hold");
    map_positions_.push_back(*at);
    client_only_.push_back(client_simulated_prop(objects[*at]));
    objects_.push_back(ObjectState{objects[*at].components, true, true});
    if (objects[*at].component("light") != nullptr && lights++ % kFlickerEveryNthLight == 0) flickering_.push_back(index);
  }
  rest_left_at_.assign(table.size(), 0);
  voxels_.install(*map_);  // a reinstall of the same map keeps what the session wrote
  solids_ = ObjectSolids::build(*map_);
  // Every object is spawned: the props start on the whole fixed world, as the map authors them.
  solids_.collect_statics(*map_, [](uint32_t) { return true; }, static_boxes_);
  props_.install(solids_, static_boxes_, [](uint32_t) { return true; });
  for (const protocol::ObjectNodeState& edited : scene_edits_.state().objects) apply_object_edits(edited.object);
  rebuild_edited_statics();
  refresh_solids();
  sync_voxels();
  ++map_generation_;
}

// The voxel volumes the placements rule lets in (spawned, enabled, solid), their chunks streamed
// around every pawn and every spawned prop: those within the urgent radius cooked now, so the next
// step (a pawn's or the prop solver's) stands on them.
void ReferenceGame::sync_voxels() {
  player_feet_.clear();
  for (const auto& [ref, state] : pawns_) player_feet_.push_back(state.feet);
  // And around every spawned prop (its floor stays cooked for the solver, however far the pawns).
  for (uint32_t slot = 0; slot < solids_.props().size(); ++slot)
    if (props_.spawned(slot)) player_feet_.push_back(props_.pose(slot).position);
  voxels_.sync(
      [this](uint32_t index) {
        VoxelVolumeState state;
        state.present = object_spawned(index);
        state.enabled = state.present && objects_[index].enabled;
        state.solid = false;
        if (state.present)
          for (const ObjectComponent& c : objects_[index].components)
            if (c.name == "voxel_volume") state.solid = (c.bits & kVoxelSolidBit) != 0;
        return state;
      },
      [this](uint32_t index) { return object_spawned(index); }, player_feet_);
}

// What a pawn collides with: the map's boxes and the static bodies of the spawned objects, and
// each spawned door or lift where its state puts it over the next tick.
void ReferenceGame::refresh_solids() {
  static_boxes_.assign(map_->boxes().begin(), map_->boxes().end());
  visit_statics([this](const StaticSolid& s) { static_boxes_.push_back(s.box); });
  props_.set_statics(static_boxes_);
  refresh_moving_boxes();
  refresh_prop_boxes();
}

// Every spawned prop where the solver left it, turned as it stands: a tick re-places only these.
void ReferenceGame::refresh_prop_boxes() {
  prop_boxes_.clear();
  props_.append_boxes(prop_boxes_);
}

// Once the tick's logic has settled (seed 000): each kinematic body where it stands now, moving by
// the change its rate says the next tick makes (the trajectory a client predicts it on).
void ReferenceGame::refresh_moving_boxes() {
  moving_boxes_.clear();
  moving_box_objects_.clear();
  for (const KinematicTrack& track : solids_.tracks()) {
    if (!track.body.blocks() || !object_spawned(track.object_index) || !object_spawned(track.driver_index) ||
        object_hidden(track.object_index))
      continue;
    moving_boxes_.push_back(moving_box(track, driver_state(track)));
    moving_box_objects_.push_back(track.object_index);
  }
}

MoverState ReferenceGame::driver_state(const KinematicTrack& track) const {
  return mover_state(objects_[track.driver_index].components[track.mover_component]);
}

// A touch volume carried by a mover stands where the pawns' step just left its driver (the
// fraction plus the rate the tick moved it by), so a plate on a lift is pressed all the way up.
void ReferenceGame::carry_touch_volumes() {
  for (const KinematicTrack& track : solids_.tracks()) {
    if (track.body.kind != BodyKind::sensor || !object_spawned(track.driver_index)) continue;
    const MoverState state = driver_state(track);
    logic_->move_volume(track.object_index, track.position + mover_offset(track.slide, std::clamp(state.fraction + state.rate, 0.0, 1.0)));
  }
}

void ReferenceGame::reinstall_objects() {
  install_objects();
  install_logic();
}

bool ReferenceGame::object_spawned(uint32_t object_index) const {
  return object_index < objects_.size() && objects_[object_index].spawned;
}

bool ReferenceGame::despawn_object(uint32_t object_index) {
  if (!object_spawned(object_index)) return false;
  if (logic_ && logic_->despawn(object_index)) refresh_usable();  // onEndTouch may still write into it
  objects_[object_index].spawned = false;
  if (const int32_t slot = solids_.prop_slot(object_index); slot >= 0) props_.despawn(static_cast<uint32_t>(slot));
  voxels_.objects_changed();
  sync_voxels();
  refresh_solids();   // its body goes with it
  ++map_generation_;  // the rest table stops naming it
  ++lifecycle_.despawns;
  return true;
}

bool ReferenceGame::spawn_object(uint32_t object_index) {
  if (object_index >= objects_.size() || objects_[object_index].spawned) return false;
  // The authored state first: the fresh node starts from it and may write into it as it loads.
  objects_[object_index] = ObjectState{map_->objects()[map_positions_[object_index]].components, true, true};
  apply_object_edits(object_index);  // the edits standing against it apply again
  if (logic_ && logic_->spawn(object_index)) refresh_usable();
  if (const int32_t slot = solids_.prop_slot(object_index); slot >= 0 && !object_hidden(object_index))
    props_.spawn(static_cast<uint32_t>(slot));
  voxels_.objects_changed();
  sync_voxels();
  refresh_solids();
  ++map_generation_;  // the rest table names it again
  ++lifecycle_.spawns;
  return true;
}

void ReferenceGame::switch_map(const Map& next) {
  map_ = &next;
  voxels_.forget_cells();  // written cells are the old map's: its clients drop theirs too
  scene_edits_.clear();    // and so were the edits (the new state goes to every client)
  edited_statics_.clear();
  install_objects();  // discards the old logic first, over the old objects
  install_logic();
  next_spawn_ = 0;
  for (auto& [ref, state] : pawns_) placer_.place(state, next_spawn_placement(), mover_.settings());
  ++lifecycle_.map_switches;
}

// The map's spawn points in turn.
Placement ReferenceGame::next_spawn_placement() {
  const auto spawns = map_->spawn_points();
  TW_ASSERT(!spawns.empty(), "a valid map has a spawn point");
  const SpawnPoint& at = spawns[next_spawn_++ % spawns.size()];
  return Placement{at.position, {}, at.yaw_deg, 0, false};
}

void ReferenceGame::spawn_pawn(EntityRef pawn, OwnerId owner, Tick) {
  PawnState state;
  placer_.place(state, next_spawn_placement(), mover_.settings());
  pawns_[pawn.raw()] = state;
  owners_[pawn.raw()] = owner;
  if (owner != kAuthorityOwner) voxels_.joined(owner);  // (none: a pawn a recovery put back, held)
  sync_voxels();  // its first step stands on the chunks under it
}

void ReferenceGame::despawn_pawn(EntityRef pawn) {
  pawns_.erase(pawn.raw());
  ledgers_.erase(pawn.raw());
  claim_outcomes_.erase(pawn.raw());
  use_held_.erase(pawn.raw());
  use_buckets_.erase(pawn.raw());
  owners_.erase(pawn.raw());
}

void ReferenceGame::place_pawn(EntityRef pawn, const Placement& where) {
  auto it = pawns_.find(pawn.raw());
  if (it == pawns_.end()) return;
  placer_.place(it->second, where, mover_.settings());
  sync_voxels();
}

void ReferenceGame::set_noclip(EntityRef pawn, bool noclip) {
  auto it = pawns_.find(pawn.raw());
  if (it != pawns_.end()) it->second.noclip = noclip;
}

void ReferenceGame::set_frozen(EntityRef pawn, bool frozen) {
  auto it = pawns_.find(pawn.raw());
  if (it != pawns_.end()) it->second.frozen = frozen;
}

void ReferenceGame::step_pawn(EntityRef pawn, const TickInput& input, Tick tick, double dt_s) {
  auto it = pawns_.find(pawn.raw());
  if (it == pawns_.end()) return;
  const PawnState before = it->second;
  // A Use press (the button's edge) acts from where the pawn stood entering the tick, looking where
  // this input looks (the mover takes its yaw and pitch from the command).
  bool& held = use_held_[pawn.raw()];
  const bool use = button_held(input.cmd.buttons, kButtonUse);
  if (use && !held) {
    PawnState aiming = before;
    aiming.yaw_deg = input.cmd.yaw_deg;
    aiming.pitch_deg = input.cmd.pitch_deg;
    use_press(pawn, aiming, tick);
  }
  held = use;
  const std::span<const Aabb> boxes =
      voxels_.boxes_for_step(static_boxes_, pawn_bounds(before, mover_.settings().radius_m), pawn_step_boxes_);
  it->second = mover_.step(before, input.cmd, static_cast<float>(dt_s), boxes, moving_boxes_, prop_boxes_);
  // Where it ends up leaning on a prop and still walking into it, it shoves (the one push rule).
  props_.push_from(pawn_bounds(it->second, mover_.settings().radius_m), mover_.wish_velocity(it->second, input.cmd));
  protocol::ClaimOutcome& outcome = claim_outcomes_[pawn.raw()];
  outcome = protocol::ClaimOutcome::none;
  if (input.fresh() && input.claim) {
    outcome = judge_claim(pawn, before, *input.claim, dt_s) ? protocol::ClaimOutcome::accepted
                                                             : protocol::ClaimOutcome::corrected;
  }
}

protocol::ClaimOutcome ReferenceGame::claim_outcome(EntityRef pawn) const {
  auto it = claim_outcomes_.find(pawn.raw());
  return it == claim_outcomes_.end() ? protocol::ClaimOutcome::none : it->second;
}

// The gate adopts the claim whole (within the forgiveness radius and the mover's speed) or keeps
// the mover's answer; look angles, server-owned flags and the placement epoch stay the server's.
bool ReferenceGame::judge_claim(EntityRef pawn, const PawnState& before, const protocol::Claim& claim, double dt_s) {
  PawnState& state = pawns_.at(pawn.raw());
  const MoverSpeedLimit limit = max_speed_mps(mover_.settings(), state);
  const ClaimVerdict verdict = gate_.judge({before.feet.to_wire(), pawn_detail_of(state, pawn.raw()),
                                            {limit.horizontal_mps, limit.vertical_mps}, dt_s, state.frozen},
                                           claim, ledgers_[pawn.raw()]);
  if (!verdict.adopted) return false;
  PawnState adopted = pawn_from_predicted(predicted_from_detail(verdict.pawn));
  adopted.yaw_deg = state.yaw_deg;
  adopted.pitch_deg = state.pitch_deg;
  adopted.noclip = state.noclip;
  adopted.frozen = state.frozen;
  adopted.placement_epoch = state.placement_epoch;
  state = adopted;
  return true;
}

void ReferenceGame::step_world(Tick tick, double dt_s) {
  if (logic_) {
    touching_.clear();
    for (const auto& [ref, state] : pawns_) touching_.push_back(TouchingPawn{ref, state.feet});
    carry_touch_volumes();
    logic_->advance(tick, touching_);
  }
  // The props move with the doors and lifts as this tick's pawns met them, then everything stands
  // where the next tick's pawns step against it.
  pawn_boxes_.clear();
  for (const auto& [ref, state] : pawns_)
    if (!state.noclip) pawn_boxes_.push_back(pawn_bounds(state, mover_.settings().radius_m));
  props_.sync_voxels(voxels_.colliders());
  props_.step(moving_boxes_, pawn_boxes_, static_cast<float>(dt_s));
  refresh_prop_states();
  refresh_moving_boxes();
  refresh_prop_boxes();
  // A door set into a voxel wall writes its open block through while it stands open.
  voxels_.write_through([this](uint32_t index) -> std::optional<bool> {
    if (!object_spawned(index)) return std::nullopt;
    for (const ObjectComponent& c : objects_[index].components)
      if (c.name == "mover") return mover_state(c).fraction >= 0.5;
    return std::nullopt;
  });
  sync_voxels();
  // Flickering lights: intensity follows a slow wave, each light at its own phase, a function of the
  // tick alone (at the current time scale), so a fresh game at the same tick draws them the same.
  const double t = static_cast<double>(tick.value()) * dt_s;
  world_time_s_ = t;
  world_dt_s_ = dt_s;
  record_rewind(tick);
  for (uint32_t index : flickering_) {
    ObjectState& state = objects_[index];
    if (!state.spawned) continue;
    for (ObjectComponent& c : state.components) {
      if (c.name != "light" || c.channel_count < 4) continue;
      const double phase = static_cast<double>(index) * 0.37;
      c.channels[3] = static_cast<float>(0.6 + 0.4 * std::sin(t * 3.0 + phase));
    }
  }
}

protocol::PawnDetail ReferenceGame::pawn_detail(EntityRef pawn) const {
  protocol::PawnDetail detail;
  detail.pawn_ref = pawn.raw();
  const PawnState* state = this->pawn(pawn);
  if (state == nullptr) return detail;
  detail.position = state->feet.to_wire();
  detail.velocity = state->velocity_mps.to_wire();
  return pawn_detail_of(*state, pawn.raw());
}

const PawnState* ReferenceGame::pawn(EntityRef pawn) const {
  auto it = pawns_.find(pawn.raw());
  return it == pawns_.end() ? nullptr : &it->second;
}

// Each prop's physics_prop section says whether the solver has it asleep (bit 0).
void ReferenceGame::refresh_prop_states() {
  for (uint32_t slot = 0; slot < solids_.props().size(); ++slot) {
    const uint32_t index = solids_.props()[slot].object_index;
    if (!object_spawned(index)) continue;
    for (ObjectComponent& c : objects_[index].components) {
      if (c.name != "physics_prop") continue;
      c.bits = static_cast<uint8_t>(props_.asleep(slot) ? (c.bits | kPropAsleepBit) : (c.bits & ~kPropAsleepBit));
    }
  }
}

// The client named a map object: a hint, judged again from the pawn's eye and look as the server
// holds them. An action byte is not read: a Use is the reference game's one verb.
void ReferenceGame::interact(EntityRef actor, EntityRef target, uint8_t, Tick) {
  if (!resolves_target(target)) {
    refuse_use(actor, target.handle().raw(), UseRefusal::unknown_target);
    return;
  }
  (void)use_object(actor, *map_object_index(target.handle().raw()));
}

void ReferenceGame::raise(EntityRef actor, const protocol::EntityEvent& event) {
  const auto owner = owners_.find(actor.raw());
  // No session's pawn, or one held for a player who left (owner 0 would be everyone): nobody to answer.
  if (owner == owners_.end() || owner->second == kAuthorityOwner) return;
  if (events_.size() >= kMaxPendingEvents) {
    ++events_dropped_;
    return;
  }
  events_.push_back(GameEvent{owner->second, event});
}

void ReferenceGame::refuse_use(EntityRef actor, uint32_t target_id, UseRefusal reason) {
  use_refusals_.add(reason);
  protocol::EntityEvent event;
  event.source_id = target_id;
  event.event_kind = kEventUseRefused;
  event.payload.bits = static_cast<uint8_t>(reason);
  raise(actor, event);
}

void ReferenceGame::take_use(EntityRef actor, uint32_t object_index) {
  ++uses_;
  const bool handled = logic_->use(object_index, LogicActivator{actor.raw()});
  protocol::EntityEvent event;
  event.source_id = map_object_entity_id(object_index);
  event.event_kind = handled ? kEventUseTaken : kEventUseUnhandled;
  const std::vector<ObjectComponent>& components = objects_[object_index].components;
  if (!components.empty()) {  // the state the use left, as the object's first section carries it
    for (float channel : components.front().active_channels()) event.payload.channels.push_back(protocol::KindChannel{channel});
    event.payload.bits = components.front().bits;
  }
  raise(actor, event);
}

void ReferenceGame::take_messages(std::vector<GameMessageOut>& out) { voxels_.take_messages(out); }

void ReferenceGame::take_events(std::vector<GameEvent>& out) {
  out.insert(out.end(), events_.begin(), events_.end());
  events_.clear();
}

wire::Hash16 ReferenceGame::map_identity() const {
  wire::Hash16 identity;
  static_assert(sizeof(identity.bytes) == kMapHashBytes, "a map's content hash is 16 bytes");
  identity.bytes = map_->content_hash();
  return identity;
}

bool ReferenceGame::resolves_target(EntityRef target) const {
  const std::optional<uint32_t> index = map_object_index(target.handle().raw());
  return target.generation() == 0 && target.flags() == 0 && index && object_spawned(*index);
}

bool ReferenceGame::use_object(EntityRef actor, uint32_t object_index) {
  const uint32_t target_id = map_object_entity_id(object_index);
  const PawnState* from = pawn(actor);
  if (from == nullptr) {
    use_refusals_.add(UseRefusal::no_pawn);  // no pawn, no session to answer
    return false;
  }
  if (!object_spawned(object_index)) {
    refuse_use(actor, target_id, UseRefusal::unknown_target);
    return false;
  }
  if (!logic_ || logic_->use_input(object_index).empty()) {
    refuse_use(actor, target_id, UseRefusal::not_interactive);
    return false;
  }
  const Vec3 at = map_->objects()[map_positions_[object_index]].position;
  if (const std::optional<UseRefusal> refusal = judge_use(use_ray(*from), at, interaction_range_m_)) {
    refuse_use(actor, target_id, *refusal);
    return false;
  }
  take_use(actor, object_index);
  return true;
}

// A press names nothing: the server picks the best-aligned interactive object in reach. Presses
// are held to the contract's interactions per second, as named interactions are by the room.
void ReferenceGame::use_press(EntityRef pawn, const PawnState& state, Tick tick) {
  if (!logic_) return;
  auto bucket = use_buckets_.try_emplace(pawn.raw(), interactions_per_second_, interactions_per_second_).first;
  if (!bucket->second.take(MonoTime::from_ns(tick.value() * tick_length_.ns()))) {
    refuse_use(pawn, 0, UseRefusal::rate_limited);
    return;
  }
  const UsePick pick = pick_use_target(use_ray(state), usable_, interaction_range_m_);
  if (!pick.object_index) {
    refuse_use(pawn, 0, pick.refusal);  // a press names nothing: the event's source is none
    return;
  }
  take_use(pawn, *pick.object_index);
}

void ReferenceGame::visit_game_reasons(const ReasonVisitor& visit) const {
  std::string name;
  if (uses_ != 0) visit("use.taken", uses_);  // the uses the game took (its logic ran or not)
  visit_nonzero(use_refusals_, [&](UseRefusal reason, uint64_t count) {
    name.assign("use.refusal.").append(reason_name(reason));
    visit(name, count);
  });
  const auto visit_count = [&](std::string_view counted, uint64_t count) {
    if (count != 0) visit(counted, count);
  };
  visit_count("event.drop.overflow", events_dropped_);
  visit_count("shot.traced", shots_traced_);
  for (uint8_t kind = 0; kind < 3; ++kind) {
    name.assign("shot.hit.").append(protocol::kHitKindDef.name_of(kind));
    visit_count(name, hits_by_kind_[kind]);
  }
  visit_nonzero(shot_drops_, [&](ShotDrop reason, uint64_t count) {
    name.assign("shot.drop.").append(reason_name(reason));
    visit(name, count);
  });
  for (std::size_t band = 0; band < eye_strays_.size(); ++band) {
    const bool last = band == kEyeStrayBandsM.size();
    const auto cm = static_cast<int>(std::lround((last ? kEyeStrayBandsM.back() : kEyeStrayBandsM[band]) * 100.0f));
    name.assign("shot.eye_stray.").append(last ? "over" : "le").append(std::to_string(cm)).append("cm");
    visit_count(name, eye_strays_[band]);
  }
  visit_count("edit.gesture", edit_gestures_);
  visit_nonzero(edit_refused_, [&](protocol::EditRefusal reason, uint64_t count) {
    name.assign("edit.refusal.").append(reason_name(reason));
    visit(name, count);
  });
  visit_count("edit.refusal_dropped", edit_refusals_dropped_);
  visit_count("durable.fact.dropped", facts_dropped_);
  visit_count("object.spawn", lifecycle_.spawns);
  visit_count("object.despawn", lifecycle_.despawns);
  visit_count("map.switch", lifecycle_.map_switches);
  visit_count("prop.push", props_.counts().pushes);        // shoves the push rule gave
  visit_count("prop.respawn", props_.counts().respawns);  // props back after falling out of the world
  visit_count("prop.stopped_at_pawn", props_.counts().stopped_at_pawn);  // solver steps that pressed a prop into a pawn
  voxels_.visit_reasons(visit);
  // Every runtime's drops, the discarded ones' included, so the stats never go backwards.
  ReasonCounters<LogicDrop> drops = discarded_logic_drops_;
  if (logic_) drops.merge(logic_->runtime().drops());
  visit_nonzero(drops, [&](LogicDrop reason, uint64_t count) {
    name.assign("logic.drop.").append(reason_name(reason));
    visit(name, count);
  });
}

const ObjectComponent& ReferenceGame::object_component(uint32_t object_index, std::size_t component) const {
  TW_ASSERT(object_index < objects_.size() && component < objects_[object_index].components.size(),
            "a component of a live object");
  return objects_[object_index].components[component];
}

void ReferenceGame::toggle_object(uint32_t object_index) {
  if (!object_spawned(object_index)) return;
  ObjectState& state = objects_[object_index];
  for (ObjectComponent& c : state.components) c.bits = static_cast<uint8_t>(c.bits ^ 1u);
  if (state.components.empty()) state.enabled = !state.enabled;
  voxels_.objects_changed();
  sync_voxels();
}

}  // namespace tickwire::world
