// RoomPolicy: what a room is configured with, the input the netcode contract is resolved from.
// Each part states its fields once, in its field table: the wire form (RoomWelcome carries the
// resolved parts), each number's range, each string's cap and each list's cap (contract_fields.h).
// Everything here is contract material; nothing volatile (player counts, lease progress) lives here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "tickwire/protocol/constants.h"
#include "tickwire/protocol/contract_fields.h"
#include "tickwire/protocol/load_policy.h"
#include "tickwire/protocol/mode_policy.h"
#include "tickwire/protocol/vocabulary.h"
#include "tickwire/protocol/world_settings.h"
#include "tickwire/wire/types.h"

namespace tickwire {

// Defaults and ranges a policy is resolved and validated against.
inline constexpr uint32_t kContractDefaultTickRateHz = 60;
inline constexpr uint32_t kContractMaxTickRateHz = 240;
inline constexpr uint32_t kContractDefaultMaxCatchUpTicks = protocol::MaxCatchUpTicks;
inline constexpr uint32_t kContractMaxCatchUpTicksCap = 16;
inline constexpr uint32_t kContractDefaultInputQueueTicks = protocol::InputQueueTicks;
inline constexpr uint32_t kContractMaxInputQueueTicks = protocol::InputQueueTicks;  // the room's input queue holds no more
inline constexpr uint32_t kContractDefaultStarvationTicks = protocol::StarvationRepeatTicks;
inline constexpr uint32_t kContractMaxStarvationTicks = 60;
inline constexpr double kContractMaxDelaySnapshotIntervals = 16.0;
// The ring a client keeps: at 60 Hz, 533 ms, the delay ceiling plus a stall's backlog (a stall's
// snapshots land together; a ring shorter than the delay plus the stall leaves the render clock
// behind it: a snap).
inline constexpr uint32_t kContractDefaultInterpBufferTicks = 32;
inline constexpr uint32_t kContractMinInterpBufferTicks = 2;
inline constexpr uint32_t kContractMaxInterpBufferTicks = 256;
inline constexpr double kContractMaxMarginGrowthTicks = 64.0;
inline constexpr double kContractMinMarginDecaySeconds = 0.001;
inline constexpr double kContractMaxMarginDecaySeconds = 3600.0;
inline constexpr uint32_t kContractMaxExtrapolationMs = 1000;
inline constexpr uint32_t kContractDefaultSnapshotBudgetBytes = 1000;  // one message, a tenth of it spare
inline constexpr uint32_t kContractMinSnapshotBudgetBytes = 64;
inline constexpr uint32_t kContractMaxClientBytesPerSecond = 100'000'000;
inline constexpr double kContractMinInteractionRangeM = 0.01;
inline constexpr double kContractMaxInteractionRangeM = 1000.0;
inline constexpr uint32_t kContractMaxInteractionsPerSecond = 1000;
inline constexpr uint32_t kContractMaxRelaysPerSecond = 10'000;
inline constexpr uint32_t kContractMaxFiresPerSecond = 1'000;
inline constexpr uint32_t kContractMaxRewindMs = 1'000;  // a second of history: past it, a shot is the shooter's lag
inline constexpr double kContractMinFireEyeToleranceM = 0.01;
inline constexpr double kContractMaxFireEyeToleranceM = 10.0;
inline constexpr uint32_t kContractMaxPingsPerSecond = 1'000;
inline constexpr uint32_t kContractMaxEditsPerSecond = 1'000;
inline constexpr uint32_t kContractMaxKickAfterOffences = 100'000;
inline constexpr uint32_t kContractMaxOffencesForgivenPerSecond = 10'000;
inline constexpr double kContractMinInterestRadiusM = 1.0;
inline constexpr double kContractMaxInterestRadiusM = 100'000.0;
inline constexpr std::size_t kContractMaxStringBytes = 128;

// Who and what the room is: the identity and content coordinates.
struct RoomIdentity {
  std::string room_id;
  std::string game;
  std::string deployment;
  std::string content_version;
  std::string environment;
  std::string blueprint;      // may be empty
  std::string room_template;  // may be empty

