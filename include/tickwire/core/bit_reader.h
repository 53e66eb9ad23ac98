// The reading half of BitWriter's layout (least-significant bit first). Reading past the end
// latches `truncated` and yields zeros; callers check ok() once at the end of a block.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace tickwire {

class BitReader {
 public:
  explicit BitReader(std::span<const uint8_t> in) : in_(in) {}

  uint64_t read(unsigned bits) {
    if (bits == 0 || truncated_) return 0;
    if (bit_pos_ + bits > in_.size() * 8) {
      truncated_ = true;
      return 0;
    }
    uint64_t value = 0;
    unsigned got = 0;
    while (got < bits) {
      const std::size_t byte = bit_pos_ >> 3;
      const unsigned offset = static_cast<unsigned>(bit_pos_ & 7);
      const unsigned take = (bits - got) < 8 - offset ? (bits - got) : 8 - offset;
      const uint64_t chunk = (in_[byte] >> offset) & ((1u << take) - 1);
      value |= chunk << got;
      got += take;
      bit_pos_ += take;
    }
    return value;
  }
  bool read_bool() { return read(1) != 0; }
  // Skips to the next byte boundary; returns false when the skipped padding bits were not zero.
  bool align() {
    const auto rem = static_cast<unsigned>(bit_pos_ & 7);
    return rem == 0 || read(8 - rem) == 0;
  }
  std::size_t bits_read() const { return bit_pos_; }
  std::size_t bytes_read() const { return (bit_pos_ + 7) / 8; }
  std::size_t bits_remaining() const { return in_.size() * 8 - bit_pos_; }
  bool truncated() const { return truncated_; }

 private:
  std::span<const uint8_t> in_;
  std::size_t bit_pos_ = 0;
  bool truncated_ = false;
};

}  // namespace tickwire
