// One record of the SnapshotDelta body, coded against its reference (the baseline's record of the
// same id, or a default state for a record the baseline lacks) with the older frame's record, when
// given, for prediction. One walk for both directions: only the fields that differ cost more than
// a learnt decision, and every field of ReplicaState is covered, so decoding reproduces it exactly.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "delta_coding.h"
#include "delta_prediction.h"
#include "fine_residual.h"
#include "history_fit.h"
#include "tickwire/protocol/constants.h"
#include "tickwire/replication/frames/replica_kinds.h"
#include "tickwire/replication/frames/replica_state.h"
#include "tickwire/replication/frames/smallest_three.h"

namespace tickwire::delta {

// A fitted prediction carries 8 bits below the unit: the residual is coded against the nearest
// integer, in a context by how far the fraction leans (4 contexts) or the unfitted one, and
// negated when it leans up, so the likely miss by one always takes the same code. An added record,
// predicted from the record before it in the frame, has a context of its own.
inline constexpr std::size_t kPredictionContexts = 6;
inline constexpr std::size_t kUnfittedContext = 4;
inline constexpr std::size_t kAddedContext = 5;

struct FinePrediction {
  int64_t value = 0;
  std::size_t context = kUnfittedContext;
  bool negate = false;
  uint32_t lean = 0;  // |fraction| in 1/256 (0..128): the residual's centre leans this far down
};

inline FinePrediction fine_prediction(int64_t q8) {
  const int64_t value = (q8 + 128) >> 8;
  const int64_t fraction = q8 - value * 256;  // -128..127
  const int64_t lean = fraction < 0 ? -fraction : fraction;
  return {value, static_cast<std::size_t>(lean >= 96 ? 3 : lean / 32), fraction > 0, static_cast<uint32_t>(lean)};
}

// A fitted value, exact: the residual against the fitted prediction (negated when it leans up, as
// code_int32) as one symbol of the fixed table at the axis's spread and the prediction's lean, or
// the escape and then the residual whole with the context's integer model.
template <class C, class I>
void code_fitted_int32(C& c, FineScale& scale, UIntModel& escape, I& value, const FinePrediction& p) {
  constexpr int64_t kPredictionLimit = int64_t{1} << 40;
  const int64_t predicted = p.value < -kPredictionLimit ? -kPredictionLimit : (p.value > kPredictionLimit ? kPredictionLimit : p.value);
  int64_t residual = p.negate ? predicted - static_cast<int64_t>(value) : static_cast<int64_t>(value) - predicted;
  const uint32_t lean_bucket = p.lean / kLeanBucketQ8 < kLeanBuckets ? p.lean / kLeanBucketQ8 : kLeanBuckets - 1;
  unsigned symbol = residual >= -kFineReach && residual <= kFineReach ? static_cast<unsigned>(residual + kFineReach) : kFineEscape;
  c.fixed_symbol(kFineTable[scale.bucket()][lean_bucket], symbol);
  if (symbol == kFineEscape) {
    c.sint(escape, residual, 43);
  } else if constexpr (C::kDecoding) {
    residual = static_cast<int64_t>(symbol) - kFineReach;
  }
  scale.update(residual, p.lean);
  const int64_t v = p.negate ? predicted - residual : predicted + residual;
  const bool fits = v >= INT32_MIN && v <= INT32_MAX;
  c.require(fits, DeltaRefusal::value_out_of_range);
  if constexpr (C::kDecoding) value = fits ? static_cast<int32_t>(v) : 0;
}

// Which of a record's field groups differ from its reference: one symbol of a 16-symbol table,
// so groups that change together (a moving body's position and rotation) cost one decision.
enum FieldGroup : unsigned { kLookChanged = 1, kRotationChanged = 2, kPositionChanged = 4, kExtrasChanged = 8 };

struct RecordModels {
  std::array<AdaptiveCdf, 2> groups;  // the FieldGroup mask, by whether the reference has a rotation
  BitModel head_same, flags_same, shape_same, largest_predicted;
  BitModel position_fitted, rotation_fitted;
  BitModel added_like_previous;  // an added record is coded against the one before it
  BitModel scale_same;
  std::array<BitModel, 4> payload_same;
  BitModel wire_same, count_same, bits_same;
  std::array<BitModel, 4> channel_same;
  UIntModel object_index, scale, look, channel;
  // Per axis or component, by the prediction's context (FinePrediction).
  std::array<std::array<UIntModel, kPredictionContexts>, 3> position, rotation;
  // Per axis or component: the spread of fitted residuals so far.
  std::array<FineScale, 3> position_scale, rotation_scale;

