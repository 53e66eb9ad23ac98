// The read mode of a field table: bounds-checked against the innermost length (the message or an
// enclosing section), never trusting a count or length, latching the first error with the field
// that caused it. After an error every later visit is a no-op, so a hostile packet costs a few
// comparisons and no allocation beyond a list's declared maximum.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "tickwire/core/bit_reader.h"
#include "tickwire/core/bytes.h"
#include "tickwire/core/status.h"
#include "tickwire/core/varint.h"
#include "tickwire/wire/bit_walkers.h"
#include "tickwire/wire/shape.h"
#include "tickwire/wire/sparse_view.h"
#include "tickwire/wire/types.h"
#include "tickwire/wire/utf8.h"

namespace tickwire::wire {

class ReadWalker {
 public:
  static constexpr bool reading = true;
  explicit ReadWalker(std::span<const uint8_t> in) : begin_(in.data()), pos_(in.data()), limit_(in.data() + in.size()) {}

  Error error() const { return error_; }
  const char* error_field() const { return error_field_; }
  bool ok() const { return error_ == Error::ok; }
  std::size_t consumed() const { return static_cast<std::size_t>(pos_ - begin_); }
  std::size_t remaining() const { return static_cast<std::size_t>(limit_ - pos_); }

  void u8(const char* n, uint8_t& v) { get(n, v); }
  void u16(const char* n, uint16_t& v) { get(n, v); }
  void u32(const char* n, uint32_t& v) { get(n, v); }
  void u64(const char* n, uint64_t& v) { get(n, v); }
  void i8(const char* n, int8_t& v) { get(n, v); }
  void i16(const char* n, int16_t& v) { get(n, v); }
  void i32(const char* n, int32_t& v) { get(n, v); }
  void i64(const char* n, int64_t& v) { get(n, v); }
  void f32(const char* n, float& v) { get(n, v); }
  void f64(const char* n, double& v) { get(n, v); }
  void boolean(const char* n, bool& v) {
    uint8_t raw = 0;
    if (!get(n, raw)) return;
    if (raw > 1) return fail(n, Error::invalid_presence);
    v = raw != 0;
  }
  void varu32(const char* n, uint32_t& v) {
    uint64_t wide = 0;
    if (get_varint(n, wide, 32)) v = static_cast<uint32_t>(wide);
  }
  void varu64(const char* n, uint64_t& v) { get_varint(n, v, 64); }
  void str8(const char* n, std::string& v, std::size_t max) { get_string<uint8_t>(n, v, max); }
  void str16(const char* n, std::string& v, std::size_t max) { get_string<uint16_t>(n, v, max); }
  void hash16(const char* n, Hash16& v) { get_bytes(n, v.bytes.data(), 16); }
  void guid(const char* n, Guid& v) { get_bytes(n, v.bytes.data(), 16); }

  template <class E>
  void enum8(const char* n, E& v, const EnumDef& def) {
    uint8_t raw = 0;
    if (get(n, raw)) set_enum(n, v, raw, def);
  }
  template <class E>
  void enum32(const char* n, E& v, const EnumDef& def) {
    uint32_t raw = 0;
    if (get(n, raw)) set_enum(n, v, raw, def);
  }
  void flags8(const char* n, uint8_t& v, const FlagsDef& def) { get_flags(n, v, def); }
  void flags16(const char* n, uint16_t& v, const FlagsDef& def) { get_flags(n, v, def); }
  void flags32(const char* n, uint32_t& v, const FlagsDef& def) { get_flags(n, v, def); }

