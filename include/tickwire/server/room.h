// Room: one running match. It owns the room clock, the netcode contract, the authority's entity
// slots and one input queue per admitted session, and it drives the game's Simulation: per fixed
// tick it prepares exactly one input per session (the preparing seam), steps every pawn and the
// world, then hands the finished tick to the completed seam, which sends that tick's snapshots.
// A call to update() runs at most the contract's catch-up ticks; the rest of a backlog runs on the
// following calls, nothing merged, nothing dropped short of the clock's declared overload.
// A room may hold a pawn for its player after the session left (seed 003, "Durability and
// rejoin"), and it is the DurableState a keeper journals and checkpoints: its pawns, then its game.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tickwire/clock/room_clock.h"
#include "tickwire/clock/token_bucket.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/core/reasons.h"
#include "tickwire/protocol/contract_hash.h"
#include "tickwire/protocol/fire_request.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/construct_call.h"
#include "tickwire/protocol/interact_request.h"
#include "tickwire/protocol/netcode_contract.h"
#include "tickwire/protocol/resume_ticket.h"
#include "tickwire/protocol/scene_edit.h"
#include "tickwire/protocol/scene_edit_refused.h"
#include "tickwire/protocol/timed_input_frame.h"
#include "tickwire/replication/handles/entity_slots.h"
#include "tickwire/server/admission_grants.h"
#include "tickwire/server/durable_state.h"
#include "tickwire/server/room_recorder.h"
#include "tickwire/server/room_save_state.h"
#include "tickwire/server/session_conduct.h"
#include "tickwire/server/session_inputs.h"
#include "tickwire/server/simulation.h"
#include "tickwire/transport/message_envelope.h"

namespace tickwire {

inline constexpr uint32_t kRoomMaxSessions = kMaxClientOwner;  // owner ids 1..1023 (0 is the authority)
inline constexpr uint32_t kRoomDefaultEntityCapacity = 65536;
inline constexpr std::size_t kMaxPlayerNameBytes = 64;    // a session's player, as a resume token names it

struct RoomConfig {
  NetcodeContract contract;  // resolved and validated (resolve_netcode_contract)
  MonoTime origin;           // the room clock's start phase
  uint32_t entity_capacity = kRoomDefaultEntityCapacity;
  uint32_t overload_threshold_ticks = kRoomClockDefaultOverloadThresholdTicks;
  // How long a departed session's pawn is held for its player (depart()); 0: a pawn leaves with its
  // session. A recovered room holds every pawn it put back this long from its first tick.
  uint32_t pawn_hold_ticks = 0;
};

// A shot that waits for the input it was fired after (FireRequest::input_sequence) to be simulated.
struct WaitingShot {
  protocol::FireRequest request;  // its aim already unit length
  Tick received_at;               // the room's last tick when it arrived
};
inline constexpr std::size_t kMaxWaitingShots = 32;  // per session: past it a shot is refused (too_many_waiting)

// One admitted session's state in the room.
struct RoomSession {
  OwnerId owner = 0;
  EntityRef pawn;
  Tick admitted_at;
  SessionInputs inputs;
  TokenBucket interactions;  // the contract's interactions per second
  TokenBucket fires;         // the contract's fires per second
  TokenBucket pings;         // the contract's pings per second (each answered)
  TokenBucket edits;         // the contract's scene edit gestures per second
  AdmissionGrants grants;    // what its connect token granted (world authority: it may edit the scene)
  SessionConduct conduct;    // its offences, and whether they have ended it
  std::vector<WaitingShot> waiting_shots;  // in arrival order, at most kMaxWaitingShots
  uint64_t ticks_simulated = 0;
  std::string player;  // who the session plays for (what a resume token is bound to)
};

// A pawn held for its player after the session left: stepped on the starved inputs its session
// left behind (so it stops, looks where it looked), until the player comes back or the hold ends.
struct HeldPawn {
  EntityRef pawn;
  std::string player;
  Tick held_until;
  SessionInputs inputs;
};

// Why a client's message naming an entity was refused (nothing changed).
TW_REASONS(InteractRefusal,
           no_session,        // no admitted session for that owner
           unknown_flags,     // the target ref carries flag bits this build does not know
           stale_or_foreign,  // not a live slot at that generation, nor a target the game resolves
           rate_limited)      // past the session's interactions per second (the contract's limits)

// Why a client's shot was refused before the game saw it (nothing traced, nothing sent back).
TW_REASONS(FireRefusal,
           no_session,    // no admitted session for that owner (or it left while the shot waited)
           rate_limited,  // past the session's fires per second (the contract's limits)
           malformed,     // a non-finite eye or aim, or an aim of no length
           too_many_waiting,    // kMaxWaitingShots of the session's wait for their inputs already
           input_not_applied)   // the input it was fired after was not simulated within the max rewind

// What the room changed in an accepted shot's timing (the shot is still traced).
TW_REASONS(FireRewind,
           clamped_to_bound,  // older than the contract's max rewind: traced at the bound
           ahead_of_server,   // newer than the server's last tick: traced at it
           waited_for_input)  // arrived before the input it was fired after was simulated: traced after it

// Why a client's prediction-only input was refused: the contract did not admit the prediction.
TW_REASONS(PredictionRefusal,
           claim_not_admitted)  // a claim about a pawn its client may not predict: stripped, the server's answer stands

// The completed seam: told of each tick once everything in it has been simulated.
class TickObserver {
 public:
  virtual ~TickObserver() = default;
  virtual void on_tick_completed(Tick tick) = 0;
};

// What one update() did.
struct RoomUpdate {
  ClockPlan plan;
  Tick first_tick;
  uint32_t ticks_run = 0;
};

class Room final : public DurableState {
 public:
  // A contract whose prediction admission demoted a requested client prediction is logged once, as
  // a warning with its diagnostic, and counted (prediction_demotions()): once per room, however
  // many clients join.
  Room(const RoomConfig& config, Simulation& simulation);

