// The room's tick: prepare one input per session, step pawns and world, announce the tick.
#include "tickwire/server/room.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "tickwire/core/assert.h"
#include "tickwire/protocol/vec3_math.h"

namespace tickwire {
namespace {

// Whether the room has simulated the session's input `sequence` (inputs apply in sequence order).
bool input_simulated(const RoomSession& session, uint32_t sequence) {
  const std::optional<uint32_t> applied = session.inputs.queue().ack_sequence();
  return applied.has_value() && *applied >= sequence;
}

// The contract's max rewind, in the room's ticks: how far back a shot is traced, and how long one
// waits for its input.
double rewind_ticks(const NetcodeContract& contract, const RoomClock& clock) {
  return contract.limits.max_rewind_ms / 1000.0 / clock.seconds_per_tick();
}

RoomClockConfig clock_config(const RoomConfig& config) {
  RoomClockConfig clock;
  clock.tick_rate_hz = config.contract.cadence.tick_rate_hz;
  clock.origin = config.origin;
  clock.max_catch_up_ticks = config.contract.cadence.max_catch_up_ticks;
  clock.overload_threshold_ticks = config.overload_threshold_ticks;
  return clock;
}

}  // namespace

Room::Room(const RoomConfig& config, Simulation& simulation)
    : contract_(config.contract),
      contract_hash_(tickwire::contract_hash(config.contract)),
      clock_(clock_config(config)),
      simulation_(simulation),
      entities_(EntityNetHandle::kAuthorityOwner, config.entity_capacity),
      pawn_hold_ticks_(config.pawn_hold_ticks),
      world_(initial_world_settings(config.contract)) {
  TW_ASSERT(validate_netcode_contract(contract_).ok(), "a room runs a validated contract");
  TW_ASSERT(config.entity_capacity < EntityNetHandle::kGameIndexBase,
            "the room's slots stay below the indices a game names itself");
  if (const auto demotion = prediction_demotion(contract_.prediction.requested)) {
    prediction_demotions_.add(*demotion);
    spdlog::warn("room {}: prediction demoted ({}): {}", contract_.identity.room_id, reason_name(*demotion),
                 prediction_demotion_diagnostic(*demotion));
  }
  simulation_.begin(contract_);
}

void Room::set_world_settings(const protocol::WorldSettings& settings) {
  TW_ASSERT(protocol::valid_world_settings(settings), "a room runs world settings within their ranges");
  if (settings == world_) return;
  world_ = settings;
  if (recorder_ != nullptr) recorder_->world_settings_set(world_);
  simulation_.world_settings_changed(world_);
}

bool Room::snapshot_tick(Tick tick) const { return tick.value() % contract_.ticks_per_snapshot == 0; }

RoomSession* Room::find(OwnerId owner) {
  return owner == kAuthorityOwner || owner > kRoomMaxSessions ? nullptr : sessions_[owner].get();
}

const RoomSession* Room::session(OwnerId owner) const {
  return owner == kAuthorityOwner || owner > kRoomMaxSessions ? nullptr : sessions_[owner].get();
}

InputQueueConfig Room::input_queue_config() const {
  InputQueueConfig queue;
  queue.capacity_ticks = contract_.input.queue_ticks;
  queue.starvation_repeat_ticks = contract_.input.starvation_ticks;
  queue.known_buttons = contract_.vocabulary.button_mask();
  queue.posture_buttons = contract_.vocabulary.posture_button_mask();
  if (contract_.mode.mode == RuntimeMode::server_time) {
    // Each tick empties the queue, so it holds what arrives between two ticks: a fast client's
    // logic steps, or a burst after a stall (past it, the redundant copies come again).
    queue.merge_arrived = true;
    queue.capacity_ticks = protocol::InputQueueTicks;
  }
  return queue;
}

RoomSession& Room::open_session(OwnerId owner, EntityRef pawn, const AdmissionGrants& grants, std::string_view player) {
  // Each rate a bucket of a second's worth, refilled at that rate.
  const auto per_second = [](uint32_t rate) { return TokenBucket(static_cast<double>(rate), static_cast<double>(rate)); };
  const InteractionLimits& limits = contract_.limits;
  ++session_count_;
  sessions_[owner] = std::make_unique<RoomSession>(
      RoomSession{owner, pawn, last_tick(), SessionInputs(input_queue_config()), per_second(limits.interactions_per_second),
                  per_second(limits.fires_per_second), per_second(limits.pings_per_second),
                  per_second(limits.edits_per_second), grants, SessionConduct(limits), {}, 0, std::string(player)});
  return *sessions_[owner];
}

// Shots still waiting for an input of its: the session they would be traced for is gone.
void Room::close_session(RoomSession& session) {
  fire_refusals_.add(FireRefusal::no_session, session.waiting_shots.size());
  const OwnerId owner = session.owner;
  sessions_[owner].reset();
  --session_count_;
}

std::optional<EntityRef> Room::admit(OwnerId owner, const AdmissionGrants& grants, std::string_view player) {
  TW_ASSERT(owner != kAuthorityOwner && owner <= kRoomMaxSessions, "a session's owner is a client owner id");
  TW_ASSERT(player.size() <= kMaxPlayerNameBytes, "a player's name fits a resume token");
  if (sessions_[owner]) return std::nullopt;
  auto pawn = entities_.spawn(kEntityRefOwned | kEntityRefPredicted);
  if (!pawn) return std::nullopt;
  (void)open_session(owner, *pawn, grants, player);
  note_fact(kFactPawnJoined, *pawn, player);
  if (recorder_ != nullptr) recorder_->admitted(owner, *pawn, grants, player);
  simulation_.spawn_pawn(*pawn, owner, last_tick());
  return pawn;
}

void Room::leave(OwnerId owner) {
  RoomSession* session = find(owner);
  if (session == nullptr) return;
  const EntityRef pawn = session->pawn;
  if (recorder_ != nullptr) recorder_->left(owner);
  close_session(*session);
  pawn_gone(pawn);
}

std::size_t Room::receive_input(OwnerId owner, const protocol::InputFrame& frame) {
  RoomSession* session = find(owner);
  if (session == nullptr) return 0;
  if (frame.claim && !contract_.prediction.own_pawn_predicted) {
    prediction_refusals_.add(PredictionRefusal::claim_not_admitted);
    protocol::InputFrame unclaimed = frame;  // rare: a client of this room predicts nothing, so claims nothing
    unclaimed.claim.reset();
    return session->inputs.receive(unclaimed);
  }
  return session->inputs.receive(frame);
}

void Room::assume_led(OwnerId owner) {
  if (RoomSession* session = find(owner)) session->inputs.assume_led();
}

std::size_t Room::receive_timed_input(OwnerId owner, const protocol::TimedInputFrame& frame) {
  RoomSession* session = find(owner);
  if (session == nullptr || contract_.mode.mode != RuntimeMode::server_time) return 0;
  const uint64_t now_us = protocol::server_time_us_of_tick(static_cast<uint64_t>(std::max<int64_t>(last_tick().value(), 0)), contract_.cadence.tick_rate_hz);
  return session->inputs.receive_timed(frame, now_us, uint64_t{contract_.mode.server_time.stamp_lead_ms} * 1000);
}

bool Room::receive_ping(OwnerId owner, MonoTime now) {
  RoomSession* session = find(owner);
  if (session == nullptr) return false;
  if (session->pings.take(now)) return true;
  (void)session->conduct.offend(Offence::ping_rate, now);
  return false;
}

bool Room::offend(OwnerId owner, Offence offence, uint64_t count, MonoTime now) {
  RoomSession* session = find(owner);
  return session != nullptr && session->conduct.offend(offence, count, now);
}

bool Room::receive_interact(OwnerId owner, const protocol::InteractRequest& request, MonoTime now) {
  RoomSession* session = find(owner);
  if (session == nullptr) {
    interact_refusals_.add(InteractRefusal::no_session);
    return false;
  }
  if (!session->interactions.take(now)) {
    interact_refusals_.add(InteractRefusal::rate_limited);
    (void)session->conduct.offend(Offence::interact_rate, now);
    return false;
  }
  const EntityRef target = EntityRef::from_raw(request.target_ref);
  if (target.has_unknown_flags()) {
    interact_refusals_.add(InteractRefusal::unknown_flags);
    return false;
  }
  if (!entities_.resolves(target) && !simulation_.resolves_target(target)) {
    interact_refusals_.add(InteractRefusal::stale_or_foreign);
    return false;
  }
  if (recorder_ != nullptr) recorder_->interacted(owner, request);
  simulation_.interact(session->pawn, target, request.action, last_tick());
  return true;
}

bool Room::receive_construct_call(OwnerId owner, const protocol::ConstructCall& call, MonoTime now) {
  RoomSession* session = find(owner);
  std::optional<ConstructRefusal> refusal;
  if (session == nullptr) {
    refusal = ConstructRefusal::no_session;
  } else if (!session->interactions.take(now)) {
    refusal = ConstructRefusal::rate_limited;
    (void)session->conduct.offend(Offence::interact_rate, now);
  } else {
    std::array<uint8_t, protocol::MaxConstructCallPayloadBytes> payload{};
    for (std::size_t i = 0; i < call.payload.size(); ++i) payload[i] = call.payload[i].value;
    if (recorder_ != nullptr) recorder_->construct_called(owner, call);
    refusal = simulation_.construct_call(owner, ConstructHandle::from_raw(call.target), call.method,
                                         std::span<const uint8_t>(payload.data(), call.payload.size()), last_tick());
  }
  if (refusal) construct_refusals_.add(*refusal);
  return !refusal;
}

bool Room::receive_fire(OwnerId owner, const protocol::FireRequest& request, MonoTime now) {
  RoomSession* session = find(owner);
  if (session == nullptr) {
    fire_refusals_.add(FireRefusal::no_session);
    return false;
  }
  if (!session->fires.take(now)) {
    fire_refusals_.add(FireRefusal::rate_limited);
    (void)session->conduct.offend(Offence::fire_rate, now);
    return false;
  }
  const float aim_length = protocol::length(request.aim);
  if (!protocol::finite(request.eye) || !protocol::finite(request.aim) || !std::isfinite(aim_length) || aim_length < 1e-6f) {
    fire_refusals_.add(FireRefusal::malformed);
    (void)session->conduct.offend(Offence::fire_malformed, now);
    return false;
  }
  protocol::FireRequest unit = request;
  unit.aim = request.aim * (1.0f / aim_length);
  const bool simulated = !unit.after_input || input_simulated(*session, unit.input_sequence);
  if (simulated) {
    trace_shot(*session, unit, last_tick());
    return true;
  }
  if (session->waiting_shots.size() >= kMaxWaitingShots) {
    fire_refusals_.add(FireRefusal::too_many_waiting);
    return false;
  }
  fire_rewinds_.add(FireRewind::waited_for_input);
  session->waiting_shots.push_back(WaitingShot{unit, last_tick()});
  return true;
}

// The session's shots whose input this tick has simulated are traced now (in arrival order); one
// that has waited the contract's max rewind for an input that never came is refused.
void Room::release_shots(RoomSession& session, Tick tick) {
  if (session.waiting_shots.empty()) return;
  const double wait_ticks = rewind_ticks(contract_, clock_);
  std::size_t kept = 0;
  for (WaitingShot& waiting : session.waiting_shots) {
    if (input_simulated(session, waiting.request.input_sequence)) {
      trace_shot(session, waiting.request, tick);
    } else if (static_cast<double>(tick.value() - waiting.received_at.value()) > wait_ticks) {
      fire_refusals_.add(FireRefusal::input_not_applied);
    } else {
      session.waiting_shots[kept++] = std::move(waiting);
    }
  }
  session.waiting_shots.resize(kept);
}

// A shot the room accepted: its render time bounded by the max rewind back from `tick`, then the game's.
void Room::trace_shot(RoomSession& session, const protocol::FireRequest& request, Tick tick) {
  FireShot shot;
  shot.shot = request.shot;
  shot.eye = request.eye;
  shot.aim = request.aim;
  // The render tick rides as 32 bits: it names the tick nearest the one the shot is traced on.
  const auto behind = static_cast<int32_t>(tick.wire_u32() - request.render_tick);
  shot.render_tick = static_cast<double>(tick.value() - behind) + request.render_fraction / 65536.0;
  const double bound = static_cast<double>(tick.value()) - rewind_ticks(contract_, clock_);
  if (shot.render_tick < bound) {
    shot.render_tick = bound;
    shot.rewind_clamped = true;
    fire_rewinds_.add(FireRewind::clamped_to_bound);
  } else if (shot.render_tick > static_cast<double>(tick.value())) {
    shot.render_tick = static_cast<double>(tick.value());
    fire_rewinds_.add(FireRewind::ahead_of_server);
  }
  ++fires_accepted_;
  if (recorder_ != nullptr) recorder_->fired(session.owner, shot, tick);
  simulation_.fire(session.pawn, shot, tick);
}

std::optional<protocol::EditRefusal> Room::receive_edit(OwnerId owner, const protocol::SceneEdit& gesture, MonoTime now) {
  RoomSession* session = find(owner);
  if (session == nullptr) return std::nullopt;  // nobody to tell: the connection is not in the room
  const auto refuse = [&](protocol::EditRefusal reason, Offence offence) {
    edit_refusals_.add(reason);
    (void)session->conduct.offend(offence, now);
    return std::optional(reason);
  };
  if (!session->grants.world_authority) return refuse(protocol::EditRefusal::not_authority, Offence::edit_unauthorized);
  if (!session->edits.take(now)) return refuse(protocol::EditRefusal::rate_limited, Offence::edit_rate);
  ++edits_accepted_;
  if (recorder_ != nullptr) recorder_->edited(owner, gesture);
  simulation_.edit(owner, gesture, last_tick());
  return std::nullopt;
}

RoomUpdate Room::update(MonoTime now, TickObserver& completed) {
  RoomUpdate result;
  result.plan = clock_.advance(now);
  result.first_tick = result.plan.first_tick;
  for (uint32_t i = 0; i < result.plan.steps; ++i) {
    run_tick(result.plan.first_tick + static_cast<int64_t>(i), completed);
    ++result.ticks_run;
  }
  return result;
}

void Room::run_tick(Tick tick, TickObserver& completed) {
  const double dt_s = protocol::world_seconds_per_tick(clock_.seconds_per_tick(), world_.time_scale);
  // The preparing seam: one input per session for this tick, whatever arrived since the last.
  for (auto& slot : sessions_) {
    if (slot) slot->inputs.prepare(tick);
  }
  if (recorder_ != nullptr) recorder_->inputs_prepared(*this, tick);
  for (auto& slot : sessions_) {
    if (!slot) continue;
    simulation_.step_pawn(slot->pawn, slot->inputs.current(), tick, dt_s);
    ++slot->ticks_simulated;
  }
  step_held(tick, dt_s);
  simulation_.step_world(tick, dt_s);
  // Shots waiting for an input this tick applied: traced against the world the tick left.
  for (auto& slot : sessions_) {
    if (slot) release_shots(*slot, tick);
  }
  if (recorder_ != nullptr) recorder_->tick_simulated(*this, tick);
  completed.on_tick_completed(tick);
}

}  // namespace tickwire
