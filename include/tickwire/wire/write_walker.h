// The write and measure modes of a field table. One walker, templated on its sink: BufferSink
// writes into caller memory (bounds-checked, never grows), CountingSink only counts, so measuring
// a message is the same walk as writing it and the two cannot disagree about a byte.
#pragma once

#include <cstddef>
#include <cstring>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "tickwire/core/assert.h"
#include "tickwire/core/bit_writer.h"
#include "tickwire/core/bytes.h"
#include "tickwire/core/varint.h"
#include "tickwire/wire/bit_walkers.h"
#include "tickwire/wire/shape.h"
#include "tickwire/wire/sparse_view.h"
#include "tickwire/wire/types.h"

namespace tickwire::wire {

class BufferSink {
 public:
  static constexpr bool writes = true;
  explicit BufferSink(std::span<uint8_t> out) : begin_(out.data()), pos_(out.data()), end_(out.data() + out.size()) {}
  uint8_t* reserve(std::size_t n) {
    if (static_cast<std::size_t>(end_ - pos_) < n) {
      overflow_ = true;
      pos_ = end_;
      return nullptr;
    }
    uint8_t* at = pos_;
    pos_ += n;
    return at;
  }
  std::size_t size() const { return static_cast<std::size_t>(pos_ - begin_); }
  std::span<uint8_t> remaining() const { return {pos_, static_cast<std::size_t>(end_ - pos_)}; }
  uint8_t* at(std::size_t offset) const { return begin_ + offset; }
  bool overflow() const { return overflow_; }

 private:
  uint8_t* begin_;
  uint8_t* pos_;
  uint8_t* end_;
  bool overflow_ = false;
};

class CountingSink {
 public:
  static constexpr bool writes = false;
  uint8_t* reserve(std::size_t n) {
    count_ += n;
    return nullptr;
  }
  std::size_t size() const { return count_; }
  bool overflow() const { return false; }

 private:
  std::size_t count_ = 0;
};

template <class Sink>
class WriteWalker {
 public:
  static constexpr bool reading = false;
  explicit WriteWalker(Sink& sink) : sink_(sink) {}
  Sink& sink() { return sink_; }

  void u8(const char*, const uint8_t& v) { put(v); }
  void u16(const char*, const uint16_t& v) { put(v); }
  void u32(const char*, const uint32_t& v) { put(v); }
  void u64(const char*, const uint64_t& v) { put(v); }
  void i8(const char*, const int8_t& v) { put(v); }
  void i16(const char*, const int16_t& v) { put(v); }
  void i32(const char*, const int32_t& v) { put(v); }
  void i64(const char*, const int64_t& v) { put(v); }
  void f32(const char*, const float& v) { put(v); }
  void f64(const char*, const double& v) { put(v); }
  void boolean(const char*, const bool& v) { put(static_cast<uint8_t>(v ? 1 : 0)); }
  void varu32(const char*, const uint32_t& v) { put_varint(v); }
  void varu64(const char*, const uint64_t& v) { put_varint(v); }
  void str8(const char*, const std::string& v, std::size_t max) { put_string<uint8_t>(v, max); }
  void str16(const char*, const std::string& v, std::size_t max) { put_string<uint16_t>(v, max); }
  void hash16(const char*, const Hash16& v) { put_bytes(v.bytes.data(), 16); }
  void guid(const char*, const Guid& v) { put_bytes(v.bytes.data(), 16); }

  template <class E>
  void enum8(const char*, const E& v, const EnumDef& def) {
    const auto raw = static_cast<uint32_t>(v);
    TW_ASSERT(def.has(raw) && raw <= 0xff, "writing an enum value its definition does not have");
    put(static_cast<uint8_t>(raw));
  }
  template <class E>
  void enum32(const char*, const E& v, const EnumDef& def) {
    const auto raw = static_cast<uint32_t>(v);
    TW_ASSERT(def.has(raw), "writing an enum value its definition does not have");
    put(raw);
  }
  void flags8(const char*, const uint8_t& v, const FlagsDef& def) { put_flags(v, def); }
  void flags16(const char*, const uint16_t& v, const FlagsDef& def) { put_flags(v, def); }
  void flags32(const char*, const uint32_t& v, const FlagsDef& def) { put_flags(v, def); }

