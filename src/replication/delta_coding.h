// The SnapshotDelta body's value codes over the range coder, written once for both directions:
// a walk calls bit/raw/uint/sint/real with a reference to the field, the encoder reads it and
// the decoder fills it, so the two can never disagree on the layout (the field-table idea).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "delta_range_coder.h"
#include "tickwire/core/status.h"
#include "tickwire/replication/delta_refusal.h"
#include "tickwire/core/varint.h"

namespace tickwire::delta {

// An adaptive Elias-gamma code: the value's bit length in unary (each step its own learnt
// decision), the bit under the leading one learnt per length, the rest sent plain.
struct UIntModel {
  static constexpr std::size_t kLengthSlots = 24;
  static constexpr std::size_t kSecondSlots = 34;
  std::array<BitModel, kLengthSlots> more{};  // more[k]: is the bit length above k?
  std::array<BitModel, kSecondSlots> second{};

  // A prior: zero `1 - p_nonzero`, then each step up in length `p_continue` likely (of 4096).
  static UIntModel with_continue(uint32_t p_continue, uint32_t p_nonzero = 0) {
    UIntModel m;
    m.more.fill(BitModel::with_p1(p_continue));
    if (p_nonzero != 0) m.more[0] = BitModel::with_p1(p_nonzero);
    return m;
  }
};

// Ordered integers for float bit patterns: adjacent floats differ by one, -0 and +0 included, so a
// residual between nearby values is small and every bit pattern (NaNs too) round-trips.
constexpr int64_t ordered_of(uint32_t bits) {
  return (bits >> 31) != 0 ? -1 - static_cast<int64_t>(bits & 0x7FFFFFFFu) : static_cast<int64_t>(bits);
}
constexpr uint32_t bits_of_ordered(int64_t v) {
  return v >= 0 ? static_cast<uint32_t>(v) : (0x80000000u | static_cast<uint32_t>(-1 - v));
}
inline constexpr int64_t kOrderedMin = -(int64_t{1} << 31);
inline constexpr int64_t kOrderedMax = (int64_t{1} << 31) - 1;
inline int64_t ordered_of(float f) { return ordered_of(std::bit_cast<uint32_t>(f)); }

class EncodeIO {
 public:
  static constexpr bool kDecoding = false;
  // `checked`: assert that every value is one the decoder accepts (off only to craft hostile bodies).
  explicit EncodeIO(std::vector<uint8_t>& out, bool checked = true) : rc_(out), checked_(checked) {}

  void bit(BitModel& m, bool& b) { rc_.encode(m, b ? 1u : 0u); }
  void raw(uint64_t& v, unsigned bits) {
    for (unsigned done = 0; done < bits; done += 16) {
      const unsigned take = bits - done < 16 ? bits - done : 16;
      rc_.encode_direct(static_cast<uint32_t>(v >> done), take);
    }
  }
  // value < 2^max_bits (max_bits in 1..64).
  void uint(UIntModel& m, uint64_t& v, unsigned max_bits) {
    const unsigned n = static_cast<unsigned>(std::bit_width(v));
    TW_ASSERT(n <= max_bits, "a value wider than its code");
    for (unsigned k = 0; k < n; ++k) rc_.encode(m.more[slot(k)], 1);
    if (n < max_bits) rc_.encode(m.more[slot(n)], 0);
    if (n >= 2) {
      rc_.encode(m.second[second_slot(n)], static_cast<unsigned>((v >> (n - 2)) & 1u));
      uint64_t rest = v;
      raw(rest, n - 2);
    }
  }
  void sint(UIntModel& m, int64_t& v, unsigned max_bits) {
    uint64_t z = zigzag_encode(v);
    uint(m, z, max_bits);
  }
  void require(bool ok, DeltaRefusal) { TW_ASSERT(ok || !checked_, "the delta encoder was given a state it cannot code"); }
  bool failed() const { return false; }
  std::size_t bits_so_far() const { return rc_.bits_so_far(); }
  void finish() { rc_.finish(); }

 private:
  static std::size_t slot(unsigned k) { return k < UIntModel::kLengthSlots ? k : UIntModel::kLengthSlots - 1; }
  static std::size_t second_slot(unsigned n) { return n < UIntModel::kSecondSlots ? n : UIntModel::kSecondSlots - 1; }
  RangeEncoder rc_;
  bool checked_;
};

class DecodeIO {
 public:
  static constexpr bool kDecoding = true;
  explicit DecodeIO(std::span<const uint8_t> in) : rc_(in) {}

