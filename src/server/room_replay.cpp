// The replay: one driver walks the recording. A change between ticks is made again through the
// room (sessions, world settings) or handed to the game as the room handed it (an interaction, a
// construct call, a shot, a scene edit: the room's rate checks judged the original's arrival times,
// which a recording does not keep). A tick's fresh inputs are fed through the room's receive path
// just before it runs, so each session's queue repeats, zeroes and acks as the original's did; the
// driver, attached as the room's recorder, checks each applied input as the tick prepares it, makes
// the shots released inside the tick, and compares the tick's witness.
#include "tickwire/server/room_replay.h"

#include <array>
#include <bit>
#include <cmath>
#include <memory>

#include "tickwire/protocol/vec3_math.h"
#include "tickwire/server/room.h"
#include "tickwire/server/room_witness.h"

namespace tickwire {
namespace {

struct NoCompletion final : TickObserver {
  void on_tick_completed(Tick) override {}
};

bool same_float(float a, float b) { return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b); }
bool same_vec(const protocol::Vec3& a, const protocol::Vec3& b) {
  return same_float(a.x, b.x) && same_float(a.y, b.y) && same_float(a.z, b.z);
}

bool same_cmd(const protocol::InputCmd& a, const protocol::InputCmd& b) {
  return a.buttons == b.buttons && same_float(a.move_x, b.move_x) && same_float(a.move_y, b.move_y) &&
         same_float(a.yaw_deg, b.yaw_deg) && same_float(a.pitch_deg, b.pitch_deg);
}

bool same_claim(const std::optional<protocol::Claim>& a, const std::optional<protocol::Claim>& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  if (!same_vec(a->position, b->position) || !same_vec(a->velocity, b->velocity) || a->flags != b->flags ||
      a->placement_epoch != b->placement_epoch || a->values.size() != b->values.size())
    return false;
  for (std::size_t i = 0; i < a->values.size(); ++i)
    if (!same_float(a->values[i].value, b->values[i].value)) return false;
  return true;
}

bool same_input(const RecordedInput& recorded, const TickInput& applied) {
  if (recorded.source != applied.source || recorded.guessed != applied.guessed) return false;
  if (!applied.fresh()) return true;
  return applied.sequence == recorded.sequence && same_cmd(applied.cmd, recorded.cmd) && same_claim(applied.claim, recorded.claim);
}

// A shot the game can be handed: the room's own checks on its numbers and its rewind bound (a
// recording is not trusted).
bool sane_shot(const FireShot& shot, Tick tick, const Room& room) {
  const float aim = protocol::length(shot.aim);
  const double rewind_ticks = room.contract().limits.max_rewind_ms / 1000.0 / room.seconds_per_tick();
  const auto now = static_cast<double>(tick.value());
  return protocol::finite(shot.eye) && protocol::finite(shot.aim) && std::isfinite(aim) && aim > 1e-6f &&
         shot.render_tick >= now - rewind_ticks - 1e-6 && shot.render_tick <= now;
}

class ReplayDriver final : public RoomRecorder {
 public:
  ReplayDriver(Room& room, RoomEventCursor& cursor, RoomReplayVerdict& verdict)
      : room_(room), cursor_(cursor), verdict_(verdict) {}

  void run() {
    while (!verdict_.diverged() && cursor_.next(event_)) {
      ++verdict_.events_replayed;
      if (event_.kind == RoomEventKind::tick) {
        std::swap(tick_, event_);
        run_tick();
      } else {
        make_change(event_);
      }
    }
  }

  void inputs_prepared(const Room& room, Tick tick) override {
    std::size_t next = 0;
    room.for_each_session([&](const RoomSession& session) {
      if (verdict_.diverged()) return;
      const bool recorded = next < tick_.inputs.size() && tick_.inputs[next].owner == session.owner;
      if (!recorded || !same_input(tick_.inputs[next], session.inputs.current())) {
        return diverge(tick, ReplayDivergence::applied_input, session.owner);
      }
      ++next;
    });
    if (!verdict_.diverged() && next != tick_.inputs.size())
      diverge(tick, ReplayDivergence::applied_input, tick_.inputs[next].owner);
  }

  // The shots released inside the tick, then its witness.
  void tick_simulated(const Room& room, Tick tick) override {
    while (cursor_.next(event_)) {
      ++verdict_.events_replayed;
      if (event_.kind == RoomEventKind::fire) {
        fire(event_);
        continue;
      }
      const uint64_t ours = room_witness(room, tick, witness_);
      ++verdict_.ticks_replayed;
      if (ours != event_.witness && !verdict_.diverged()) {
        verdict_.recorded_checksum = event_.witness;
        verdict_.replayed_checksum = ours;
        diverge(tick, ReplayDivergence::witness, kAuthorityOwner);
      }
      return;
    }
  }

  // The driver's own changes, told back by the room: nothing to record.
  void admitted(OwnerId, EntityRef, const AdmissionGrants&, std::string_view) override {}
  void left(OwnerId) override {}
  void departed(OwnerId) override {}
  void resumed(OwnerId, EntityRef, std::string_view, const AdmissionGrants&) override {}
  void world_settings_set(const protocol::WorldSettings&) override {}
  void interacted(OwnerId, const protocol::InteractRequest&) override {}
  void construct_called(OwnerId, const protocol::ConstructCall&) override {}
  void fired(OwnerId, const FireShot&, Tick) override {}
  void edited(OwnerId, const protocol::SceneEdit&) override {}

 private:
  void diverge(Tick tick, ReplayDivergence what, OwnerId owner) {
    if (verdict_.diverged()) return;
    verdict_.first_divergence = tick;
    verdict_.divergence = what;
    verdict_.owner = owner;
  }