  template <class T>
  void shape(const char*, const T& v) {
    visit_fields(*this, const_cast<T&>(v));
  }
  template <class T>
  void optional(const char*, const std::optional<T>& v) {
    put(static_cast<uint8_t>(v ? 1 : 0));
    if (v) visit_fields(*this, const_cast<T&>(*v));
  }
  template <class List>
  void list8(const char*, const List& v, std::size_t min, std::size_t max) {
    put_list<uint8_t>(v, min, max);
  }
  template <class List>
  void list16(const char*, const List& v, std::size_t min, std::size_t max) {
    put_list<uint16_t>(v, min, max);
  }
  template <class T>
  void counted(const char*, const std::vector<T>& v, const char*, uint64_t count, std::size_t max) {
    TW_ASSERT(v.size() == count && count <= max, "a counted list must match its count field and cap");
    for (const T& e : v) visit_fields(*this, const_cast<T&>(e));
  }
  template <class Mask, class Body>
  void sparse(const char*, const Mask& mask, Body&& body) {
    put(mask);
    SparseView<WriteWalker> view(*this, mask);
    body(view);
  }
  template <class... Ts>
  void variant(const char*, const std::variant<Ts...>& v, const UnionDef& def) {
    TW_ASSERT(def.cases.size() == sizeof...(Ts), "a union definition must name every alternative");
    put(def.cases[v.index()].tag);
    std::visit([this](const auto& alt) { visit_fields(*this, const_cast<std::decay_t<decltype(alt)>&>(alt)); }, v);
  }
  template <class Body>
  void section(const char*, Body&& body) {
    uint8_t* length_at = sink_.reserve(2);
    const std::size_t start = sink_.size();
    body(*this);
    const std::size_t length = sink_.size() - start;
    TW_ASSERT(length <= 0xffff, "a section holds at most 65535 bytes");
    if (length_at) store_le<uint16_t>(length_at, static_cast<uint16_t>(length));
  }
  void tail() {}
  template <class Body>
  void bits(const char*, Body&& body) {
    if constexpr (Sink::writes) {
      BitWriter bw(sink_.remaining());
      BitWriteWalker walker(bw);
      body(walker);
      bw.align();
      if (bw.overflow()) {
        sink_.reserve(sink_.remaining().size() + 1);  // latch overflow
        return;
      }
      sink_.reserve(bw.bytes_written());
    } else {
      BitCountWalker walker;
      body(walker);
      sink_.reserve((walker.bits() + 7) / 8);
    }
  }
  void tokens(const char*, const std::vector<TokenPair>& pairs, const TokenTableDef& table, std::size_t max) {
    TW_ASSERT(pairs.size() <= max && max <= 0xffff, "token pairs over their cap");
    put(static_cast<uint16_t>(pairs.size()));
    for (const TokenPair& p : pairs) {
      TW_ASSERT(p.row < table.rows.size(), "a token pair names a row its table does not have");
      put(p.row);
      if (table.rows[p.row].kind == TokenKind::boolean) {
        put(static_cast<uint8_t>(p.value_bits ? 1 : 0));
      } else {
        put(p.value_bits);
      }
    }
  }

 private:
  template <class T>
  void put(T v) {
    uint8_t* at = sink_.reserve(sizeof(T));
    if constexpr (Sink::writes) {
      if (at) store_le(at, v);
    }
  }
  void put_bytes(const uint8_t* data, std::size_t n) {
    uint8_t* at = sink_.reserve(n);
    if constexpr (Sink::writes) {
      if (at) std::memcpy(at, data, n);
    }
  }
  void put_varint(uint64_t v) {
    uint8_t* at = sink_.reserve(varint_size(v));
    if constexpr (Sink::writes) {
      if (at) varint_write(v, at);
    }
  }
  template <class Len>
  void put_string(const std::string& v, std::size_t max) {
    TW_ASSERT(v.size() <= max && max <= static_cast<std::size_t>(static_cast<Len>(~Len{0})),
              "writing a string over its cap");
    put(static_cast<Len>(v.size()));
    put_bytes(reinterpret_cast<const uint8_t*>(v.data()), v.size());
  }
  template <class T>
  void put_flags(T v, const FlagsDef& def) {
    TW_ASSERT((static_cast<uint32_t>(v) & ~def.mask()) == 0, "writing flag bits the definition does not name");
    put(v);
  }
  template <class Len, class List>
  void put_list(const List& v, std::size_t min, std::size_t max) {
    using T = typename List::value_type;
    TW_ASSERT(v.size() >= min && v.size() <= max, "writing a list outside its count bounds");
    put(static_cast<Len>(v.size()));
    for (const T& e : v) visit_fields(*this, const_cast<T&>(e));
  }

  Sink& sink_;
};

}  // namespace tickwire::wire