  void bit(BitModel& m, bool& b) { b = rc_.decode(m) != 0; }
  void raw(uint64_t& v, unsigned bits) {
    v = 0;
    for (unsigned done = 0; done < bits; done += 16) {
      const unsigned take = bits - done < 16 ? bits - done : 16;
      v |= static_cast<uint64_t>(rc_.decode_direct(take)) << done;
    }
  }
  void uint(UIntModel& m, uint64_t& v, unsigned max_bits) {
    unsigned n = 0;
    while (n < max_bits && rc_.decode(m.more[slot(n)]) != 0) ++n;
    if (n == 0) {
      v = 0;
      return;
    }
    v = 1;
    if (n >= 2) {
      v = (v << 1) | rc_.decode(m.second[second_slot(n)]);
      uint64_t rest = 0;
      raw(rest, n - 2);
      v = (v << (n - 2)) | rest;
    }
  }
  void sint(UIntModel& m, int64_t& v, unsigned max_bits) {
    uint64_t z = 0;
    uint(m, z, max_bits);
    v = zigzag_decode(z);
  }
  void require(bool ok, DeltaRefusal e) {
    if (!ok && !failed_) {
      failed_ = true;
      refusal_ = e;
    }
  }
  bool failed() const { return failed_; }
  DeltaRefusal refusal() const { return refusal_; }
  const RangeDecoder& decoder() const { return rc_; }

 private:
  static std::size_t slot(unsigned k) { return k < UIntModel::kLengthSlots ? k : UIntModel::kLengthSlots - 1; }
  static std::size_t second_slot(unsigned n) { return n < UIntModel::kSecondSlots ? n : UIntModel::kSecondSlots - 1; }
  RangeDecoder rc_;
  bool failed_ = false;
  DeltaRefusal refusal_ = DeltaRefusal::value_out_of_range;
};

// Floats compare by bit pattern: -0 is not +0, a NaN equals itself, so "same" means exactly.
inline bool same_bits(float a, float b) { return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b); }

template <std::size_t N>
bool same_bits(const std::array<float, N>& a, const std::array<float, N>& b) {
  for (std::size_t i = 0; i < N; ++i) {
    if (!same_bits(a[i], b[i])) return false;
  }
  return true;
}

// A field equal to its reference costs one learnt decision. In decoding, `value` already holds
// the reference (the decoder starts each record from it), so the comparison is a no-op there.
template <class C, class T>
bool code_same(C& c, BitModel& m, const T& value, const T& reference) {
  bool same = value == reference;
  c.bit(m, same);
  return same;
}

// Three integers (a position, rotation steps) compared in one branch: std::array's == calls memcmp.
template <class C>
bool code_same(C& c, BitModel& m, const std::array<int32_t, 3>& value, const std::array<int32_t, 3>& reference) {
  bool same = ((value[0] ^ reference[0]) | (value[1] ^ reference[1]) | (value[2] ^ reference[2])) == 0;
  c.bit(m, same);
  return same;
}

// An integer of `bits` bits, sent plain.
template <class C, class T>
void code_raw(C& c, T& value, unsigned bits) {
  uint64_t v = static_cast<uint64_t>(value);
  c.raw(v, bits);
  value = static_cast<T>(v);
}

// A float, exact: its ordered bit pattern's residual against a predicted ordered value.
template <class C>
void code_real(C& c, UIntModel& m, float& value, int64_t predicted_ordered) {
  int64_t residual = ordered_of(value) - predicted_ordered;
  c.sint(m, residual, 34);
  const int64_t ordered = predicted_ordered + residual;
  c.require(ordered >= kOrderedMin && ordered <= kOrderedMax, DeltaRefusal::value_out_of_range);
  if constexpr (C::kDecoding) {
    value = std::bit_cast<float>(bits_of_ordered(ordered >= kOrderedMin && ordered <= kOrderedMax ? ordered : 0));
  }
}

// A 32-bit signed integer, exact: its residual against a prediction (clamped to +-2^40, so the
// residual fits 43 zigzag bits and no sum overflows).
// `negate`: code the residual's negation (a prediction known to lean up makes +1 the likely miss;
// negated, it takes the shorter code of -1).
template <class C>
void code_int32(C& c, UIntModel& m, int32_t& value, int64_t predicted, bool negate = false) {
  constexpr int64_t kPredictionLimit = int64_t{1} << 40;
  predicted = predicted < -kPredictionLimit ? -kPredictionLimit : (predicted > kPredictionLimit ? kPredictionLimit : predicted);
  int64_t residual = negate ? predicted - static_cast<int64_t>(value) : static_cast<int64_t>(value) - predicted;
  c.sint(m, residual, 43);
  const int64_t v = negate ? predicted - residual : predicted + residual;
  const bool fits = v >= INT32_MIN && v <= INT32_MAX;
  c.require(fits, DeltaRefusal::value_out_of_range);
  if constexpr (C::kDecoding) value = fits ? static_cast<int32_t>(v) : 0;
}

}  // namespace tickwire::delta
