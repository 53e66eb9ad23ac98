// Bounds-checked little-endian byte cursors for the fixed byte-aligned transport layouts (netcode
// 1.02 packets and tokens, the reliability layer's headers and entries). The reader
// latches the first error (truncated) and yields zeros afterwards, so a decoder reads a whole shape
// and checks ok() once; the writer latches buffer_full instead of writing past its span.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "tickwire/core/bytes.h"
#include "tickwire/core/status.h"

namespace tickwire {

class ByteReader {
 public:
  explicit ByteReader(std::span<const uint8_t> in) : in_(in) {}

  uint8_t u8() { return read_le<uint8_t>(); }
  uint16_t u16() { return read_le<uint16_t>(); }
  uint32_t u32() { return read_le<uint32_t>(); }
  uint64_t u64() { return read_le<uint64_t>(); }
  // Copies the next out.size() bytes into out (zeros and latched on truncation).
  void bytes(std::span<uint8_t> out) {
    const auto in = bytes(out.size());
    if (in.size() == out.size() && !out.empty()) {
      std::memcpy(out.data(), in.data(), out.size());
    } else if (in.size() != out.size()) {
      std::memset(out.data(), 0, out.size());
    }
  }
  void skip(std::size_t n) { (void)bytes(n); }
  // A view of the next n bytes (empty and latched on truncation).
  std::span<const uint8_t> bytes(std::size_t n) {
    if (!take(n)) return {};
    return in_.subspan(pos_ - n, n);
  }

  bool ok() const { return error_ == Error::ok; }
  Error error() const { return error_; }
  std::size_t position() const { return pos_; }
  std::size_t remaining() const { return in_.size() - pos_; }
  bool at_end() const { return pos_ == in_.size(); }

 private:
  bool take(std::size_t n) {
    if (error_ != Error::ok) return false;
    if (n > remaining()) {
      error_ = Error::truncated;
      return false;
    }
    pos_ += n;
    return true;
  }
  template <class T>
  T read_le() {
    if (!take(sizeof(T))) return T{};
    return load_le<T>(in_.data() + pos_ - sizeof(T));
  }

  std::span<const uint8_t> in_;
  std::size_t pos_ = 0;
  Error error_ = Error::ok;
};

class ByteWriter {
 public:
  explicit ByteWriter(std::span<uint8_t> out) : out_(out) {}

  void u8(uint8_t v) { write_le(v); }
  void u16(uint16_t v) { write_le(v); }
  void u32(uint32_t v) { write_le(v); }
  void u64(uint64_t v) { write_le(v); }
  // Writes zeros up to `position` (the netcode standard's "zero pad to N bytes").
  void pad_to(std::size_t position) {
    if (position < pos_) {
      if (error_ == Error::ok) error_ = Error::buffer_full;
      return;
    }
    const std::size_t n = position - pos_;
    if (!room(n)) return;
    if (n != 0) std::memset(out_.data() + pos_, 0, n);
    pos_ += n;
  }
  std::size_t position() const { return pos_; }
  void bytes(std::span<const uint8_t> v) {
    if (!room(v.size())) return;
    if (!v.empty()) std::memcpy(out_.data() + pos_, v.data(), v.size());
    pos_ += v.size();
  }
  // Reserves n bytes to be filled by the caller through the returned span (empty on overflow).
  std::span<uint8_t> reserve(std::size_t n) {
    if (!room(n)) return {};
    pos_ += n;
    return out_.subspan(pos_ - n, n);
  }

  bool ok() const { return error_ == Error::ok; }
  Error error() const { return error_; }
  std::size_t size() const { return pos_; }
  std::size_t remaining() const { return out_.size() - pos_; }
  std::span<const uint8_t> written() const { return out_.first(pos_); }

 private:
  bool room(std::size_t n) {
    if (error_ != Error::ok) return false;
    if (n > remaining()) {
      error_ = Error::buffer_full;
      return false;
    }
    return true;
  }
  template <class T>
  void write_le(T v) {
    if (!room(sizeof(T))) return;
    store_le(out_.data() + pos_, v);
    pos_ += sizeof(T);
  }

  std::span<uint8_t> out_;
  std::size_t pos_ = 0;
  Error error_ = Error::ok;
};

}  // namespace tickwire
