// The adaptive range coder under the SnapshotDelta body: each yes/no decision, or symbol of a
// 16-symbol distribution (delta_cdf.h), is coded at the probability its model has learnt so far in
// this body, so a likely one costs a small fraction of a bit. Integer-only, deterministic everywhere.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "delta_cdf.h"
#include "tickwire/core/assert.h"

namespace tickwire::delta {

inline constexpr unsigned kProbBits = 12;
inline constexpr uint32_t kProbOne = 1u << kProbBits;
inline constexpr uint32_t kRangeTop = 1u << 24;
// Direct (equiprobable) bits coded in one step: the range stays at least 2^24 >> 16 = 256 wide.
inline constexpr unsigned kMaxDirectBits = 16;

// The probability (of a 0) learnt for one decision; adapts fast at first, then settles.
struct BitModel {
  uint16_t p0 = kProbOne / 2;
  uint8_t seen = 0;

  static constexpr BitModel with_p1(uint32_t p1_per_4096) {
    return BitModel{static_cast<uint16_t>(kProbOne - p1_per_4096), 0};
  }
  void update(unsigned bit) {
    // The adaptation shift by decisions seen: 2, 2, 3, 3, then 4 for good (a nibble each).
    constexpr uint32_t kShiftBySeen = 0x43322u;
    constexpr uint8_t kLastSeen = 4;
    const unsigned shift = (kShiftBySeen >> (4u * seen)) & 0xFu;
    seen = static_cast<uint8_t>(seen + (seen < kLastSeen ? 1 : 0));
    // Branch-free (the bits of a field are often a coin toss): toward 0 on a 0, toward 4096 on a 1.
    const uint32_t one = 0u - static_cast<uint32_t>(bit != 0);
    const uint32_t up = (kProbOne - p0) >> shift;
    const uint32_t down = p0 >> shift;
    p0 = static_cast<uint16_t>(p0 + (up & ~one) - (down & one));
  }
};

// Writes into a caller's byte vector (reused across bodies). The stream's first byte is always 0
// and is not written; finish() ends on a value with as many trailing zero bytes as the interval
// allows and trims every trailing zero byte, which the decoder reads back as implicit zeros.
class RangeEncoder {
 public:
  explicit RangeEncoder(std::vector<uint8_t>& out) : out_(out) {}

  void encode(BitModel& m, unsigned bit) {
    const uint32_t bound = (range_ >> kProbBits) * m.p0;
    const uint32_t one = 0u - static_cast<uint32_t>(bit != 0);  // a 1 takes the range above bound
    low_ += bound & one;
    range_ = ((range_ - bound) & one) | (bound & ~one);
    m.update(bit);
    normalize();
  }
  // One symbol of m (below kCdfSymbols) in one step, no division: the range splits into kCdfTotal
  // units, the symbol takes its frequency's worth, the last symbol the rest (the remainder too).
  void encode_cdf(AdaptiveCdf& m, unsigned symbol) {
    encode_bounds(m.below, symbol);
    m.update(symbol);
  }
  // One symbol of a fixed distribution (its bounds as AdaptiveCdf keeps them), nothing learnt.
  void encode_bounds(const std::array<uint16_t, kCdfSymbols>& below, unsigned symbol) {
    TW_ASSERT(symbol < kCdfSymbols, "a symbol past its distribution");
    const uint32_t unit = range_ >> kCdfBits;
    const uint32_t start = unit * below[symbol];
    low_ += start;
    range_ = symbol + 1 < kCdfSymbols ? unit * below[symbol + 1] - start : range_ - start;
    normalize();
  }
  // The low `bits` bits of value as one equiprobable symbol of 2^bits (bits <= kMaxDirectBits):
  // the range splits into 2^bits equal parts (the remainder is never used) and value picks one.
  // No bits is a no-op, without a branch.
  void encode_direct(uint32_t value, unsigned bits) {
    TW_ASSERT(bits <= kMaxDirectBits, "too many direct bits at once");
    range_ >>= bits;
    low_ += static_cast<uint64_t>(value & ((1u << bits) - 1u)) * range_;
    normalize();
  }
  void finish() {
    // Round low up to the value in [low, low + range) with the most trailing zero bits.
    for (unsigned k = 32; k > 0; --k) {
      const uint64_t mask = (uint64_t{1} << k) - 1;
      const uint64_t v = (low_ + mask) & ~mask;
      if (v < low_ + range_) {
        low_ = v;
        break;
      }
    }
    for (int i = 0; i < 5; ++i) shift_low();
    while (!out_.empty() && out_.back() == 0) out_.pop_back();
  }
  // Whole bits spent so far (an estimate within a bit or two; for the body's statistics).
  std::size_t bits_so_far() const {
    const auto range_bits = static_cast<std::size_t>(std::bit_width(range_) - 1);  // floor(log2(range)), range > 0
    return (out_.size() + cache_size_) * 8 + 32 - range_bits;
  }

