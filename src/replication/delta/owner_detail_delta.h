// The owner detail of a SnapshotDelta body, coded against the baseline's (or a default one): the
// ack predicted to have moved on by the ticks since the baseline, the pawn's floats as exact
// residuals of their ordered bit patterns against a linear extrapolation from the references. The
// client reconciles against these bit for bit, so nothing here is approximate.
#pragma once

#include <array>
#include <cstdint>

#include "delta_coding.h"
#include "delta_prediction.h"
#include "tickwire/protocol/snapshot.h"

namespace tickwire::delta {

struct OwnerModels {
  BitModel ack_present, ack_exact, queue_same, ref_same, position_same, velocity_same, values_same, bits_same;
  UIntModel ack, queue, position, velocity, values;

  static OwnerModels fresh();
};

inline std::array<float*, 3> components(protocol::Vec3& v) { return {&v.x, &v.y, &v.z}; }
inline std::array<float, 3> values(const protocol::Vec3& v) { return {v.x, v.y, v.z}; }

inline int64_t clamp_ordered(int64_t v) { return v < kOrderedMin ? kOrderedMin : (v > kOrderedMax ? kOrderedMax : v); }

template <class C>
void code_vec3(C& c, BitModel& same_model, UIntModel& m, protocol::Vec3& s, const protocol::Vec3& b,
               const protocol::Vec3* older, const Extrapolation& ex) {
  bool same = same_bits(s.x, b.x) && same_bits(s.y, b.y) && same_bits(s.z, b.z);
  c.bit(same_model, same);
  if (same) return;
  const std::array<float, 3> base = values(b);
  const std::array<float, 3> old = older != nullptr ? values(*older) : base;
  const std::array<float*, 3> out = components(s);
  for (std::size_t i = 0; i < 3; ++i) {
    const int64_t predicted = clamp_ordered(ex.predict(ordered_of(base[i]), ordered_of(old[i])));
    code_real(c, m, *out[i], predicted);
  }
}

template <class C>
void code_ack(C& c, OwnerModels& m, const protocol::OwnerDetail& b, const Extrapolation& ex, protocol::OwnerDetail& s) {
  bool present = s.ack.has_value();
  c.bit(m.ack_present, present);
  if (!present) {
    s.ack.reset();
    return;
  }
  const uint32_t predicted = b.ack ? b.ack->sequence + static_cast<uint32_t>(ex.ahead) : 0u;
  if constexpr (C::kDecoding) {
    if (!s.ack) s.ack.emplace();
  }
  bool exact = s.ack->sequence == predicted;
  c.bit(m.ack_exact, exact);
  int64_t residual = exact ? 0 : static_cast<int32_t>(s.ack->sequence - predicted);
  if (!exact) c.sint(m.ack, residual, 33);
  c.require(residual >= INT32_MIN && residual <= INT32_MAX, DeltaRefusal::value_out_of_range);
  s.ack->sequence = predicted + static_cast<uint32_t>(residual);
}

// The game's pawn values: one decision when they all match the baseline's, else their count and
// each one against the baseline's value at its place (0 past the baseline's count).
template <class C>
void code_values(C& c, OwnerModels& m, const protocol::PawnValues& b, protocol::PawnValues& s) {
  bool same = s.size() == b.size();
  for (std::size_t i = 0; same && i < s.size(); ++i) same = same_bits(s[i].value, b[i].value);
  c.bit(m.values_same, same);
  if (same) return;
  uint64_t count = s.size();
  c.raw(count, 3);
  c.require(count <= protocol::MaxPawnValues, DeltaRefusal::value_out_of_range);
  if constexpr (C::kDecoding) s.resize(static_cast<std::size_t>(std::min<uint64_t>(count, protocol::MaxPawnValues)));
  for (std::size_t i = 0; i < s.size(); ++i) code_real(c, m.values, s[i].value, ordered_of(i < b.size() ? b[i].value : 0.0f));
}

// `older` may be null; `ex.ahead` is the ticks since the baseline even when ex is inactive.
template <class C>
void code_owner(C& c, OwnerModels& m, const protocol::OwnerDetail& b, const protocol::OwnerDetail* older,
                const Extrapolation& ex, protocol::OwnerDetail& s) {
  code_ack(c, m, b, ex, s);
  if (!code_same(c, m.queue_same, s.queue_depth, b.queue_depth)) {
    int64_t change = static_cast<int64_t>(s.queue_depth) - b.queue_depth;
    c.sint(m.queue, change, 10);
    const int64_t depth = b.queue_depth + change;
    c.require(depth >= INT8_MIN && depth <= INT8_MAX, DeltaRefusal::value_out_of_range);
    s.queue_depth = static_cast<int8_t>(depth);
  }
  protocol::PawnDetail& p = s.pawn;
  const protocol::PawnDetail& bp = b.pawn;
  if (!code_same(c, m.ref_same, p.pawn_ref, bp.pawn_ref)) code_raw(c, p.pawn_ref, 64);
  const Extrapolation none{false, ex.ahead, 1, 0};
  code_vec3(c, m.position_same, m.position, p.position, bp.position, older ? &older->pawn.position : nullptr,
            older ? ex : none);
  code_vec3(c, m.velocity_same, m.velocity, p.velocity, bp.velocity, older ? &older->pawn.velocity : nullptr,
            older ? ex : none);
  code_values(c, m, bp.values, p.values);
  bool bits_same = p.flags == bp.flags && p.placement_epoch == bp.placement_epoch && s.claim == b.claim;
  c.bit(m.bits_same, bits_same);
  if (!bits_same) {
    code_raw(c, p.flags, 8);
    code_raw(c, p.placement_epoch, 8);
    uint64_t claim = static_cast<uint64_t>(s.claim);
    c.raw(claim, 2);
    c.require(claim <= static_cast<uint64_t>(protocol::ClaimOutcome::corrected), DeltaRefusal::bad_enum);
    s.claim = static_cast<protocol::ClaimOutcome>(claim);
  }
}

}  // namespace tickwire::delta