  const NetcodeContract& contract() const { return contract_; }
  const ContractHash& contract_hash() const { return contract_hash_; }
  double seconds_per_tick() const { return clock_.seconds_per_tick(); }
  const RoomClock& clock() const { return clock_; }
  // The last tick simulated (Tick 0 before any).
  Tick last_tick() const { return clock_.last_executed_tick(); }
  // Whether `tick` is one the contract sends a snapshot on.
  bool snapshot_tick(Tick tick) const;

  // The world settings the next ticks run under (the contract's until set): every pawn and world
  // step takes tick length x time scale, and the game hears of each change
  // (Simulation::world_settings_changed). Valid settings only (protocol::valid_world_settings).
  void set_world_settings(const protocol::WorldSettings& settings);
  const protocol::WorldSettings& world_settings() const { return world_; }

  // Admits `owner` (1..255) playing for `player` (at most kMaxPlayerNameBytes), spawning its pawn;
  // nullopt if the owner is taken or no slot is free.
  std::optional<EntityRef> admit(OwnerId owner, const AdmissionGrants& grants = {}, std::string_view player = {});
  // The session leaves: its pawn is despawned and its ref stops resolving; its waiting shots are
  // refused (no_session).
  void leave(OwnerId owner);
  // The session leaves, its pawn held for its player for the config's pawn_hold_ticks (left at once
  // when that is 0); its waiting shots are refused (no_session).
  void depart(OwnerId owner);
  // Admits `owner` into the pawn held for `player`: nullopt when it came back (the session starts
  // afresh; the pawn is as it was left), else why not (pawn_gone: none is held at that ref;
  // foreign: it is held for another player). A pawn still in a live session is not held: the
  // caller departs that session first.
  std::optional<protocol::ResumeRefusal> resume(OwnerId owner, EntityRef pawn, std::string_view player,
                                                const AdmissionGrants& grants = {});
  // The live session whose pawn `pawn` is, if any.
  std::optional<OwnerId> owner_of(EntityRef pawn) const;
  const std::vector<HeldPawn>& held_pawns() const { return held_; }
  uint64_t holds_expired() const { return holds_expired_; }  // pawns whose player never came back in time
  const RoomSession* session(OwnerId owner) const;
  uint32_t session_count() const { return session_count_; }
  // Every live session, ascending by owner id (the order a recording and its witness take them).
  template <class F>
  void for_each_session(F&& f) const {
    for (const std::unique_ptr<RoomSession>& s : sessions_)
      if (s) f(*s);
  }

