// Strict little-endian cursors over a byte span for the netcode formats: the reader never reads
// past its span (a short read latches failure and yields zeros; callers check ok() once), the
// writer never writes past its span. Fixed-width fields only: these layouts are byte-aligned.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "tickwire/core/bytes.h"

namespace tickwire::netcode {

class ByteReader {
 public:
  explicit ByteReader(std::span<const uint8_t> in) : in_(in) {}

  uint8_t u8() { return fixed<uint8_t>(); }
  uint16_t u16() { return fixed<uint16_t>(); }
  uint32_t u32() { return fixed<uint32_t>(); }
  uint64_t u64() { return fixed<uint64_t>(); }
  void bytes(std::span<uint8_t> out) {
    if (!take(out.size())) {
      std::fill(out.begin(), out.end(), uint8_t{0});
      return;
    }
    std::memcpy(out.data(), in_.data() + pos_ - out.size(), out.size());
  }
  void skip(std::size_t n) { (void)take(n); }
  bool ok() const { return ok_; }
  std::size_t position() const { return pos_; }
  std::size_t remaining() const { return in_.size() - pos_; }

 private:
  template <class T>
  T fixed() {
    if (!take(sizeof(T))) return T{0};
    return load_le<T>(in_.data() + pos_ - sizeof(T));
  }
  bool take(std::size_t n) {
    if (!ok_ || n > in_.size() - pos_) {
      ok_ = false;
      return false;
    }
    pos_ += n;
    return true;
  }
  std::span<const uint8_t> in_;
  std::size_t pos_ = 0;
  bool ok_ = true;
};

class ByteWriter {
 public:
  explicit ByteWriter(std::span<uint8_t> out) : out_(out) {}

  void u8(uint8_t v) { fixed(v); }
  void u16(uint16_t v) { fixed(v); }
  void u32(uint32_t v) { fixed(v); }
  void u64(uint64_t v) { fixed(v); }
  void bytes(std::span<const uint8_t> in) {
    if (!take(in.size())) return;
    if (!in.empty()) std::memcpy(out_.data() + pos_ - in.size(), in.data(), in.size());
  }
  // Writes zeros up to `position` (the standard's "zero pad to N bytes").
  void pad_to(std::size_t position) {
    if (position < pos_) {
      ok_ = false;
      return;
    }
    const std::size_t n = position - pos_;
    if (!take(n)) return;
    std::memset(out_.data() + pos_ - n, 0, n);
  }
  bool ok() const { return ok_; }
  std::size_t position() const { return pos_; }

 private:
  template <class T>
  void fixed(T v) {
    if (!take(sizeof(T))) return;
    store_le<T>(out_.data() + pos_ - sizeof(T), v);
  }
  bool take(std::size_t n) {
    if (!ok_ || n > out_.size() - pos_) {
      ok_ = false;
      return false;
    }
    pos_ += n;
    return true;
  }
  std::span<uint8_t> out_;
  std::size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace tickwire::netcode
