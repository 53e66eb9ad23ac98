// Bit-level fields for bandwidth-critical records, inside a `bits` block of a field table:
// n-bit unsigned, single bits, quantized floats and smallest-three quaternions, packed least
// significant bit first and padded with zeros to the next byte at the end of the block.
// One small walker per mode (write, read, count); the describe mode lives in describe_walker.h.
#pragma once

#include <cstdint>

#include "tickwire/core/assert.h"
#include "tickwire/core/bit_reader.h"
#include "tickwire/core/bit_writer.h"
#include "tickwire/core/status.h"
#include "tickwire/wire/quantize.h"
#include "tickwire/wire/types.h"

namespace tickwire::wire {

class BitWriteWalker {
 public:
  static constexpr bool reading = false;
  explicit BitWriteWalker(BitWriter& out) : out_(out) {}
  void ubits(const char*, const uint32_t& v, unsigned n) {
    TW_ASSERT(n >= 1 && n <= 32 && (n == 32 || v < (uint64_t{1} << n)), "a bit field value wider than its bits");
    out_.write(v, n);
  }
  void bit(const char*, const bool& v) { out_.write_bool(v); }
  void quant(const char*, const float& v, const QuantSpec& spec) { out_.write(quantize(v, spec), spec.bits()); }
  void quant(const char*, const double& v, const QuantSpec& spec) { out_.write(quantize(v, spec), spec.bits()); }
  void quat(const char*, const Quat& q, unsigned bits) {
    const PackedQuat p = pack_quat(q, bits);
    out_.write(p.largest, 2);
    out_.write(p.a, bits);
    out_.write(p.b, bits);
    out_.write(p.c, bits);
  }

 private:
  BitWriter& out_;
};

class BitCountWalker {
 public:
  static constexpr bool reading = false;
  void ubits(const char*, const uint32_t&, unsigned n) { bits_ += n; }
  void bit(const char*, const bool&) { bits_ += 1; }
  template <class F>
  void quant(const char*, const F&, const QuantSpec& spec) {
    bits_ += spec.bits();
  }
  void quat(const char*, const Quat&, unsigned bits) { bits_ += 2 + 3 * bits; }
  std::size_t bits() const { return bits_; }

 private:
  std::size_t bits_ = 0;
};

class BitReadWalker {
 public:
  static constexpr bool reading = true;
  explicit BitReadWalker(BitReader& in) : in_(in) {}
  void ubits(const char*, uint32_t& v, unsigned n) { v = static_cast<uint32_t>(in_.read(n)); }
  void bit(const char*, bool& v) { v = in_.read_bool(); }
  template <class F>
  void quant(const char*, F& v, const QuantSpec& spec) {
    const uint64_t index = in_.read(spec.bits());
    if (index > spec.steps()) fail(Error::value_out_of_range);
    v = static_cast<F>(dequantize(index, spec));
  }
  void quat(const char*, Quat& q, unsigned bits) {
    PackedQuat p;
    p.largest = static_cast<uint32_t>(in_.read(2));
    p.a = static_cast<uint32_t>(in_.read(bits));
    p.b = static_cast<uint32_t>(in_.read(bits));
    p.c = static_cast<uint32_t>(in_.read(bits));
    q = unpack_quat(p, bits);
  }
  Error error() const { return in_.truncated() ? Error::truncated : error_; }

 private:
  void fail(Error e) {
    if (error_ == Error::ok) error_ = e;
  }
  BitReader& in_;
  Error error_ = Error::ok;
};

}  // namespace tickwire::wire
