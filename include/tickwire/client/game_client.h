// GameClient: one player's whole client over a session, as a game (or a headless bot) runs it once
// per frame. It takes snapshots from the SessionClient, feeds their queue-depth bytes to the
// ClockRegulator and their entity records to the RemoteInterpolator, runs the client ticks the
// regulated TickAccumulator yields (one input per tick from the game's input source, none while
// the regulator holds), predicts its own pawn through the game's PredictionModel (reconciled on
// every owner detail, corrections eased) when the contract admits it, and draws remote entities on
// the server-tick timeline (and the own pawn too, when the contract does not admit its prediction).
// Map objects' records go to ObjectReplicas, sampled on the same timeline (channels lerp, bits snap).
// In a server-time room (seed 002) the client ticks run its own logic rate (the config's logic_hz),
// unregulated: the room merges whatever arrived each tick, so there is no queue to keep fed. Its
// inputs go up stamped with the server time a ServerTimeEstimate reads off the snapshots, and the
// own pawn is predicted at the client's rate, the snapshots' state its correction.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "tickwire/client/clock_regulator.h"
#include "tickwire/client/input_source.h"
#include "tickwire/client/object_replicas.h"
#include "tickwire/client/predictor.h"
#include "tickwire/client/remote_interpolator.h"
#include "tickwire/client/server_time_estimate.h"
#include "tickwire/client/session_client.h"
#include "tickwire/client/session_quality.h"
#include "tickwire/client/tick_accumulator.h"

namespace tickwire {

struct GameClientCounters {
  uint64_t frames = 0;
  uint64_t client_ticks = 0;
  uint64_t inputs_sent = 0;
  uint64_t held_ticks = 0;  // client ticks skipped while the regulator held
  uint64_t predicted_ticks = 0;  // client ticks the predictor stepped the own pawn (0: never predicted)
  uint64_t snapshots = 0;
  uint64_t snapshot_bytes = 0;
  uint32_t max_snapshot_bytes = 0;
  // ClaimAccepted telemetry: what the server did with the claims on our inputs (per snapshot).
  uint64_t claims_accepted = 0;
  uint64_t claims_corrected = 0;
};

class GameClient {
 public:
  // `model` (the game's, outliving the client) predicts the own pawn when the room's contract admits
  // it (PredictionAdmission::own_pawn_predicted); null: no prediction.
  GameClient(ReliableClient& transport, SchemaCache& cache, MonoTime now, const PredictionModel* model = nullptr,
             const SessionClientConfig& config = {});

  // One frame at `now`: receive, regulate, run the due client ticks (inputs from `input`), draw.
  void frame(MonoTime now, const InputSource& input);

  SessionClient& session() { return session_; }
  const SessionClient& session() const { return session_; }
  // Present once the welcome arrived (they are built from the contract).
  const ClockRegulator* regulator() const { return regulator_ ? &*regulator_ : nullptr; }
  const RemoteInterpolator* interpolator() const { return interpolator_ ? &*interpolator_ : nullptr; }
  const Predictor* predictor() const { return predictor_ ? &*predictor_ : nullptr; }
  // How far the drawn own pawn is from its previous predicted tick to its newest, in [0, 1] (the
  // alpha own_position draws at), and the context its newest state was predicted in: what a game
  // needs to draw a rider with its platform (world/'s rider_shift).
  double frame_alpha() const;
  PredictionContext prediction_context() const;
  const GameClientCounters& counters() const { return counters_; }
  // The session's quality figures so far (present once welcomed).
  std::optional<QualityReport> quality_report() const;
  // Whether the room's contract admits predicting the own pawn (false before the welcome).
  bool own_pawn_predicted() const { return own_pawn_predicted_; }
  // Whether the room runs server-time mode, the client's logic rate (the room's tick rate in the
  // other modes; 0 before the welcome), and its reading of the server's clock there.
  bool server_time() const { return server_time_; }
  double logic_hz() const { return logic_hz_; }
  const ServerTimeEstimate& server_clock() const { return server_clock_; }
  // Where the camera is. Predicted: the predicted own pawn, lerped by the tick accumulator's
  // fraction, plus the easing offsets (feet, and each of the game's pawn values); zero until
  // prediction started. Not admitted: the own pawn as the snapshots place it, interpolated at its
  // kind's profile like a remote entity, and the newest owner detail's pawn values.
  protocol::Vec3 drawn_position() const;
  float drawn_value(std::size_t index) const;
  // The own pawn as interpolated from snapshots (absent while the contract admits its prediction).
  InterpSample own_pawn_sample() const;
  // Every map object the snapshots named, and one of them as drawn at this frame's render time
  // (nullopt: absent then, or before the first snapshot).
  const ObjectReplicas& objects() const { return objects_; }
  std::optional<ObjectSample> object(uint32_t object_index) const;
  // The newest snapshot the game took, records and all (null before the first of this session).
  const protocol::Snapshot* newest_snapshot() const { return newest_snapshot_; }
  // Each received snapshot's encoded size, in arrival order since the last call (for reports).
  std::vector<uint32_t> take_snapshot_sizes();
  // The newest owner detail's pawn position and tick (the server's answer the predictor reconciles
  // against), and the correction the last applied reconcile made (0: confirmed, or none yet).
  std::optional<protocol::Vec3> server_pawn_position() const { return server_pawn_; }
  uint32_t server_pawn_tick() const { return server_pawn_tick_; }
  float last_correction_m() const { return last_correction_m_; }

 private:
  void on_welcome(MonoTime now);
  void take_snapshots(MonoTime now);
  void take_owner_detail(Tick tick, const protocol::OwnerDetail& owner, MonoTime now);
  void take_world_settings(const protocol::WorldSettings& settings);
  void reconcile_last_snapshot();
  void mark_carried(Tick tick);
  InterpProfile own_kind_profile(uint8_t kind) const;
  void run_client_tick(MonoTime now, const InputSource& input, uint32_t ticks_after);

  ReliableClient& transport_;
  SessionClient session_;
  uint32_t requested_logic_hz_;  // the config's (0: the room's tick rate)
  std::optional<ClockRegulator> regulator_;
  std::optional<TickAccumulator> accumulator_;
  std::optional<RemoteInterpolator> interpolator_;
  const PredictionModel* model_;
  std::optional<Predictor> predictor_;
  std::optional<SessionQuality> quality_;
  std::optional<uint64_t> welcomed_pawn_;
  bool own_pawn_predicted_ = false;
  bool server_time_ = false;
  double logic_hz_ = 0;
  uint32_t logic_step_us_ = 0;
  ServerTimeEstimate server_clock_;
  InterpProfile own_profile_ = InterpProfile::standard;  // the own pawn's kind's, once a snapshot named it
  protocol::PawnValues server_values_;                   // the newest owner detail's
  std::optional<protocol::Vec3> server_pawn_;            // its pawn's position, and its tick
  uint32_t server_pawn_tick_ = 0;
  float last_correction_m_ = 0;
  MonoTime last_frame_;
  bool started_ = false;
  protocol::Snapshot snapshot_;
  std::array<protocol::Snapshot, 2> reconciled_;  // the world the predictor steps against, and a spare
  std::size_t reconciled_current_ = 0;
  const protocol::Snapshot* newest_snapshot_ = nullptr;  // snapshot_ or one of reconciled_
  bool reconciled_world_ = false;
  std::vector<EntitySample> samples_;
  std::vector<EntitySample> previous_samples_;  // the previous snapshot's, by entity
  ObjectReplicas objects_;
  std::vector<uint32_t> snapshot_sizes_;
  GameClientCounters counters_;
};

}  // namespace tickwire
