// ByteRecord: little-endian records of fixed-width numbers and length-prefixed blobs, for what is
// stored rather than sent (a resume token, a journal entry, a checkpoint). The reader checks every
// length against what is left and fails the whole record at the first short read; it never
// allocates past what the bytes hold.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tickwire/core/bytes.h"

namespace tickwire {

class ByteRecordWriter {
 public:
  explicit ByteRecordWriter(std::vector<uint8_t>& out) : out_(out) {}
  void u8(uint8_t v) { put(v); }
  void u16(uint16_t v) { put(v); }
  void u32(uint32_t v) { put(v); }
  void u64(uint64_t v) { put(v); }
  void i64(int64_t v) { put(v); }
  void f32(float v) { put(v); }
  void f64(double v) { put(v); }
  // A yes or no, as one byte (0 or 1).
  void flag(bool v) { u8(v ? 1 : 0); }
  void raw(std::span<const uint8_t> bytes) {
    if (bytes.empty()) return;
    const std::size_t at = grow(bytes.size());
    std::memcpy(out_.data() + at, bytes.data(), bytes.size());
  }
  // A blob behind its u32 length.
  void blob(std::span<const uint8_t> bytes) {
    u32(static_cast<uint32_t>(bytes.size()));
    raw(bytes);
  }
  // A name behind its u8 length (the caller keeps it under 256 bytes).
  void name(std::string_view text) {
    u8(static_cast<uint8_t>(text.size()));
    raw({reinterpret_cast<const uint8_t*>(text.data()), text.size()});
  }
 private:
  // Grown by resize and filled in place (GCC 12 at -O3 misreads an insert after a push_back as
  // out of bounds).
  std::size_t grow(std::size_t n) {
    const std::size_t at = out_.size();
    out_.resize(at + n);
    return at;
  }
  template <class T>
  void put(T v) {
    const std::size_t at = grow(sizeof(T));
    store_le<T>(out_.data() + at, v);
  }
  std::vector<uint8_t>& out_;
};

class ByteRecordReader {
 public:
  explicit ByteRecordReader(std::span<const uint8_t> bytes) : bytes_(bytes) {}
  // False from the first read past the end (or a length past its cap) on; every later read yields 0.
  bool ok() const { return ok_; }
  bool done() const { return ok_ && at_ == bytes_.size(); }
  std::size_t left() const { return bytes_.size() - at_; }
  uint8_t u8() { return take(1) ? bytes_[at_ - 1] : 0; }
  uint16_t u16() { return get<uint16_t>(); }
  uint32_t u32() { return get<uint32_t>(); }
  uint64_t u64() { return get<uint64_t>(); }
  int64_t i64() { return get<int64_t>(); }
  float f32() { return get<float>(); }
  double f64() { return get<double>(); }
  // A yes or no: a byte other than 0 or 1 fails the record.
  bool flag() {
    const uint8_t v = u8();
    if (v > 1) fail();
    return v == 1;
  }
  // `n` bytes as they stand (empty, and the record failed, when fewer are left).
  std::span<const uint8_t> raw(std::size_t n) {
    if (!take(n)) return {};
    return bytes_.subspan(at_ - n, n);
  }
  // A blob behind its u32 length, at most `max` bytes.
  std::span<const uint8_t> blob(std::size_t max) {
    const uint32_t n = u32();
    if (n > max) fail();
    return ok_ ? raw(n) : std::span<const uint8_t>{};
  }
  // A name behind its u8 length, at most `max` bytes.
  std::string name(std::size_t max) {
    const uint8_t n = u8();
    if (n > max) fail();
    const std::span<const uint8_t> text = ok_ ? raw(n) : std::span<const uint8_t>{};
    return std::string(reinterpret_cast<const char*>(text.data()), text.size());
  }
  void fail() { ok_ = false; }

 private:
  template <class T>
  T get() {
    return take(sizeof(T)) ? load_le<T>(bytes_.data() + at_ - sizeof(T)) : T{};
  }
  bool take(std::size_t n) {
    if (!ok_ || bytes_.size() - at_ < n) {
      ok_ = false;
      return false;
    }
    at_ += n;
    return true;
  }
  std::span<const uint8_t> bytes_;
  std::size_t at_ = 0;
  bool ok_ = true;
};

}  // namespace tickwire
