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
#include "tickwire/replication/delta/delta_refusal.h"
#include "tickwire/core/varint.h"

namespace tickwire::delta {

// The chances (of 2^30) of the bit lengths 0 .. kCdfSymbols - 2 and, last, of any longer one, as a
// unary code would start them: past 0 with p_first, past each later length with p_next (of 4096).
constexpr std::array<uint64_t, kCdfSymbols> length_chances(uint32_t p_first, uint32_t p_next) {
  std::array<uint64_t, kCdfSymbols> chance{};
  uint64_t past = uint64_t{1} << 30;  // the chance of a length past the one before
  for (std::size_t n = 0; n + 1 < kCdfSymbols; ++n) {
    const uint64_t go_on = (past * (n == 0 ? p_first : p_next)) >> 12;
    chance[n] = past - go_on;
    past = go_on;
  }
  chance[kCdfSymbols - 1] = past;
  return chance;
}

// An adaptive Elias-gamma code in LZMA-style slots. A value of bit length n <= 7 is one symbol of
// the head table: its slot, 2 * k + (value >> k) with k = max(n, 2) - 2 (0..3 are the values
// themselves; then two slots per length, by the bit under the leading one), then k plain bits.
// Slot 14 is length 8, slot 15 longer: the tail table's symbol n - 9 for n = 9..23, or its last
// symbol and n - 24 in 6 plain bits; a long value's bit under the leading one is learnt per
// length, then its n - 2 bits below that go plain.
struct UIntModel {
  static constexpr unsigned kSlotBits = 7;       // the longest length a slot names whole
  static constexpr unsigned kLengthEight = 14;   // the slot of length kSlotBits + 1
  static constexpr unsigned kEscape = 15;        // the slot of any longer length; the tail's last
  static constexpr unsigned kTailFirst = 9;      // the length of the tail's symbol 0
  static constexpr unsigned kFarFirst = kTailFirst + kEscape;  // lengths from here go plain
  static constexpr unsigned kFarBits = 6;        // lengths up to 24 + 63
  static constexpr std::size_t kSecondSlots = 26;  // lengths 8 .. 33 (longer share the last)

  // A prior: zero `1 - p_nonzero` likely, then each step up in length `p_continue` (of 4096),
  // like a unary code whose every decision starts at p_continue (p_nonzero 0: p_continue too).
  static constexpr UIntModel with_continue(uint32_t p_continue, uint32_t p_nonzero = 0) {
    UIntModel m;
    m.head = head_prior(p_nonzero != 0 ? p_nonzero : p_continue, p_continue);
    m.tail = tail_prior(p_continue);
    return m;
  }

  // The slots' chances from the lengths'. Of the two slots of one length, the lower half of the
  // values takes 5/8 (a density falling with the value, as the lengths' chances fall).
  static constexpr AdaptiveCdf head_prior(uint32_t p_first, uint32_t p_next) {
    const std::array<uint64_t, kCdfSymbols> length = length_chances(p_first, p_next);
    std::array<uint64_t, kCdfSymbols> slot{};
    slot[0] = 8 * length[0];
    slot[1] = 8 * length[1];
    for (std::size_t n = 2; n <= kSlotBits; ++n) {
      slot[2 * n - 2] = 5 * length[n];
      slot[2 * n - 1] = 3 * length[n];
    }
    slot[kLengthEight] = 8 * length[kSlotBits + 1];
    uint64_t longer = 0;
    for (std::size_t n = kSlotBits + 2; n < kCdfSymbols; ++n) longer += length[n];
    slot[kEscape] = 8 * longer;
    return AdaptiveCdf::with_weights(slot);
  }

  // Long lengths are mostly whole values (a record against nothing): peaked, not smooth.
  static constexpr AdaptiveCdf tail_prior(uint32_t p_next) {
    return AdaptiveCdf::with_weights(length_chances(p_next, p_next), true);
  }

