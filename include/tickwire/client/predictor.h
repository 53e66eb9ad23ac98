// Predictor: the client's own pawn ahead of the server. Each client tick steps the predicted pawn
// through the game's PredictionModel and keeps the input; each snapshot adopts the server's pawn at
// the acked input and replays the rest (unless it confirms what we predicted). The camera never sees
// a correction raw: every one goes into an easing visual offset (feet and the game's pawn values,
// such as an eye height, alike), and the
// offsets snap only on a discontinuity that announces itself (a new placement epoch, an overflowed
// input ring), never on correction size.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "tickwire/core/reasons.h"
#include "tickwire/client/input_sender.h"
#include "tickwire/client/magnitude_histogram.h"
#include "tickwire/client/prediction_model.h"
#include "tickwire/clock/time.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/snapshot.h"

namespace tickwire {

// One offset per pawn value (GameVocabulary::pawn_values), eased like the feet.
using PawnValueOffsets = std::array<float, protocol::MaxPawnValues>;

// Inputs the predictor can replay: the same ~2 s as the sender's ring (overflowing it snaps).
inline constexpr std::size_t kPredictorPendingCap = kInputSenderPendingCap;
// Corrections easing out at once. One per snapshot at most, and an ease lasts ~100 ms: 6 at 60 Hz.
// A correction arriving with all of them busy folds the two oldest into one (see start_ease()).
inline constexpr std::size_t kPredictorMaxEases = 16;

struct PredictorConfig {
  // Each correction eases out over exactly this long: what is left of it after t seconds is
  // (1 - t / ease_time_s)^2 (quadratic ease-out: fastest at first, never faster than 2/ease_time_s
  // of the correction per second, zero at the end). The offsets are the sum of the live eases.
  double ease_time_s = 0.1;
  // Corrections below this are dropped rather than eased: the residue of one that should be zero.
  float residue_m = 0.001f;
  // While claiming (forgiveness below 1), a snapshot of a starved tick that acks nothing new is not
  // reconciled against: its pawn is the acked state plus the repeated input's motion, which the
  // next adopted claim undoes. Adopting it would put that motion into our next claims, the server
  // would adopt it back, and the echo would circulate every round trip for as long as the session
  // lasts (each starved tick adding one). A placement, a server-owned flag change or an overflow is
  // never held back; if the claim is refused, the next fresh snapshot brings the motion anyway.
  bool hold_on_starved_ticks = true;
  // When the server's pawn at a newly acked input is bit for bit what we predicted (and claimed)
  // for that input when we sent it, our prediction stands and nothing is replayed. A replay would
  // land on the same state unless a correction moved our prediction since; under forgiveness the
  // server is about to adopt that correction from our newer claims, and replaying from the older
  // state would undo it, only for it to come back a round trip later, forever. A world that moved
  // meanwhile (PredictionModel::world_revision: props the wire states no trajectory for) is replayed
  // against all the same: the kept states were stepped against the old one.
  bool keep_confirmed_prediction = true;
};

// Why the offsets were zeroed instead of absorbing a correction.
TW_REASONS(SnapReason,
  placement_epoch,  // the server placed the pawn (teleport, respawn): a real discontinuity
  ring_overflow    // inputs were forgotten before the server acked them: the replay is incomplete
)

// Why a snapshot's owner detail was not reconciled against (nothing changed).
TW_REASONS(ReconcileSkip,
  ack_ahead,     // acks an input this client never predicted
  stale_ack,     // acks less than an earlier reconcile did
  starved_tick  // while claiming: a starved tick's motion the next adopted claim undoes (a hold, not a fault)
)

struct ReconcileOutcome {
  bool applied = false;
  bool confirmed = false;      // the server's pawn was our own prediction for that input: kept as is
  std::optional<SnapReason> snapped;
  float correction_m = 0;      // how far the prediction moved (absorbed, dropped or snapped)
  float value_correction = 0;  // the largest change of a pawn value (absolute)
  uint32_t replayed = 0;       // inputs stepped again after the acked one
};

struct PredictorStats {
  uint64_t predicted = 0;        // client ticks stepped
  uint64_t reconciles = 0;
  uint64_t confirmed = 0;        // reconciles that confirmed our prediction (no replay)
  uint64_t replayed = 0;         // inputs stepped again in replays
  uint64_t corrections = 0;      // reconciles whose feet correction went into the offset
  uint64_t value_corrections = 0;  // reconciles whose pawn-value correction went into the offsets
  uint64_t residues_dropped = 0; // non-zero corrections under residue_m, dropped
  uint64_t overflowed = 0;       // inputs forgotten by a full ring
  MagnitudeHistogram correction_m;  // sizes of the absorbed feet corrections
  ReasonCounters<SnapReason> snaps;
  ReasonCounters<ReconcileSkip> skips;
};

// Once welcomed, and with each accepted snapshot: predictor.set_forgiveness(world.forgiveness) and
// predictor.set_time_scale(world.time_scale) from session.world_settings().
// One client tick, in order:
//   const uint32_t sequence = session.inputs().next_sequence();
//   predictor.predict(sequence, cmd);
//   session.send_input(cmd, predictor.claim());
// each accepted snapshot (in tick order): predictor.reconcile(*snapshot.owner);
// each rendered frame: predictor.decay(frame_dt), then draw drawn_position(alpha).
class Predictor {
 public:
  // `model` must outlive the predictor; tick_s is the contract's seconds per tick (the server's dt);
  // `claimable_flags` are the entity flag bits a client may set (the vocabulary's claimable ones):
  // every other bit is the server's, and the prediction keeps it from the state it stepped from.
  Predictor(const PredictionModel& model, double tick_s, uint8_t claimable_flags, const PredictorConfig& config = {});