 private:
  // The common case (range still wide) inline; the byte output apart, out of the hot loops.
  void normalize() {
    if (range_ < kRangeTop) [[unlikely]] widen();
  }
  [[gnu::noinline]] void widen() {
    while (range_ < kRangeTop) {
      range_ <<= 8;
      shift_low();
    }
  }
  void shift_low() {
    if (static_cast<uint32_t>(low_) < 0xFF000000u || (low_ >> 32) != 0) {
      const auto carry = static_cast<uint8_t>(low_ >> 32);
      uint8_t held = cache_;
      do {
        emit(static_cast<uint8_t>(held + carry));
        held = 0xFF;
      } while (--cache_size_ != 0);
      cache_ = static_cast<uint8_t>(low_ >> 24);
    }
    ++cache_size_;
    low_ = (low_ & 0x00FFFFFFu) << 8;
  }
  void emit(uint8_t byte) {
    if (skip_first_) {
      TW_ASSERT(byte == 0, "a range coder's first byte is always zero");
      skip_first_ = false;
      return;
    }
    out_.push_back(byte);
  }

  std::vector<uint8_t>& out_;
  uint64_t low_ = 0;
  uint32_t range_ = 0xFFFFFFFFu;
  uint8_t cache_ = 0;
  uint64_t cache_size_ = 1;
  bool skip_first_ = true;
};

// Reads a body; bytes past its end read as zero (never touched), and consumed() tells how many
// bytes the stream has used, implicit ones included, so trailing bytes can be refused.
class RangeDecoder {
 public:
  explicit RangeDecoder(std::span<const uint8_t> in) : in_(in) {
    for (int i = 0; i < 4; ++i) code_ = (code_ << 8) | next_byte();
    if (code_ >= range_) corrupt_ = true;
  }

  unsigned decode(BitModel& m) {
    const uint32_t bound = (range_ >> kProbBits) * m.p0;
    unsigned bit = 0;
    if (code_ < bound) {
      range_ = bound;
    } else {
      code_ -= bound;
      range_ -= bound;
      bit = 1;
    }
    m.update(bit);
    normalize();
    return bit;
  }
  // The symbol whose part of the range holds the code: a count over the bounds (no search loop
  // that could run on; a code past the range decodes as the last symbol and stays corrupt).
  unsigned decode_cdf(AdaptiveCdf& m) {
    const unsigned symbol = decode_bounds(m.below);
    m.update(symbol);
    return symbol;
  }
  unsigned decode_bounds(const std::array<uint16_t, kCdfSymbols>& below) {
    const uint32_t unit = range_ >> kCdfBits;
    unsigned symbol = 0;
    for (std::size_t s = 1; s < kCdfSymbols; ++s) symbol += unit * below[s] <= code_ ? 1u : 0u;
    const uint32_t start = unit * below[symbol];
    code_ -= start;
    range_ = symbol + 1 < kCdfSymbols ? unit * below[symbol + 1] - start : range_ - start;
    normalize();
    return symbol;
  }
  // A code in the unused remainder past the 2^bits parts is no encoder's: it decodes as the last
  // part and marks the stream corrupt.
  uint32_t decode_direct(unsigned bits) {
    TW_ASSERT(bits <= kMaxDirectBits, "too many direct bits at once");
    if (bits == 0) return 0;
    range_ >>= bits;
    const uint32_t top = (1u << bits) - 1u;
    const uint32_t quotient = code_ / range_;
    if (quotient > top) corrupt_ = true;
    const uint32_t value = quotient < top ? quotient : top;
    code_ -= value * range_;
    normalize();
    return value;
  }
  std::size_t consumed() const { return pos_; }
  // A stream no encoder could have written (its code past its range).
  bool corrupt() const { return corrupt_ || code_ >= range_; }

 private:
  void normalize() {
    while (range_ < kRangeTop) {
      range_ <<= 8;
      code_ = (code_ << 8) | next_byte();
    }
  }
  uint32_t next_byte() {
    const uint32_t byte = pos_ < in_.size() ? in_[pos_] : 0u;
    ++pos_;
    return byte;
  }

  std::span<const uint8_t> in_;
  std::size_t pos_ = 0;
  uint32_t range_ = 0xFFFFFFFFu;
  uint32_t code_ = 0;
  bool corrupt_ = false;
};

}  // namespace tickwire::delta
