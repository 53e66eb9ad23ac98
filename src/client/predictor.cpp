// Prediction, replay and the visual offsets. The one rule that shapes this file: every correction a
// reconcile produces goes into the offset (including one after the server adopted our claim: a
// starved tick in between still moved the server's pawn), and the offsets are zeroed only on a
// discontinuity the server announced (placement epoch) or one we caused (ring overflow). Each
// correction eases out on its own fixed-length curve, so overlapping ones of opposite sign (a
// starved tick, then the adopted claim that undoes it) cancel instead of kicking the camera.
#include "tickwire/client/predictor.h"

#include <algorithm>
#include <cmath>

#include "tickwire/core/assert.h"
#include "tickwire/protocol/vocabulary.h"
#include "tickwire/protocol/vec3_math.h"

namespace tickwire {

namespace {

protocol::Vec3 lerp(const protocol::Vec3& a, const protocol::Vec3& b, float t) { return a + (b - a) * t; }

}  // namespace

Predictor::Predictor(const PredictionModel& model, double tick_s, uint8_t claimable_flags, const PredictorConfig& config)
    : model_(model), tick_s_(tick_s), claimable_flags_(claimable_flags), config_(config) {
  TW_ASSERT(std::isfinite(tick_s) && tick_s > 0, "the tick length must be positive");
  TW_ASSERT(std::isfinite(config.ease_time_s) && config.ease_time_s > 0, "the ease time must be positive");
  TW_ASSERT(std::isfinite(config.residue_m) && config.residue_m >= 0, "the residue must be non-negative");
}

void Predictor::reset() {
  has_inputs_ = false;
  oldest_ = next_ = 0;
  overflow_pending_ = false;
  last_acked_.reset();
  forgiveness_ = 1.0;
  time_scale_ = 1.0f;
  world_ = nullptr;
  world_previous_ = nullptr;
  world_revision_ = 0;
  world_moved_ = false;
  started_ = false;
  current_ = previous_ = PredictedState{};
  ease_count_ = 0;
  stats_ = PredictorStats{};
}

void Predictor::set_time_scale(float time_scale) {
  TW_ASSERT(std::isfinite(time_scale) && time_scale >= 0.0f && time_scale <= protocol::kMaxWorldTimeScale,
            "a time scale within the world settings' range");
  time_scale_ = time_scale;
}

// Input `sequence` runs `sequence - acked` ticks after the snapshot that acked `acked` (one input a
// tick, in order), the tick its context names.
PredictionContext Predictor::context_of(uint32_t sequence) const {
  PredictionContext context;
  context.snapshot = world_;
  context.previous = world_previous_;
  context.ticks_ahead = last_acked_ && sequence > *last_acked_ ? sequence - *last_acked_ : 1;
  return context;
}

void Predictor::set_world(const protocol::Snapshot* snapshot, const protocol::Snapshot* previous) {
  const uint64_t revision = snapshot != nullptr ? model_.world_revision(*snapshot, previous) : 0;
  world_moved_ = revision != world_revision_;
  world_revision_ = revision;
  world_ = snapshot;
  world_previous_ = snapshot != nullptr ? previous : nullptr;
}

PredictionContext Predictor::context() const { return context_of(has_inputs_ ? next_ - 1 : 0); }

PredictedState Predictor::step(const PredictedState& from, const protocol::InputCmd& cmd, uint32_t sequence) const {
  PredictedState next = model_.step_in(from, cmd, protocol::world_seconds_per_tick(tick_s_, time_scale_), context_of(sequence));
  // Server-owned: every flag bit a claim may not set, and the placement, come from the state stepped
  // from, which a replay takes from the acked state, so the client never toggles them on its own clock.
  next.flags = merge_claimed_flags(from.flags, next.flags, claimable_flags_);
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
  PendingInput& kept = ring_[sequence % kPredictorPendingCap];
  kept = PendingInput{as_sent(cmd), {}, false};
  ++next_;
  if (!started_) return;  // kept for the first replay
  previous_ = current_;
  current_ = step(current_, kept.cmd, sequence);
  kept.predicted = current_;
  kept.predicted_valid = true;
  ++stats_.predicted;
}

std::optional<SnapReason> Predictor::snap_reason(const protocol::OwnerDetail& owner) const {
  if (owner.pawn.placement_epoch != current_.placement_epoch) return SnapReason::placement_epoch;
  if (overflow_pending_) return SnapReason::ring_overflow;
  return std::nullopt;
}

std::optional<ReconcileSkip> Predictor::skip_reason(const protocol::OwnerDetail& owner,
                                                    std::optional<uint32_t> ack) const {
  if (ack && (!has_inputs_ || *ack >= next_)) return ReconcileSkip::ack_ahead;
  if (last_acked_ && (!ack || *ack < *last_acked_)) return ReconcileSkip::stale_ack;
  const auto server_owned = [this](uint8_t flags) { return flags & ~claimable_flags_; };
  if (config_.hold_on_starved_ticks && forgiveness_ < 1.0 && started_ && owner.queue_depth < 0 &&
      ack == last_acked_ && owner.pawn.placement_epoch == current_.placement_epoch &&
      server_owned(owner.pawn.flags) == server_owned(current_.flags) && !overflow_pending_) {
    return ReconcileSkip::starved_tick;
  }
  return std::nullopt;
}

bool Predictor::confirms(const protocol::OwnerDetail& owner, std::optional<uint32_t> ack) const {
  if (!config_.keep_confirmed_prediction || !started_ || !ack || *ack < oldest_ || overflow_pending_ || world_moved_) {
    return false;
  }
  const PendingInput& kept = ring_[*ack % kPredictorPendingCap];
  return kept.predicted_valid && kept.predicted == predicted_from_detail(owner.pawn);
}

ReconcileOutcome Predictor::reconcile(const protocol::OwnerDetail& owner) {
  ReconcileOutcome out;
  const std::optional<uint32_t> ack = owner.ack ? std::optional<uint32_t>(owner.ack->sequence) : std::nullopt;
  if (const auto skip = skip_reason(owner, ack)) {
    stats_.skips.add(*skip);
    return out;
  }
  last_acked_ = ack;
  ++stats_.reconciles;
  out.applied = true;
  if (confirms(owner, ack)) {
    oldest_ = *ack + 1;
    out.confirmed = true;
    ++stats_.confirmed;
    return out;
  }
  const std::optional<SnapReason> snap_for = started_ ? snap_reason(owner) : std::nullopt;
  const PredictedState before = current_;
  const PredictedState previous_before = previous_;
  const PredictedState replay_previous = replay(owner, ack, out);
  if (!started_) {  // the first state: nothing was drawn yet, so there is nothing to keep continuous
    started_ = true;
    previous_ = replay_previous;
    return out;
  }
  out.correction_m = protocol::length(current_.position - before.position);
  for (std::size_t i = 0; i < protocol::MaxPawnValues; ++i) {
    out.value_correction = std::max(out.value_correction, std::fabs(current_.value(i) - before.value(i)));
  }
  if (snap_for) {
    snap(*snap_for, out);
    previous_ = replay_previous;
    return out;
  }
  absorb(before, out);
  keep_drawn_pose(before, previous_before);
  return out;
}

PredictedState Predictor::replay(const protocol::OwnerDetail& owner, std::optional<uint32_t> ack,
                                 ReconcileOutcome& out) {
  if (ack) oldest_ = std::max(oldest_, *ack + 1);
  if (ack && *ack + 1 >= oldest_) overflow_pending_ = false;  // the replay is complete again
  PredictedState state = predicted_from_detail(owner.pawn);
  PredictedState replay_previous = state;
  for (uint32_t sequence = oldest_; sequence != next_; ++sequence) {
    replay_previous = state;
    state = step(state, ring_[sequence % kPredictorPendingCap].cmd, sequence);
    ++out.replayed;
  }
  stats_.replayed += out.replayed;
  current_ = state;
  return replay_previous;
}

void Predictor::keep_drawn_pose(const PredictedState& before, const PredictedState& previous_before) {
  // The frame lerp's start moves with the prediction, so lerp + offset stays where it was drawn.
  previous_ = current_;
  previous_.position = previous_before.position + (current_.position - before.position);
  for (std::size_t i = 0; i < previous_.values.size(); ++i) {
    previous_.values[i].value = previous_before.value(i) + (current_.value(i) - before.value(i));
  }
}

void Predictor::absorb(const PredictedState& before, ReconcileOutcome& out) {
  protocol::Vec3 feet_m;
  PawnValueOffsets values{};
  if (out.correction_m >= config_.residue_m) {
    feet_m = before.position - current_.position;
    ++stats_.corrections;
    stats_.correction_m.add(out.correction_m);
  } else if (out.correction_m > 0) {
    ++stats_.residues_dropped;
  }
  if (out.value_correction >= config_.residue_m) {
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = before.value(i) - current_.value(i);
    ++stats_.value_corrections;
  } else if (out.value_correction != 0) {
    ++stats_.residues_dropped;
  }
  if (feet_m != protocol::Vec3{} || values != PawnValueOffsets{}) start_ease(feet_m, values);
}

void Predictor::start_ease(const protocol::Vec3& feet_m, const PawnValueOffsets& values) {
  if (ease_count_ == kPredictorMaxEases) {
    // Fold the two oldest into one that starts now with what is left of both: the offset is
    // unchanged at this instant; only those two finish a little later than they would have.
    const auto left0 = static_cast<float>(ease_left(0));
    const auto left1 = static_cast<float>(ease_left(1));
    PawnValueOffsets folded{};
    for (std::size_t i = 0; i < folded.size(); ++i) folded[i] = eases_[0].values[i] * left0 + eases_[1].values[i] * left1;
    eases_[1] = Ease{eases_[0].feet_m * left0 + eases_[1].feet_m * left1, folded, 0.0};
    std::copy(eases_.begin() + 1, eases_.begin() + static_cast<std::ptrdiff_t>(ease_count_), eases_.begin());
    --ease_count_;
  }
  eases_[ease_count_++] = Ease{feet_m, values, 0.0};
}

double Predictor::ease_left(std::size_t i) const {
  const double remaining = 1.0 - eases_[i].age_s / config_.ease_time_s;
  return remaining > 0 ? remaining * remaining : 0.0;
}

void Predictor::snap(SnapReason reason, ReconcileOutcome& out) {
  ease_count_ = 0;
  stats_.snaps.add(reason);
  out.snapped = reason;
}

void Predictor::decay(Duration elapsed) {
  if (elapsed <= Duration{}) return;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < ease_count_; ++i) {
    eases_[i].age_s += elapsed.seconds_f();
    if (eases_[i].age_s < config_.ease_time_s) eases_[kept++] = eases_[i];
  }
  ease_count_ = kept;
}