  void run_tick() {
    for (const RecordedInput& in : tick_.inputs) {
      if (in.guessed) room_.assume_led(in.owner);
      if (in.source != TickInputSource::fresh) continue;
      frame_.first_sequence = in.sequence;
      frame_.inputs.assign(1, in.cmd);
      frame_.claim = in.claim;
      (void)room_.receive_input(in.owner, frame_);
    }
    NoCompletion completion;
    (void)room_.update(room_.clock().due_time(tick_.tick), completion);
    drain_outboxes();
    // Never for a recording the reader took (its ticks are in order, within the clock's range).
    if (room_.last_tick() != tick_.tick) diverge(tick_.tick, ReplayDivergence::tick_not_run, kAuthorityOwner);
  }

  // What a server would have sent on: taken, so the game's capped outboxes never fill.
  void drain_outboxes() {
    Simulation& game = room_.simulation();
    events_out_.clear();
    hits_out_.clear();
    messages_out_.clear();
    refusals_out_.clear();
    game.take_events(events_out_);
    game.take_hits(hits_out_);
    game.take_messages(messages_out_);
    game.take_edit_refusals(refusals_out_);
  }

  // The live session a recorded change names, or null (a divergence).
  const RoomSession* session_for(const RoomEvent& e) {
    const RoomSession* session = room_.session(e.owner);
    if (session == nullptr) diverge(e.tick, ReplayDivergence::change_refused, e.owner);
    return session;
  }

  void fire(const RoomEvent& e) {
    const RoomSession* session = session_for(e);
    if (session == nullptr) return;
    if (!sane_shot(e.shot, e.tick, room_)) return diverge(e.tick, ReplayDivergence::change_refused, e.owner);
    room_.simulation().fire(session->pawn, e.shot, e.tick);
  }

  void make_change(const RoomEvent& e);

  Room& room_;
  RoomEventCursor& cursor_;
  RoomReplayVerdict& verdict_;
  RoomEvent tick_;
  RoomEvent event_;
  protocol::InputFrame frame_;
  WitnessScratch witness_;
  std::vector<GameEvent> events_out_;
  std::vector<protocol::HitEvent> hits_out_;
  std::vector<GameMessageOut> messages_out_;
  std::vector<EditRefusalOut> refusals_out_;
};

void ReplayDriver::make_change(const RoomEvent& e) {
  AdmissionGrants grants;
  grants.world_authority = e.world_authority;
  switch (e.kind) {
    case RoomEventKind::admit: {
      const std::optional<EntityRef> pawn = room_.admit(e.owner, grants, e.player);
      if (!pawn || *pawn != e.pawn) diverge(e.tick, ReplayDivergence::change_refused, e.owner);
      return;
    }
    case RoomEventKind::resume:
      if (room_.resume(e.owner, e.pawn, e.player, grants)) diverge(e.tick, ReplayDivergence::change_refused, e.owner);
      return;
    case RoomEventKind::leave:
      if (session_for(e) != nullptr) room_.leave(e.owner);
      return;
    case RoomEventKind::depart:
      if (session_for(e) != nullptr) room_.depart(e.owner);
      return;
    case RoomEventKind::world_settings:
      room_.set_world_settings(e.world);
      return;
    case RoomEventKind::fire:
      return fire(e);
    default:
      break;
  }
  const RoomSession* session = session_for(e);
  if (session == nullptr) return;
  Simulation& game = room_.simulation();
  if (e.kind == RoomEventKind::interact) {
    const EntityRef target = EntityRef::from_raw(e.interact.target_ref);
    if (target.has_unknown_flags() || (!room_.entities().resolves(target) && !game.resolves_target(target)))
      return diverge(e.tick, ReplayDivergence::change_refused, e.owner);
    game.interact(session->pawn, target, e.interact.action, e.tick);
  } else if (e.kind == RoomEventKind::construct_call) {
    std::array<uint8_t, protocol::MaxConstructCallPayloadBytes> payload{};
    for (std::size_t i = 0; i < e.call.payload.size(); ++i) payload[i] = e.call.payload[i].value;
    (void)game.construct_call(e.owner, ConstructHandle::from_raw(e.call.target), e.call.method,
                              std::span<const uint8_t>(payload.data(), e.call.payload.size()), e.tick);
  } else if (e.kind == RoomEventKind::edit) {
    if (!session->grants.world_authority) return diverge(e.tick, ReplayDivergence::change_refused, e.owner);
    game.edit(e.owner, e.edit, e.tick);
  }
}

}  // namespace

RoomReplayVerdict replay_room_recording(const RoomRecording& recording, Simulation& game) {
  RoomReplayVerdict verdict;
  RoomConfig config;
  config.contract = recording.contract;
  config.entity_capacity = recording.entity_capacity;
  config.pawn_hold_ticks = recording.pawn_hold_ticks;
  // Every recorded tick runs on its own call at its due time; a gap (ticks the original's clock
  // declared dropped) is declared again, as one discontinuity.
  config.overload_threshold_ticks = 2;
  auto room = std::make_unique<Room>(config, game);
  verdict.load_refused = room->load_whole(recording.initial_state);
  if (verdict.load_refused) return verdict;
  if (room->last_tick() != recording.first_tick) {
    verdict.load_refused = SaveStateRefusal::value_out_of_range;  // the save names another tick than the header
    return verdict;
  }
  RoomEventCursor cursor(recording);
  ReplayDriver driver(*room, cursor, verdict);
  room->set_recorder(&driver);
  driver.run();
  room->set_recorder(nullptr);
  return verdict;
}

}  // namespace tickwire