  static constexpr std::string_view wire_name = "RoomIdentity";
  template <class W>
  void fields(W& w) {
    constexpr std::size_t cap = kContractMaxStringBytes;
    contract_str8(w, "roomId", room_id, cap, Presence::required);
    contract_str8(w, "game", game, cap, Presence::required);
    contract_str8(w, "deployment", deployment, cap, Presence::required);
    contract_str8(w, "contentVersion", content_version, cap, Presence::required);
    contract_str8(w, "environment", environment, cap, Presence::required);
    contract_str8(w, "blueprint", blueprint, cap, Presence::optional);
    contract_str8(w, "roomTemplate", room_template, cap, Presence::optional);
  }
};

struct CadencePolicy {
  uint32_t tick_rate_hz = kContractDefaultTickRateHz;
  uint32_t snapshot_rate_hz = kContractDefaultTickRateHz;  // one snapshot per tick by default
  uint32_t max_catch_up_ticks = kContractDefaultMaxCatchUpTicks;
  // World seconds one tick advances, in tick lengths: the world time scale the room starts at (a
  // room may change it while it runs; every snapshot carries the current one, WorldSettings).
  double time_scale = 1.0;

  static constexpr std::string_view wire_name = "CadencePolicy";
  template <class W>
  void fields(W& w) {
    contract_u32(w, "tickRateHz", tick_rate_hz, 1, kContractMaxTickRateHz);
    contract_u32(w, "snapshotRateHz", snapshot_rate_hz, 1, kContractMaxTickRateHz);  // and divides the tick rate
    contract_u32(w, "maxCatchUpTicks", max_catch_up_ticks, 1, kContractMaxCatchUpTicksCap);
    contract_f64(w, "timeScale", time_scale, 0.0, protocol::kMaxWorldTimeScale);
  }
};

struct InterpolationPolicy {
  double delay_snapshot_intervals = 2.0;  // the base delay: two snapshot intervals
  uint32_t buffer_ticks = kContractDefaultInterpBufferTicks;
  double margin_growth_ticks = 1.0;  // JitterMargin growth per held or snapped frame
  double max_margin_ticks = 8.0;
  double margin_decay_seconds = 2.0;  // calm time that hands back one margin tick
  bool auto_margin = true;
  uint32_t max_extrapolation_ms = 100;  // a stalled lane extrapolates no further than this

  static constexpr std::string_view wire_name = "InterpolationPolicy";
  template <class W>
  void fields(W& w) {
    contract_f64(w, "delaySnapshotIntervals", delay_snapshot_intervals, 0.0, kContractMaxDelaySnapshotIntervals);
    contract_u32(w, "bufferTicks", buffer_ticks, kContractMinInterpBufferTicks, kContractMaxInterpBufferTicks);
    contract_f64(w, "marginGrowthTicks", margin_growth_ticks, 0.0, kContractMaxMarginGrowthTicks);
    // At most bufferTicks, and the delay plus this margin must fit the buffer (contract rules).
    contract_f64(w, "maxMarginTicks", max_margin_ticks, 0.0, kContractMaxInterpBufferTicks);
    contract_f64(w, "marginDecaySeconds", margin_decay_seconds, kContractMinMarginDecaySeconds,
                 kContractMaxMarginDecaySeconds);
    w.boolean("autoMargin", auto_margin);
    contract_u32(w, "maxExtrapolationMs", max_extrapolation_ms, 0, kContractMaxExtrapolationMs);
  }
};

struct InputPolicy {
  uint32_t queue_ticks = kContractDefaultInputQueueTicks;
  uint32_t starvation_ticks = kContractDefaultStarvationTicks;  // ticks the last input repeats
  double forgiveness = 1.0;  // 1.0: the server's answer always stands; below: claims may be adopted