protocol::Vec3 Predictor::offset_m() const {
  protocol::Vec3 sum;
  for (std::size_t i = 0; i < ease_count_; ++i) sum = sum + eases_[i].feet_m * static_cast<float>(ease_left(i));
  return sum;
}

float Predictor::value_offset(std::size_t index) const {
  TW_ASSERT(index < protocol::MaxPawnValues, "a pawn value index past the cap");
  float sum = 0;
  for (std::size_t i = 0; i < ease_count_; ++i) sum += eases_[i].values[index] * static_cast<float>(ease_left(i));
  return sum;
}

std::optional<protocol::Claim> Predictor::claim() const {
  if (!(forgiveness_ < 1.0) || !started_ || pending_count() == 0) return std::nullopt;
  return claim_from_predicted(current_, claimable_flags_);
}

protocol::Vec3 Predictor::drawn_position(double alpha) const {
  const auto t = static_cast<float>(std::clamp(alpha, 0.0, 1.0));
  return lerp(previous_.position, current_.position, t) + offset_m();
}

float Predictor::drawn_value(std::size_t index, double alpha) const {
  const auto t = static_cast<float>(std::clamp(alpha, 0.0, 1.0));
  return previous_.value(index) + (current_.value(index) - previous_.value(index)) * t + value_offset(index);
}

}  // namespace tickwire
