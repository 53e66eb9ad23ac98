// Prediction, replay and the visual offsets. The one rule that shapes this file: every correction a
// reconcile produces goes into the offset (including one after the server adopted our claim: a
// starved tick in between still moved the server's pawn), and the offsets are zeroed only on a
// discontinuity the server announced (placement epoch) or one we caused (ring overflow).
#include "tickwire/client/predictor.h"

#include <algorithm>
#include <cmath>

#include "tickwire/core/assert.h"
#include "tickwire/protocol/vec3_math.h"

namespace tickwire {

namespace {

// The offsets fall to e^-kEaseExponent of themselves in ease_time_s (e^-3 is 5%).
constexpr double kEaseExponent = 3.0;

protocol::Vec3 lerp(const protocol::Vec3& a, const protocol::Vec3& b, float t) { return a + (b - a) * t; }

}  // namespace

Predictor::Predictor(const PredictionModel& model, double tick_s, const PredictorConfig& config)
    : model_(model), tick_s_(tick_s), config_(config) {
  TW_ASSERT(std::isfinite(tick_s) && tick_s > 0, "the tick length must be positive");
  TW_ASSERT(std::isfinite(config.ease_time_s) && config.ease_time_s > 0, "the ease time must be positive");
  TW_ASSERT(std::isfinite(config.residue_m) && config.residue_m >= 0, "the residue must be non-negative");
}

void Predictor::reset() {
  has_inputs_ = false;
  oldest_ = next_ = 0;
  overflow_pending_ = false;
  last_acked_.reset();
  started_ = false;
  current_ = previous_ = PredictedState{};
  offset_m_ = {};
  eye_offset_m_ = 0;
  stats_ = PredictorStats{};
}

PredictedState Predictor::step(const PredictedState& from, const protocol::InputCmd& cmd) const {
  PredictedState next = model_.step(from, cmd, tick_s_);
  // Server-owned: noclip, frozen and the placement come from the state stepped from, which a
  // replay takes from the acked state, so the client never toggles them on its own clock.
  next.flags = protocol::merge_claimed_flags(from.flags, next.flags);
  next.placement_epoch = from.placement_epoch;
  return next;
}

void Predictor::predict(uint32_t sequence, const protocol::InputCmd& cmd) {
  if (!has_inputs_) {
    oldest_ = next_ = sequence;
    has_inputs_ = true;
  }
  TW_ASSERT(sequence == next_, "predicted inputs must have consecutive sequences");
  TW_ASSERT(next_ != UINT32_MAX, "input sequences end at the top of the u32 space");
  if (pending_count() == kPredictorPendingCap) {
    ++oldest_;
    ++stats_.overflowed;
    overflow_pending_ = true;
  }
  const protocol::InputCmd sent = as_sent(cmd);
  ring_[sequence % kPredictorPendingCap] = sent;
  ++next_;
  if (!started_) return;  // kept for the first replay
  previous_ = current_;
  current_ = step(current_, sent);
  ++stats_.predicted;
}

std::optional<SnapReason> Predictor::snap_reason(const protocol::OwnerDetail& owner) const {
  if (owner.pawn.placement_epoch != current_.placement_epoch) return SnapReason::placement_epoch;
  if (overflow_pending_) return SnapReason::ring_overflow;
  return std::nullopt;
}

ReconcileOutcome Predictor::reconcile(const protocol::OwnerDetail& owner) {
  ReconcileOutcome out;
  if (owner.ack && (!has_inputs_ || owner.ack->sequence >= next_)) {
    stats_.skips.add(ReconcileSkip::ack_ahead);
    return out;
  }
  const std::optional<uint32_t> ack = owner.ack ? std::optional<uint32_t>(owner.ack->sequence) : std::nullopt;
  if (last_acked_ && (!ack || *ack < *last_acked_)) {
    stats_.skips.add(ReconcileSkip::stale_ack);
    return out;
  }
  last_acked_ = ack;
  const std::optional<SnapReason> snap_for = started_ ? snap_reason(owner) : std::nullopt;
  const PredictedState before = current_;
  const PredictedState previous_before = previous_;

  // Adopt the server's pawn at the acked input, then replay every input after it.
  if (ack) oldest_ = std::max(oldest_, *ack + 1);
  if (ack && *ack + 1 >= oldest_) overflow_pending_ = false;  // the replay is complete again
  PredictedState state = predicted_from_detail(owner.pawn);
  PredictedState replay_previous = state;
  for (uint32_t sequence = oldest_; sequence != next_; ++sequence) {
    replay_previous = state;
    state = step(state, ring_[sequence % kPredictorPendingCap]);
    ++out.replayed;
  }
  stats_.replayed += out.replayed;
  ++stats_.reconciles;
  out.applied = true;
  current_ = state;

  if (!started_) {  // the first state: nothing was drawn yet, so there is nothing to keep continuous
    started_ = true;
    previous_ = replay_previous;
    return out;
  }
  out.correction_m = protocol::length(current_.position - before.position);
  out.eye_correction_m = current_.eye_height_m - before.eye_height_m;
  if (snap_for) {
    snap(*snap_for, out);
    previous_ = replay_previous;
    return out;
  }
  absorb(before, out);
  // The frame lerp's start moves with the prediction, so the drawn pose stays where it was.
  previous_ = current_;
  previous_.position = previous_before.position + (current_.position - before.position);
  previous_.eye_height_m = previous_before.eye_height_m + (current_.eye_height_m - before.eye_height_m);
  return out;
}

void Predictor::absorb(const PredictedState& before, ReconcileOutcome& out) {
  if (out.correction_m >= config_.residue_m) {
    offset_m_ = offset_m_ + (before.position - current_.position);
    ++stats_.corrections;
    stats_.correction_m.add(out.correction_m);
  } else if (out.correction_m > 0) {
    ++stats_.residues_dropped;
  }
  if (std::fabs(out.eye_correction_m) >= config_.residue_m) {
    eye_offset_m_ -= out.eye_correction_m;
    ++stats_.eye_corrections;
  } else if (out.eye_correction_m != 0) {
    ++stats_.residues_dropped;
  }
}

void Predictor::snap(SnapReason reason, ReconcileOutcome& out) {
  offset_m_ = {};
  eye_offset_m_ = 0;
  stats_.snaps.add(reason);
  out.snapped = reason;
}

void Predictor::decay(Duration elapsed) {
  if (elapsed <= Duration{}) return;
  const auto keep = static_cast<float>(std::exp(-kEaseExponent * elapsed.seconds_f() / config_.ease_time_s));
  offset_m_ = offset_m_ * keep;
  eye_offset_m_ *= keep;
  if (protocol::length(offset_m_) < config_.residue_m) offset_m_ = {};
  if (std::fabs(eye_offset_m_) < config_.residue_m) eye_offset_m_ = 0;
}

std::optional<protocol::Claim> Predictor::claim(double forgiveness) const {
  if (!(forgiveness < 1.0) || !started_ || pending_count() == 0) return std::nullopt;
  return claim_from_predicted(current_);
}

protocol::Vec3 Predictor::drawn_position(double alpha) const {
  const auto t = static_cast<float>(std::clamp(alpha, 0.0, 1.0));
  return lerp(previous_.position, current_.position, t) + offset_m_;
}

float Predictor::drawn_eye_height_m(double alpha) const {
  const auto t = static_cast<float>(std::clamp(alpha, 0.0, 1.0));
  return previous_.eye_height_m + (current_.eye_height_m - previous_.eye_height_m) * t + eye_offset_m_;
}

}  // namespace tickwire