  static constexpr std::string_view wire_name = "InputPolicy";
  template <class W>
  void fields(W& w) {
    contract_u32(w, "queueTicks", queue_ticks, 1, kContractMaxInputQueueTicks);
    contract_u32(w, "starvationTicks", starvation_ticks, 0, kContractMaxStarvationTicks);
    contract_f64(w, "forgiveness", forgiveness, 0.0, 1.0);
  }
};

// What a client's snapshots may cost. A packet's size is the transport's cap (protocol::
// MaxPacketBytes), not a policy; the snapshot budget is at most that many bytes per fragment.
struct ByteBudgets {
  uint32_t max_snapshot_fragments = protocol::MaxSnapshotFragments;
  uint32_t snapshot_budget_bytes = kContractDefaultSnapshotBudgetBytes;
  uint32_t client_bytes_per_second = 256 * 1024;

  static constexpr std::string_view wire_name = "ByteBudgets";
  template <class W>
  void fields(W& w) {
    contract_u32(w, "maxSnapshotFragments", max_snapshot_fragments, 1, protocol::MaxSnapshotFragments);
    // At most MaxPacketBytes x maxSnapshotFragments (contract rules).
    contract_u32(w, "snapshotBudgetBytes", snapshot_budget_bytes, kContractMinSnapshotBudgetBytes,
                 protocol::MaxSnapshotBytes);
    contract_u32(w, "clientBytesPerSecond", client_bytes_per_second, protocol::MaxPacketBytes,
                 kContractMaxClientBytesPerSecond);
  }
};

// What a client may ask of the room, per session: interactions (a use), game messages relayed to
// another client (seed 002's SendTo) and shots (seed 000's fireRequest), each a token bucket of this
// many per second; and how far back the server rewinds the world to trace a shot as the shooter
// saw it (lag compensation: never further), and how far a shot's claimed eye may stray from the
// eye the server computes for the pawn before the shot is dropped (the client predicts ahead of the
// server by its queued inputs: a pawn running 7 m/s with 3 ticks queued at 60 Hz leads by 0.35 m).
// A session's offences (a message past its rate, a body that does not decode, a message it may not
// send, inputs past its queue) drain a bucket of kickAfterOffences that refills at
// offencesForgivenPerSecond: a session that empties it is kicked (an honest client offends never).
struct InteractionLimits {
  double interaction_range_m = 3.0;
  uint32_t interactions_per_second = 8;
  uint32_t relays_per_second = 60;
  uint32_t fires_per_second = 10;
  uint32_t max_rewind_ms = 250;
  double fire_eye_tolerance_m = 1.0;
  uint32_t pings_per_second = 10;
  uint32_t kick_after_offences = 200;
  uint32_t offences_forgiven_per_second = 20;
  uint32_t edits_per_second = 20;  // scene edit gestures a session with world authority may send

  static constexpr std::string_view wire_name = "InteractionLimits";
  template <class W>
  void fields(W& w) {
    contract_f64(w, "interactionRangeM", interaction_range_m, kContractMinInteractionRangeM,
                 kContractMaxInteractionRangeM);
    contract_u32(w, "interactionsPerSecond", interactions_per_second, 1, kContractMaxInteractionsPerSecond);
    contract_u32(w, "relaysPerSecond", relays_per_second, 1, kContractMaxRelaysPerSecond);
    contract_u32(w, "firesPerSecond", fires_per_second, 1, kContractMaxFiresPerSecond);
    contract_u32(w, "maxRewindMs", max_rewind_ms, 0, kContractMaxRewindMs);
    contract_f64(w, "fireEyeToleranceM", fire_eye_tolerance_m, kContractMinFireEyeToleranceM,
                 kContractMaxFireEyeToleranceM);
    contract_u32(w, "pingsPerSecond", pings_per_second, 1, kContractMaxPingsPerSecond);
    contract_u32(w, "kickAfterOffences", kick_after_offences, 1, kContractMaxKickAfterOffences);
    contract_u32(w, "offencesForgivenPerSecond", offences_forgiven_per_second, 0, kContractMaxOffencesForgivenPerSecond);
    contract_u32(w, "editsPerSecond", edits_per_second, 1, kContractMaxEditsPerSecond);
  }
};

// Who sees what: a client is sent the entities within `radius_m` of its pawn, and the pose lane
// carries transforms within `pose_radius_m` (never wider than the interest radius).
struct InterestPolicy {
  double radius_m = 100.0;
  double pose_radius_m = 30.0;