  // Forgets everything (leaving a session): no state, no inputs, no offsets.
  void reset();
  // The replicated forgiveness (the contract's; 1.0, the authoritative default, until known).
  void set_forgiveness(double forgiveness) { forgiveness_ = forgiveness; }
  double forgiveness() const { return forgiveness_; }
  // The replicated world time scale (1 until known): each step takes tick length x scale, as the
  // server's does (protocol::world_seconds_per_tick). A replay after a change steps at the new one.
  void set_time_scale(float time_scale);
  float time_scale() const { return time_scale_; }
  // The snapshot whose owner detail the next reconcile takes (the caller keeps it alive until the
  // next call): what each step's PredictionContext names, with the ticks after it the step runs at.
  // A world of another revision (PredictionModel::world_revision) than the one the un-acked inputs
  // were stepped in is replayed against even when the server confirms the acked state.
  // `previous` is the snapshot reconciled before it, kept alive as long (null: none).
  void set_world(const protocol::Snapshot* snapshot, const protocol::Snapshot* previous = nullptr);

  // The client's next tick: keeps `cmd` under `sequence` and steps the prediction (once the first
  // owner detail gave it a state). Sequences are consecutive. The command is stepped as the server
  // reads it: through its wire form (quantized axes and angles).
  void predict(uint32_t sequence, const protocol::InputCmd& cmd);

  // A snapshot's owner detail: adopt the server's pawn at the acked input, replay every input after
  // it, and absorb the difference into the offsets (or snap them, and say why). Kept as is when it
  // confirms our prediction for that input; held back when it is a starved tick while claiming
  // (see PredictorConfig); skipped when its ack is impossible or older than one already taken.
  ReconcileOutcome reconcile(const protocol::OwnerDetail& owner);

  // Render time passes: the offsets ease out.
  void decay(Duration elapsed);
  std::size_t easing_count() const { return ease_count_; }

  // The claim for the newest input, while the replicated forgiveness is below 1: the predicted
  // pawn after that input, server-owned flags stripped. Nothing before a state or at 1.0.
  std::optional<protocol::Claim> claim() const;

  bool started() const { return started_; }
  // The pawn after the newest input, and after the one before it (what a frame lerps between).
  const PredictedState& predicted() const { return current_; }
  // The context the newest predicted state was stepped in: the snapshot and the ticks after it.
  PredictionContext context() const;
  const PredictedState& previous() const { return previous_; }
  protocol::Vec3 offset_m() const;
  float value_offset(std::size_t index) const;
  // lerp(previous, predicted, alpha) + offset: where the camera's feet are, and each pawn value.
  protocol::Vec3 drawn_position(double alpha = 1.0) const;
  float drawn_value(std::size_t index, double alpha = 1.0) const;

  std::size_t pending_count() const { return next_ - oldest_; }
  std::optional<uint32_t> last_acked() const { return last_acked_; }
  const PredictorStats& stats() const { return stats_; }
  const PredictorConfig& config() const { return config_; }

 private:
  PredictionContext context_of(uint32_t sequence) const;
  PredictedState step(const PredictedState& from, const protocol::InputCmd& cmd, uint32_t sequence) const;
  void absorb(const PredictedState& before, ReconcileOutcome& out);
  void snap(SnapReason reason, ReconcileOutcome& out);
  std::optional<ReconcileSkip> skip_reason(const protocol::OwnerDetail& owner, std::optional<uint32_t> ack) const;
  bool confirms(const protocol::OwnerDetail& owner, std::optional<uint32_t> ack) const;
  std::optional<SnapReason> snap_reason(const protocol::OwnerDetail& owner) const;
  // Adopts the server's pawn at the ack and replays the rest into current_; returns the state
  // before the newest input (the frame lerp's start after a snap).
  PredictedState replay(const protocol::OwnerDetail& owner, std::optional<uint32_t> ack, ReconcileOutcome& out);
  void keep_drawn_pose(const PredictedState& before, const PredictedState& previous_before);
  void start_ease(const protocol::Vec3& feet_m, const PawnValueOffsets& values);
  double ease_left(std::size_t i) const;

  // One correction easing out: its full size and how long it has been easing.
  struct Ease {
    protocol::Vec3 feet_m;
    PawnValueOffsets values{};
    double age_s = 0;
  };

  const PredictionModel& model_;
  double tick_s_;
  uint8_t claimable_flags_;
  double forgiveness_ = 1.0;
  float time_scale_ = 1.0f;
  const protocol::Snapshot* world_ = nullptr;
  const protocol::Snapshot* world_previous_ = nullptr;
  uint64_t world_revision_ = 0;  // the model's revision of world_
  bool world_moved_ = false;     // world_'s revision differs from the world set before it
  PredictorConfig config_;
  // A kept input: the command as sent, and our prediction after it when we sent it (never changed
  // by a replay: it is what we told the server, the thing a snapshot can confirm).
  struct PendingInput {
    protocol::InputCmd cmd;
    PredictedState predicted;
    bool predicted_valid = false;
  };
  std::array<PendingInput, kPredictorPendingCap> ring_{};
  bool has_inputs_ = false;
  uint32_t oldest_ = 0;  // oldest kept sequence
  uint32_t next_ = 0;    // the sequence predict() expects next
  bool overflow_pending_ = false;  // inputs were forgotten since the last reconcile
  std::optional<uint32_t> last_acked_;
  bool started_ = false;
  PredictedState current_;
  PredictedState previous_;
  std::array<Ease, kPredictorMaxEases> eases_{};
  std::size_t ease_count_ = 0;
  PredictorStats stats_;
};

}  // namespace tickwire
