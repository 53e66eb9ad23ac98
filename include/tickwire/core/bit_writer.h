// Bit-level packing for bandwidth-critical records: values are written least-significant bit
// first into consecutive bytes (bit 0 of byte 0 first). Bounds-checked: writing past the end of
// the buffer latches an overflow instead of touching memory it does not own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace tickwire {

class BitWriter {
 public:
  explicit BitWriter(std::span<uint8_t> out) : out_(out) {}

  // Writes the low `bits` bits of value (bits in [0, 64]).
  void write(uint64_t value, unsigned bits) {
    if (bits == 0 || overflow_) return;
    if (bits < 64) value &= (uint64_t{1} << bits) - 1;
    if (bit_pos_ + bits > out_.size() * 8) {
      overflow_ = true;
      return;
    }
    while (bits > 0) {
      const std::size_t byte = bit_pos_ >> 3;
      const unsigned offset = static_cast<unsigned>(bit_pos_ & 7);
      const unsigned take = bits < 8 - offset ? bits : 8 - offset;
      if (offset == 0) out_[byte] = 0;
      out_[byte] = static_cast<uint8_t>(out_[byte] | ((value & ((1u << take) - 1)) << offset));
      value >>= take;
      bits -= take;
      bit_pos_ += take;
    }
  }
  void write_bool(bool v) { write(v ? 1 : 0, 1); }
  // Pads with zero bits up to the next byte boundary.
  void align() {
    const auto rem = static_cast<unsigned>(bit_pos_ & 7);
    if (rem != 0) write(0, 8 - rem);
  }
  std::size_t bits_written() const { return bit_pos_; }
  std::size_t bytes_written() const { return (bit_pos_ + 7) / 8; }
  bool overflow() const { return overflow_; }

 private:
  std::span<uint8_t> out_;
  std::size_t bit_pos_ = 0;
  bool overflow_ = false;
};

}  // namespace tickwire