  static constexpr std::string_view wire_name = "InterestPolicy";
  template <class W>
  void fields(W& w) {
    contract_f64(w, "radiusM", radius_m, kContractMinInterestRadiusM, kContractMaxInterestRadiusM);
    contract_f64(w, "poseRadiusM", pose_radius_m, 0.0, kContractMaxInterestRadiusM);  // and <= radiusM
  }
};

// The possessed character's movement body, as the game states it: what owns its transform.
enum class PawnBody : uint8_t {
  none = 0,                  // no controllable character
  kinematic_controller = 1,  // a character controller the game steps itself: the transform owns it
  dynamic_rigidbody = 2,     // a body the physics engine steps: physics owns it
  count_,
};
inline constexpr wire::NamedValue kPawnBodyMembers[] = {
    {"none", 0}, {"kinematicController", 1}, {"dynamicRigidbody", 2}};
inline constexpr wire::EnumDef kPawnBodyDef{"PawnBody", kPawnBodyMembers};

// Who the game asks to move the possessed character first: the owning client (predicted, then
// reconciled) or the server alone (the client draws the server's answer).
enum class MovementAuthority : uint8_t {
  server_authoritative = 0,
  client_predicted = 1,
  count_,
};
inline constexpr wire::NamedValue kMovementAuthorityMembers[] = {{"serverAuthoritative", 0}, {"clientPredicted", 1}};
inline constexpr wire::EnumDef kMovementAuthorityDef{"MovementAuthority", kMovementAuthorityMembers};

// What a game states about predicting its possessed character (seed 003, "Authority and
// prediction admission"). It is a request: the contract's PredictionAdmission says what the server
// grants (protocol/prediction_admission.h). A policy that states nothing fails closed: no
// controllable character, server-authoritative movement, nothing predicted. A game whose client
// predicts its pawn says so: {kinematic_controller, client_predicted}.
struct PredictionPolicy {
  PawnBody pawn_body = PawnBody::none;
  MovementAuthority movement = MovementAuthority::server_authoritative;
  friend bool operator==(const PredictionPolicy&, const PredictionPolicy&) = default;

  static constexpr std::string_view wire_name = "PredictionPolicy";
  template <class W>
  void fields(W& w) {
    w.enum8("pawnBody", pawn_body, kPawnBodyDef);
    w.enum8("movementAuthority", movement, kMovementAuthorityDef);
  }
};

struct RoomPolicy {
  RoomIdentity identity;
  CadencePolicy cadence;
  InterpolationPolicy interpolation;
  InputPolicy input;
  ByteBudgets budgets;
  InteractionLimits limits;
  InterestPolicy interest;
  PredictionPolicy prediction;
  GameVocabulary vocabulary;
  LoadPolicy load;  // the load ladders: when each rung engages and releases, what a room's rungs shed by
  ModePolicy mode;  // the runtime mode and, in deterministic mode, its window, delay, seats and lag policy

  // Not on the wire: the table the revision key and validate_room_policy walk.
  template <class W>
  void fields(W& w) {
    w.shape("identity", identity);
    w.shape("cadence", cadence);
    w.shape("interpolation", interpolation);
    w.shape("input", input);
    w.shape("budgets", budgets);
    w.shape("limits", limits);
    w.shape("interest", interest);
    w.shape("prediction", prediction);
    w.shape("vocabulary", vocabulary);
    w.shape("load", load);
    w.shape("mode", mode);
  }
};

}  // namespace tickwire