  // DurableState: the room's pawns (each session's and each held one, with its player), then the
  // game's. A pawn joining and a pawn leaving for good are the room's own facts; a restore or a
  // replay puts every pawn back held for its player, from the recovered room's first tick.
  void keep_facts(bool on) override;
  void take_facts(std::vector<DurableFact>& out) override;
  void save_state(std::vector<uint8_t>& out) const override;
  bool restore_state(std::span<const uint8_t> state) override;
  bool replay_fact(const DurableFact& fact) override;

  // The save state (seed 002; room_save_state.cpp): the room's last tick and world settings, every
  // session (owner, pawn, player, world authority, input window) and held pawn, then the game's
  // whole state. save_whole: game_unsaved when the game writes none; it lets the game settle first
  // (GameSaveState::settle_for_save), so it is not const. load_whole reads one into a
  // fresh room (no tick run, nobody admitted) built with the same contract over the same map; the
  // room then runs from the tick after the saved one. Everything the room holds is read and checked
  // before anything changes; only a game refusing its own bytes can leave it part-loaded (the caller
  // discards a room whose load failed, as it does a failed recovery).
  std::optional<SaveStateRefusal> save_whole(std::vector<uint8_t>& out);
  std::optional<SaveStateRefusal> load_whole(std::span<const uint8_t> state);

  // Receive path (any number per tick): only queues. Returns the inputs queued. A claim rides only
  // when the contract admits the own pawn's prediction (else it is stripped and counted).
  std::size_t receive_input(OwnerId owner, const protocol::InputFrame& frame);
  // A server-time room's input frame (its clients' own logic rates): every input queued for the
  // next tick to merge; a frame stamped past the server's time by more than the contract's lead is
  // refused whole (InputDropReason::stamp_ahead). Returns the inputs queued (0 in another mode).
  std::size_t receive_timed_input(OwnerId owner, const protocol::TimedInputFrame& frame);
  // A replay's: the session's client had led when the recorded room first guessed a starved tick of
  // its (the replay hands each input over on its own tick, so its queue never sees the lead).
  void assume_led(OwnerId owner);
  const ReasonCounters<PredictionRefusal>& prediction_refusals() const { return prediction_refusals_; }
  // The contract's demoted prediction, by reason: 1 when this room's was, else 0.
  const ReasonCounters<PredictionDemotion>& prediction_demotions() const { return prediction_demotions_; }
  // Checks the session's interaction rate and the target's generation before anything changes;
  // the game's interact() runs only then.
  bool receive_interact(OwnerId owner, const protocol::InteractRequest& request, MonoTime now);
  // A client's construct call: its session's interaction bucket, then the game's construct_call
  // (which resolves the handle); a refusal of either is counted by reason.
  bool receive_construct_call(OwnerId owner, const protocol::ConstructCall& call, MonoTime now);
  const ReasonCounters<ConstructRefusal>& construct_refusals() const { return construct_refusals_; }
  const ReasonCounters<InteractRefusal>& interact_refusals() const { return interact_refusals_; }
  // Whether a ping of the session's is answered (within the contract's pings per second); one past
  // it is an offence.
  bool receive_ping(OwnerId owner, MonoTime now);
  // Counts `count` offences of the session's (its conduct): true when it is now to be kicked.
  // False for an owner with no session.
  bool offend(OwnerId owner, Offence offence, uint64_t count, MonoTime now);
  // Checks the session's fire rate and the shot's numbers; a shot fired after an input the room has
  // not simulated yet waits for it (traced at the end of the tick that applies it, or refused once
  // it has waited the contract's max rewind); then bounds its render time by the max rewind back
  // from the tick it is traced on, and only then hands it to the game's fire().
  bool receive_fire(OwnerId owner, const protocol::FireRequest& request, MonoTime now);
  const ReasonCounters<FireRefusal>& fire_refusals() const { return fire_refusals_; }
  const ReasonCounters<FireRewind>& fire_rewinds() const { return fire_rewinds_; }
  uint64_t fires_accepted() const { return fires_accepted_; }
  // A scene edit gesture: refused whole (returned, counted, an offence) from a session without world
  // authority or past its edit rate; else handed to the game's edit(), which judges every write.
  std::optional<protocol::EditRefusal> receive_edit(OwnerId owner, const protocol::SceneEdit& gesture, MonoTime now);
  const ReasonCounters<protocol::EditRefusal>& edit_refusals() const { return edit_refusals_; }
  uint64_t edits_accepted() const { return edits_accepted_; }