  template <class T>
  void shape(const char* n, T& v) {
    if (stopped()) return;
    if (!enter(n)) return;
    visit_fields(*this, v);
    --depth_;
  }
  template <class T>
  void optional(const char* n, std::optional<T>& v) {
    bool present = false;
    boolean(n, present);
    if (stopped()) return;
    if (!present) {
      v.reset();
      return;
    }
    if (!v) v.emplace();
    shape(n, *v);
  }
  template <class List>
  void list8(const char* n, List& v, std::size_t min, std::size_t max) {
    uint8_t count = 0;
    if (get(n, count)) get_elements(n, v, count, min, max);
  }
  template <class List>
  void list16(const char* n, List& v, std::size_t min, std::size_t max) {
    uint16_t count = 0;
    if (get(n, count)) get_elements(n, v, count, min, max);
  }
  template <class T>
  void counted(const char* n, std::vector<T>& v, const char*, uint64_t count, std::size_t max) {
    if (stopped()) return;
    get_elements(n, v, count, 0, max);
  }
  template <class Mask, class Body>
  void sparse(const char* n, Mask& mask, Body&& body) {
    if (!get(n, mask)) return;
    SparseView<ReadWalker> view(*this, mask);
    body(view);
    if (!sparse_mask_fits(mask, view.members())) fail(n, Error::unknown_flag_bits);
  }
  template <class... Ts>
  void variant(const char* n, std::variant<Ts...>& v, const UnionDef& def) {
    uint8_t tag = 0;
    if (!get(n, tag)) return;
    std::size_t index = def.cases.size();
    for (std::size_t i = 0; i < def.cases.size(); ++i)
      if (def.cases[i].tag == tag) index = i;
    if (index >= sizeof...(Ts)) return fail(n, Error::unknown_union_tag);
    emplace_alternative(v, index, std::index_sequence_for<Ts...>{});
    if (!enter(n)) return;
    std::visit([this](auto& alt) { visit_fields(*this, alt); }, v);
    --depth_;
  }
  template <class Body>
  void section(const char* n, Body&& body) {
    uint16_t length = 0;
    if (!get(n, length)) return;
    if (length > remaining()) return fail(n, Error::length_past_end);
    const uint8_t* outer_limit = limit_;
    const bool outer_ended = ended_;
    limit_ = pos_ + length;
    body(*this);
    // Bytes a newer writer added at the end of the section are stepped over.
    if (!failed()) pos_ = limit_;
    limit_ = outer_limit;
    ended_ = outer_ended;
  }
  // An older writer's packet may end here: with nothing left in the current scope, every later
  // field keeps the value it had before the walk.
  void tail() {
    if (!failed() && pos_ == limit_) ended_ = true;
  }
  template <class Body>
  void bits(const char* n, Body&& body) {
    if (stopped()) return;
    BitReader br(std::span<const uint8_t>(pos_, remaining()));
    BitReadWalker walker(br);
    body(walker);
    if (walker.error() != Error::ok) return fail(n, walker.error());
    if (!br.align()) return fail(n, Error::value_out_of_range);
    pos_ += br.bytes_read();
  }
  void tokens(const char* n, std::vector<TokenPair>& pairs, const TokenTableDef& table, std::size_t max) {
    uint16_t count = 0;
    if (!get(n, count)) return;
    if (count > max) return fail(n, Error::count_over_max);
    if (count * std::size_t{3} > remaining()) return fail(n, Error::truncated);
    pairs.resize(count);
    for (TokenPair& p : pairs) {
      if (!get(n, p.row)) return;
      if (p.row >= table.rows.size()) return fail(n, Error::invalid_token);
      if (table.rows[p.row].kind == TokenKind::boolean) {
        bool b = false;
        boolean(n, b);
        p.value_bits = b ? 1 : 0;
      } else {
        get(n, p.value_bits);
      }
    }
  }

  void fail(const char* field, Error e) {
    if (error_ != Error::ok) return;
    error_ = e;
    error_field_ = field;
  }

 private:
  bool failed() const { return error_ != Error::ok; }
  bool stopped() const { return failed() || ended_; }
  bool enter(const char* n) {
    if (++depth_ > kMaxNestingDepth) {
      --depth_;
      fail(n, Error::nesting_too_deep);
      return false;
    }
    return true;
  }
  template <class T>
  bool get(const char* n, T& v) {
    if (stopped()) return false;
    if (remaining() < sizeof(T)) {
      fail(n, Error::truncated);
      return false;
    }
    v = load_le<T>(pos_);
    pos_ += sizeof(T);
    return true;
  }
  bool get_bytes(const char* n, uint8_t* out, std::size_t count) {
    if (stopped()) return false;
    if (remaining() < count) {
      fail(n, Error::truncated);
      return false;
    }
    std::memcpy(out, pos_, count);
    pos_ += count;
    return true;
  }
  bool get_varint(const char* n, uint64_t& v, unsigned max_bits) {
    if (stopped()) return false;
    std::size_t used = 0;
    const Status s = varint_read(std::span<const uint8_t>(pos_, remaining()), max_bits, v, used);
    if (!s) {
      fail(n, s.error());
      return false;
    }
    pos_ += used;
    return true;
  }
  template <class Len>
  void get_string(const char* n, std::string& v, std::size_t max) {
    Len length = 0;
    if (!get(n, length)) return;
    if (length > max) return fail(n, Error::string_over_cap);
    if (length > remaining()) return fail(n, Error::truncated);
    const auto* chars = reinterpret_cast<const char*>(pos_);
    if (!is_valid_utf8(std::string_view(chars, length))) return fail(n, Error::invalid_utf8);
    v.assign(chars, length);
    pos_ += length;
  }
  template <class E, class Raw>
  void set_enum(const char* n, E& v, Raw raw, const EnumDef& def) {
    if (!def.has(raw)) return fail(n, Error::unknown_enum_value);
    v = static_cast<E>(raw);
  }
  template <class T>
  void get_flags(const char* n, T& v, const FlagsDef& def) {
    T raw = 0;
    if (!get(n, raw)) return;
    if ((static_cast<uint32_t>(raw) & ~def.mask()) != 0) return fail(n, Error::unknown_flag_bits);
    v = raw;
  }
  template <class List>
  void get_elements(const char* n, List& v, uint64_t count, std::size_t min, std::size_t max) {
    using T = typename List::value_type;
    if (count > max) return fail(n, Error::count_over_max);
    if (count < min) return fail(n, Error::count_under_min);
    if (!enter(n)) return;
    v.resize(static_cast<std::size_t>(count));
    for (T& e : v) {
      visit_fields(*this, e);
      if (failed()) break;
    }
    --depth_;
  }
  template <class V, std::size_t... I>
  static void emplace_alternative(V& v, std::size_t index, std::index_sequence<I...>) {
    ((index == I ? (v.index() == I ? void() : void(v.template emplace<I>())) : void()), ...);
  }

  const uint8_t* begin_;
  const uint8_t* pos_;
  const uint8_t* limit_;
  Error error_ = Error::ok;
  const char* error_field_ = "";
  unsigned depth_ = 0;
  bool ended_ = false;
};

}  // namespace tickwire::wire