  AdaptiveCdf head = head_prior(2048, 2048);
  AdaptiveCdf tail = tail_prior(2048);
  std::array<BitModel, kSecondSlots> second{};
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
  void symbol(AdaptiveCdf& m, unsigned& s) { rc_.encode_cdf(m, s); }  // s < kCdfSymbols
  void fixed_symbol(const std::array<uint16_t, kCdfSymbols>& below, unsigned& s) { rc_.encode_bounds(below, s); }
  void raw(uint64_t& v, unsigned bits) {
    for (unsigned done = 0; done < bits; done += 16) {
      const unsigned take = bits - done < 16 ? bits - done : 16;
      rc_.encode_direct(static_cast<uint32_t>(v >> done), take);
    }
  }
  // value < 2^max_bits (max_bits in 1..64). Short values, the common case, take two steps and
  // no branch: the slot, then the plain bits (none below length 3).
  [[gnu::always_inline]] void uint(UIntModel& m, uint64_t& v, unsigned max_bits) {
    const unsigned n = static_cast<unsigned>(std::bit_width(v));
    TW_ASSERT(n <= max_bits, "a value wider than its code");
    if (n <= UIntModel::kSlotBits) [[likely]] {
      const unsigned plain = n > 2 ? n - 2 : 0;
      rc_.encode_cdf(m.head, 2 * plain + static_cast<unsigned>(v >> plain));
      rc_.encode_direct(static_cast<uint32_t>(v), plain);
      return;
    }
    long_uint(m, v, n);
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
  // A value of bit length n > kSlotBits: its length, then the bit under the leading one (learnt),
  // then the rest plain.
  [[gnu::noinline]] void long_uint(UIntModel& m, uint64_t v, unsigned n) {
    if (n == UIntModel::kSlotBits + 1) {
      rc_.encode_cdf(m.head, UIntModel::kLengthEight);
    } else {
      rc_.encode_cdf(m.head, UIntModel::kEscape);
      if (n < UIntModel::kFarFirst) {
        rc_.encode_cdf(m.tail, n - UIntModel::kTailFirst);
      } else {
        rc_.encode_cdf(m.tail, UIntModel::kEscape);
        rc_.encode_direct(n - UIntModel::kFarFirst, UIntModel::kFarBits);
      }
    }
    rc_.encode(m.second[second_slot(n)], static_cast<unsigned>((v >> (n - 2)) & 1u));
    raw(v, n - 2);
  }
  static std::size_t second_slot(unsigned n) {
    const unsigned first = UIntModel::kSlotBits + 1;
    return n - first < UIntModel::kSecondSlots ? n - first : UIntModel::kSecondSlots - 1;
  }
  RangeEncoder rc_;
  bool checked_;
};

class DecodeIO {
 public:
  static constexpr bool kDecoding = true;
  explicit DecodeIO(std::span<const uint8_t> in) : rc_(in) {}

  void bit(BitModel& m, bool& b) { b = rc_.decode(m) != 0; }
  void symbol(AdaptiveCdf& m, unsigned& s) { s = rc_.decode_cdf(m); }
  void fixed_symbol(const std::array<uint16_t, kCdfSymbols>& below, unsigned& s) { s = rc_.decode_bounds(below); }
  void raw(uint64_t& v, unsigned bits) {
    v = 0;
    for (unsigned done = 0; done < bits; done += 16) {
      const unsigned take = bits - done < 16 ? bits - done : 16;
      v |= static_cast<uint64_t>(rc_.decode_direct(take)) << done;
    }
  }
  // A length past max_bits is no encoder's: refused, and decoded as max_bits to stay in bounds.
  void uint(UIntModel& m, uint64_t& v, unsigned max_bits) {
    const unsigned slot = rc_.decode_cdf(m.head);
    unsigned n = slot < 4 ? static_cast<unsigned>(std::bit_width(slot)) : slot / 2 + 1;
    if (slot == UIntModel::kEscape) {
      n = UIntModel::kTailFirst + rc_.decode_cdf(m.tail);
      if (n == UIntModel::kFarFirst) n += rc_.decode_direct(UIntModel::kFarBits);
    }
    if (n > max_bits) {
      require(false, DeltaRefusal::corrupt_stream);
      v = 0;
      return;
    }
    if (n <= UIntModel::kSlotBits) {
      const unsigned plain = n > 2 ? n - 2 : 0;
      v = (static_cast<uint64_t>(slot - 2 * plain) << plain) | rc_.decode_direct(plain);
      return;
    }
    v = 2 | rc_.decode(m.second[second_slot(n)]);
    uint64_t rest = 0;
    raw(rest, n - 2);
    v = (v << (n - 2)) | rest;
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
  static std::size_t second_slot(unsigned n) {
    const unsigned first = UIntModel::kSlotBits + 1;
    return n - first < UIntModel::kSecondSlots ? n - first : UIntModel::kSecondSlots - 1;
  }
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
// (Encoding may read a const field; only decoding writes it.)
template <class C, class T>
void code_raw(C& c, T& value, unsigned bits) {
  uint64_t v = static_cast<uint64_t>(value);
  c.raw(v, bits);
  if constexpr (C::kDecoding) value = static_cast<T>(v);
}

// A float, exact: its ordered bit pattern's residual against a predicted ordered value.
template <class C, class F>
void code_real(C& c, UIntModel& m, F& value, int64_t predicted_ordered) {
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
template <class C, class I>
void code_int32(C& c, UIntModel& m, I& value, int64_t predicted, bool negate = false) {
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