  // Runs the ticks due at `now` (at most max_catch_up_ticks); `completed` hears each one.
  RoomUpdate update(MonoTime now, TickObserver& completed);
  MonoTime next_due() const { return clock_.next_due(); }

  // The observer told of every change to the room (room_recorder.h), or null; the caller's, outliving
  // its attachment. A recording starts from a save state taken just before it is attached.
  void set_recorder(RoomRecorder* recorder) { recorder_ = recorder; }
  uint32_t pawn_hold_ticks() const { return pawn_hold_ticks_; }

  EntitySlots& entities() { return entities_; }
  const EntitySlots& entities() const { return entities_; }
  Simulation& simulation() { return simulation_; }
  const Simulation& simulation() const { return simulation_; }

 private:
  void run_tick(Tick tick, TickObserver& completed);
  void step_held(Tick tick, double dt_s);
  InputQueueConfig input_queue_config() const;
  RoomSession& open_session(OwnerId owner, EntityRef pawn, const AdmissionGrants& grants, std::string_view player);
  void close_session(RoomSession& session);
  // Puts a pawn a checkpoint or the journal names back, held for its player.
  bool put_back(EntityRef pawn, std::string player);
  void pawn_gone(EntityRef pawn);
  void note_fact(uint32_t kind, EntityRef pawn, std::string_view player);
  void release_shots(RoomSession& session, Tick tick);
  void trace_shot(RoomSession& session, const protocol::FireRequest& request, Tick tick);
  RoomSession* find(OwnerId owner);

  NetcodeContract contract_;
  ContractHash contract_hash_;
  RoomClock clock_;
  Simulation& simulation_;
  EntitySlots entities_;
  // By owner id, kRoomMaxSessions + 1 long; a session on the heap, so an empty room stays small.
  std::vector<std::unique_ptr<RoomSession>> sessions_ =
      std::vector<std::unique_ptr<RoomSession>>(kRoomMaxSessions + 1);
  uint32_t session_count_ = 0;
  uint32_t pawn_hold_ticks_ = 0;
  std::vector<HeldPawn> held_;  // at most one per live slot (a held pawn keeps its slot)
  uint64_t holds_expired_ = 0;
  bool keeping_facts_ = false;
  std::vector<DurableFact> facts_;  // the room's own, since the last take
  ReasonCounters<InteractRefusal> interact_refusals_;
  ReasonCounters<ConstructRefusal> construct_refusals_;
  ReasonCounters<FireRefusal> fire_refusals_;
  ReasonCounters<FireRewind> fire_rewinds_;
  uint64_t fires_accepted_ = 0;
  ReasonCounters<protocol::EditRefusal> edit_refusals_;  // gestures refused whole by the room
  uint64_t edits_accepted_ = 0;
  ReasonCounters<PredictionRefusal> prediction_refusals_;
  ReasonCounters<PredictionDemotion> prediction_demotions_;
  protocol::WorldSettings world_;
  RoomRecorder* recorder_ = nullptr;
};

}  // namespace tickwire