  static RecordModels fresh();
};

// What a record is coded against. `base` is never null; `older` only with an active extrapolation;
// `fit`, when set, predicts instead of `older` (ex.ahead: the ticks since the baseline). An added
// record's `base` is the record before it in the frame (else a default state) and its `older` the
// one before that: neighbours in id order are often alike (one kind, a row of a grid).
struct RecordRefs {
  const ReplicaState* base = nullptr;
  const ReplicaState* older = nullptr;
  Extrapolation ex;
  const ReplicaKinds* kinds = nullptr;
  const RecordFit* fit = nullptr;
  std::size_t plain_context = kUnfittedContext;  // kAddedContext for an added record
};

// An added record's references: `previous` and `before` are the frame's records before it (null:
// none), the position carried on by their step, the rotation by their turn. bit(like_previous)
// says whether it is coded against them (the encoder asks it when `previous` has the record's form
// and kind) or against a default state, as a record unlike its neighbour is cheaper.
template <class C>
RecordRefs added_refs(C& c, BitModel& like_previous, const ReplicaState& record, const ReplicaState* previous,
                      const ReplicaState* before, const ReplicaKinds& kinds) {
  static const ReplicaState kNothing{};
  RecordRefs r{&kNothing, nullptr, Extrapolation{}, &kinds, nullptr, kAddedContext};
  if (previous == nullptr) return r;
  bool like = previous->form == record.form && previous->kind == record.kind;
  c.bit(like_previous, like);
  if (!like) return r;
  r.base = previous;
  if (before != nullptr && before->form == previous->form) {
    r.older = before;
    r.ex = Extrapolation::over(1, 1);
  }
  return r;
}

inline bool same_payload(const ReplicaPayload& a, const ReplicaPayload& b) {
  return a.wire_id == b.wire_id && a.channel_count == b.channel_count && a.bits == b.bits &&
         same_bits(a.channels, b.channels);
}

template <class C, class S>
void code_head(C& c, RecordModels& m, const ReplicaState& b, S& s) {
  bool same = s.form == b.form && s.kind == b.kind && s.object_index == b.object_index;
  c.bit(m.head_same, same);
  if (same) return;
  uint64_t form = static_cast<uint64_t>(s.form);
  c.raw(form, 2);
  c.require(form == 1 || form == 2, DeltaRefusal::bad_form);
  if constexpr (C::kDecoding) s.form = form == 2 ? ReplicaForm::object : ReplicaForm::entity;
  code_raw(c, s.kind, 8);
  uint64_t index = s.object_index;
  c.uint(m.object_index, index, 32);
  if constexpr (C::kDecoding) s.object_index = static_cast<uint32_t>(index);
}

template <class C, class S>
void code_shape(C& c, RecordModels& m, const ReplicaState& b, S& s) {
  bool same = s.has_transform == b.has_transform && s.has_rotation == b.has_rotation &&
              s.has_scale == b.has_scale && s.payload_count == b.payload_count;
  c.bit(m.shape_same, same);
  if (same) return;
  code_raw(c, s.has_transform, 1);
  code_raw(c, s.has_rotation, 1);
  code_raw(c, s.has_scale, 1);
  code_raw(c, s.payload_count, 3);
  c.require(s.payload_count <= protocol::MaxComponentSections, DeltaRefusal::too_many_sections);
}

// The encoder's estimate of a residual's code length, to choose between the fitted and the
// unfitted prediction (the choice is sent, so any estimate decodes).
inline int64_t residual_cost(int64_t value, const FinePrediction& p) {
  const int64_t residual = p.negate ? p.value - value : value - p.value;
  return 2 * static_cast<int64_t>(std::bit_width(zigzag_encode(residual))) + 1;
}

template <std::size_t N, class T>
int64_t residuals_cost(const std::array<T, N>& values, const std::array<FinePrediction, N>& p) {
  int64_t bits = 0;
  for (std::size_t i = 0; i < N; ++i) bits += residual_cost(values[i], p[i]);
  return bits;
}

// When the record has a fit, bit(fitted) says which prediction a group uses; the encoder picks
// the two-frame one only when it saves more than kFitPreferenceBits (a fit follows smooth
// motion, the two-frame one recovers sooner from a bounce; a steady choice keeps the bit cheap).
inline constexpr int64_t kFitPreferenceBits = 12;
template <class C>
bool code_fitted(C& c, BitModel& m, int64_t fitted_cost, int64_t plain_cost) {
  bool fitted = fitted_cost <= plain_cost + kFitPreferenceBits;
  c.bit(m, fitted);
  return fitted;
}

template <class C, class S>
void code_position(C& c, RecordModels& m, const RecordRefs& r, S& s) {
  const ReplicaState& b = *r.base;
  std::array<FinePrediction, 3> plain{}, fitted{};
  for (std::size_t i = 0; i < 3; ++i) {
    plain[i].value = r.older != nullptr ? r.ex.predict(b.position[i], r.older->position[i]) : b.position[i];
    plain[i].context = r.plain_context;
  }
  bool use_fit = false;
  if (r.fit != nullptr) {
    for (std::size_t i = 0; i < 3; ++i) fitted[i] = fine_prediction(fit_position_q8(*r.fit, i));
    use_fit = code_fitted(c, m.position_fitted, residuals_cost(s.position, fitted), residuals_cost(s.position, plain));
  }
  const std::array<FinePrediction, 3>& p = use_fit ? fitted : plain;
  for (std::size_t i = 0; i < 3; ++i) {
    if (use_fit) {
      code_fitted_int32(c, m.position_scale[i], m.position[i][p[i].context], s.position[i], p[i]);
    } else {
      code_int32(c, m.position[i][p[i].context], s.position[i], p[i].value, p[i].negate);
    }
  }
}

// A predicted rotation's steps for the dropped index `largest`: fine (a fit) or plain.
inline std::array<FinePrediction, 3> predicted_steps(const Quat30& q, bool fine, uint8_t largest, int32_t max_step,
                                                     std::size_t plain_context = kUnfittedContext) {
  std::array<FinePrediction, 3> steps{};
  if (fine) {
    const std::array<int64_t, 3> q8 = steps_q8_of(q, largest, max_step);
    for (std::size_t i = 0; i < 3; ++i) steps[i] = fine_prediction(q8[i]);
  } else {
    const std::array<int32_t, 3> plain = steps_of(q, largest, max_step);
    for (std::size_t i = 0; i < 3; ++i) steps[i] = FinePrediction{plain[i], plain_context, false, 0};
  }
  return steps;
}

inline int64_t rotation_cost(const ReplicaState& s, const Quat30& q, bool fine, int32_t max_step) {
  const int64_t largest_cost = largest_component(q) == s.rotation_largest ? 0 : 2;
  return largest_cost + residuals_cost(s.rotation, predicted_steps(q, fine, s.rotation_largest, max_step));
}

template <class C, class S>
void code_rotation(C& c, RecordModels& m, const RecordRefs& r, S& s) {
  const ReplicaState& b = *r.base;
  const int32_t base_step = max_step_of(b, *r.kinds);
  Quat30 predicted = b.has_rotation ? quat30_of(b.rotation_largest, b.rotation, base_step) : Quat30{0, 0, 0, kQuatOne};
  if (r.older != nullptr && b.has_rotation && r.older->has_rotation) {
    const Quat30 older = quat30_of(r.older->rotation_largest, r.older->rotation, max_step_of(*r.older, *r.kinds));
    predicted = extrapolate_rotation(predicted, older, r.ex);
  }
  bool use_fit = false;
  if (r.fit != nullptr && b.has_rotation) {
    const Quat30 fitted = fit_rotation(*r.fit, *r.kinds);
    const int32_t step = max_step_of(s, *r.kinds);
    use_fit = code_fitted(c, m.rotation_fitted, rotation_cost(s, fitted, true, step), rotation_cost(s, predicted, false, step));
    if (use_fit) predicted = fitted;
  }
  const uint8_t predicted_largest = largest_component(predicted);
  bool as_predicted = s.rotation_largest == predicted_largest;
  c.bit(m.largest_predicted, as_predicted);
  if (as_predicted) {
    if constexpr (C::kDecoding) s.rotation_largest = predicted_largest;
  } else {
    code_raw(c, s.rotation_largest, 2);
  }
  const std::array<FinePrediction, 3> steps =
      predicted_steps(predicted, use_fit, s.rotation_largest, max_step_of(s, *r.kinds), r.plain_context);
  for (std::size_t i = 0; i < 3; ++i) {
    if (use_fit) {
      code_fitted_int32(c, m.rotation_scale[i], m.rotation[i][steps[i].context], s.rotation[i], steps[i]);
    } else {
      code_int32(c, m.rotation[i][steps[i].context], s.rotation[i], steps[i].value, steps[i].negate);
    }
    c.require(s.rotation[i] >= -kMaxRotationStep && s.rotation[i] <= kMaxRotationStep, DeltaRefusal::value_out_of_range);
  }
}

template <class C, class S>
void code_look(C& c, RecordModels& m, const ReplicaState& b, S& s) {
  for (auto [value, base] : {std::pair<decltype(&s.yaw), uint16_t>{&s.yaw, b.yaw}, {&s.pitch, b.pitch}}) {
    int64_t step = static_cast<int16_t>(static_cast<uint16_t>(*value - base));
    c.sint(m.look, step, 17);
    c.require(step >= INT16_MIN && step <= INT16_MAX, DeltaRefusal::value_out_of_range);
    if constexpr (C::kDecoding) *value = static_cast<uint16_t>(base + step);
  }
}

template <class C, class P>
void code_payload(C& c, RecordModels& m, const ReplicaPayload& b, P& s) {
  if (!code_same(c, m.wire_same, s.wire_id, b.wire_id)) code_raw(c, s.wire_id, 8);
  if (!code_same(c, m.count_same, s.channel_count, b.channel_count)) {
    code_raw(c, s.channel_count, 3);
    c.require(s.channel_count <= protocol::MaxKindChannels, DeltaRefusal::too_many_channels);
  }
  if (!code_same(c, m.bits_same, s.bits, b.bits)) code_raw(c, s.bits, 8);
  for (std::size_t i = 0; i < 4; ++i) {
    bool same = same_bits(s.channels[i], b.channels[i]);
    c.bit(m.channel_same[i], same);
    if (!same) code_real(c, m.channel, s.channels[i], ordered_of(b.channels[i]));
  }
}

template <class C, class S>
void code_extras(C& c, RecordModels& m, const ReplicaState& b, S& s) {
  bool scale_same = same_bits(s.scale, b.scale);
  c.bit(m.scale_same, scale_same);
  if (!scale_same) {
    for (std::size_t i = 0; i < 3; ++i) code_real(c, m.scale, s.scale[i], ordered_of(b.scale[i]));
  }
  for (std::size_t k = 0; k < 4; ++k) {
    bool same = same_payload(s.payloads[k], b.payloads[k]);
    c.bit(m.payload_same[k], same);
    if (!same) code_payload(c, m, b.payloads[k], s.payloads[k]);
  }
}

// The groups of `s` that differ from `b` (encoding), or as the body says (decoding).
template <class C, class S>
unsigned code_groups(C& c, RecordModels& m, const ReplicaState& b, const S& s) {
  unsigned groups = 0;
  if constexpr (!C::kDecoding) {
    groups = (same_extras(s, b) ? 0u : kExtrasChanged) | (same_steps(s.position, b.position) ? 0u : kPositionChanged) |
             (s.rotation_largest == b.rotation_largest && same_steps(s.rotation, b.rotation) ? 0u : kRotationChanged) |
             (s.yaw == b.yaw && s.pitch == b.pitch ? 0u : kLookChanged);
  }
  c.symbol(m.groups[b.has_rotation ? 1 : 0], groups);
  return groups;
}

// The fields of a record whose reference is r.base; `s` holds the current state when encoding (read
// only: it may be const, a state shared by every client) and a copy of r.base (its id set) when
// decoding. One symbol says which groups changed; only those are coded.
template <class C, class S>
void code_record(C& c, RecordModels& m, const RecordRefs& r, S& s) {
  const ReplicaState& b = *r.base;
  const unsigned groups = code_groups(c, m, b, s);
  if ((groups & kExtrasChanged) != 0) {
    code_head(c, m, b, s);
    if (!code_same(c, m.flags_same, s.flags, b.flags)) code_raw(c, s.flags, 8);
    code_shape(c, m, b, s);
  }
  if ((groups & kPositionChanged) != 0) code_position(c, m, r, s);
  if ((groups & kRotationChanged) != 0) code_rotation(c, m, r, s);
  if ((groups & kLookChanged) != 0) code_look(c, m, b, s);
  if ((groups & kExtrasChanged) != 0) code_extras(c, m, b, s);
}

}  // namespace tickwire::delta
