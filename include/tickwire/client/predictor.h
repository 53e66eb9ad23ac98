// Predictor: the client's own pawn ahead of the server. Each client tick steps the predicted pawn
// through the game's PredictionModel and keeps the input; each snapshot adopts the server's pawn at
// the acked input and replays the rest. The camera never sees a correction raw: every one goes into
// a decaying visual offset (feet and eye height alike), and the offsets snap only on a discontinuity
// that announces itself (a new placement epoch, an overflowed input ring), never on correction size.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "tickwire/client/input_sender.h"
#include "tickwire/client/magnitude_histogram.h"
#include "tickwire/client/prediction_model.h"
#include "tickwire/clock/time.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/snapshot.h"

namespace tickwire {

// Inputs the predictor can replay: the same ~2 s as the sender's ring (overflowing it snaps).
inline constexpr std::size_t kPredictorPendingCap = kInputSenderPendingCap;

struct PredictorConfig {
  // The ease-out: an offset decays exponentially and falls to 5% (e^-3) of itself in this long.
  double ease_time_s = 0.1;
  // Corrections below this are dropped rather than eased (the residue of a correction that should
  // be zero), and an offset that has decayed below it is zeroed.
  float residue_m = 0.001f;
};

// Why the offsets were zeroed instead of absorbing a correction.
enum class SnapReason : uint8_t {
  placement_epoch,  // the server placed the pawn (teleport, respawn): a real discontinuity
  ring_overflow,    // inputs were forgotten before the server acked them: the replay is incomplete
  count_,
};

// Why a snapshot's owner detail was not reconciled against (nothing changed).
enum class ReconcileSkip : uint8_t {
  ack_ahead,   // acks an input this client never predicted
  stale_ack,   // acks less than an earlier reconcile did
  count_,
};

struct ReconcileOutcome {
  bool applied = false;
  std::optional<SnapReason> snapped;
  float correction_m = 0;      // how far the prediction moved (absorbed, dropped or snapped)
  float eye_correction_m = 0;  // signed: the eye height's change
  uint32_t replayed = 0;       // inputs stepped again after the acked one
};

struct PredictorStats {
  uint64_t predicted = 0;        // client ticks stepped
  uint64_t reconciles = 0;
  uint64_t replayed = 0;         // inputs stepped again in replays
  uint64_t corrections = 0;      // reconciles whose feet correction went into the offset
  uint64_t eye_corrections = 0;  // reconciles whose eye-height correction went into the offset
  uint64_t residues_dropped = 0; // non-zero corrections under residue_m, dropped
  uint64_t overflowed = 0;       // inputs forgotten by a full ring
  MagnitudeHistogram correction_m;  // sizes of the absorbed feet corrections
  ReasonCounters<SnapReason> snaps;
  ReasonCounters<ReconcileSkip> skips;
};

// One client tick, in order:
//   const uint32_t sequence = session.inputs().next_sequence();
//   predictor.predict(sequence, cmd);
//   session.send_input(cmd, predictor.claim(session.forgiveness()));
// each accepted snapshot (in tick order): predictor.reconcile(*snapshot.owner);
// each rendered frame: predictor.decay(frame_dt), then draw drawn_position(alpha).
class Predictor {
 public:
  // `model` must outlive the predictor; tick_s is the contract's seconds per tick (the server's dt).
  Predictor(const PredictionModel& model, double tick_s, const PredictorConfig& config = {});

  // Forgets everything (leaving a session): no state, no inputs, no offsets.
  void reset();

  // The client's next tick: keeps `cmd` under `sequence` and steps the prediction (once the first
  // owner detail gave it a state). Sequences are consecutive. The command is stepped as the server
  // reads it: through its wire form (quantized axes and angles).
  void predict(uint32_t sequence, const protocol::InputCmd& cmd);

  // A snapshot's owner detail: adopt the server's pawn at the acked input, replay every input after
  // it, and absorb the difference into the offsets (or snap them, and say why).
  ReconcileOutcome reconcile(const protocol::OwnerDetail& owner);

  // Render time passes: the offsets ease out.
  void decay(Duration elapsed);

  // The claim for the newest input, while the replicated forgiveness is below 1: the predicted
  // pawn after that input, server-owned flags stripped. Nothing before a state or at 1.0.
  std::optional<protocol::Claim> claim(double forgiveness) const;

  bool started() const { return started_; }
  // The pawn after the newest input, and after the one before it (what a frame lerps between).
  const PredictedState& predicted() const { return current_; }
  const PredictedState& previous() const { return previous_; }
  protocol::Vec3 offset_m() const { return offset_m_; }
  float eye_offset_m() const { return eye_offset_m_; }
  // lerp(previous, predicted, alpha) + offset: where the camera's feet and eye height are.
  protocol::Vec3 drawn_position(double alpha = 1.0) const;
  float drawn_eye_height_m(double alpha = 1.0) const;

  std::size_t pending_count() const { return next_ - oldest_; }
  std::optional<uint32_t> last_acked() const { return last_acked_; }
  const PredictorStats& stats() const { return stats_; }
  const PredictorConfig& config() const { return config_; }

 private:
  PredictedState step(const PredictedState& from, const protocol::InputCmd& cmd) const;
  void absorb(const PredictedState& before, ReconcileOutcome& out);
  void snap(SnapReason reason, ReconcileOutcome& out);
  std::optional<SnapReason> snap_reason(const protocol::OwnerDetail& owner) const;

  const PredictionModel& model_;
  double tick_s_;
  PredictorConfig config_;
  std::array<protocol::InputCmd, kPredictorPendingCap> ring_{};
  bool has_inputs_ = false;
  uint32_t oldest_ = 0;  // oldest kept sequence
  uint32_t next_ = 0;    // the sequence predict() expects next
  bool overflow_pending_ = false;  // inputs were forgotten since the last reconcile
  std::optional<uint32_t> last_acked_;
  bool started_ = false;
  PredictedState current_;
  PredictedState previous_;
  protocol::Vec3 offset_m_;
  float eye_offset_m_ = 0;
  PredictorStats stats_;
};

}  // namespace tickwire
