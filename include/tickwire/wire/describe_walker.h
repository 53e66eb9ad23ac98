// The describe mode of a field table: each visit appends the field's canonical schema line, and
// every named type it meets (shape, enum, flag set, union, token table) is registered once with
// the SchemaBuilder, which assembles the canonical text of the whole protocol. The walk runs over
// a default-constructed sample of each shape, and records its non-zero scalar values beside the
// text (ShapeDefaults: not part of the text) for plans reading another build.
#pragma once

#include <bit>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "tickwire/core/assert.h"
#include "tickwire/wire/shape.h"
#include "tickwire/wire/shape_defaults.h"
#include "tickwire/wire/types.h"

namespace tickwire::wire {

enum class Direction : uint8_t { client_to_server = 1, server_to_client = 2, both = 3 };
std::string_view direction_name(Direction d);

std::string format_number(double v);  // shortest text that reads back to the same double

class SchemaBuilder;

// Where a walk records the defaults of the shape it describes (no shape: a message's own walk).
struct DefaultsSink {
  SchemaBuilder* builder = nullptr;
  std::string_view shape;
  using Kind = FieldDefault::Kind;
  void keep(const char* field, Kind kind, uint64_t bits, bool even_zero = false) const;
  void keep_bytes(const char* field, Kind kind, const void* data, std::size_t size) const;
};

class BitDescribeWalker {
 public:
  static constexpr bool reading = false;
  BitDescribeWalker(std::string& out, int indent, DefaultsSink defaults)
      : out_(out), indent_(indent), defaults_(defaults) {}
  void ubits(const char* n, const uint32_t& v, unsigned bits) {
    line(n, "ubits(" + std::to_string(bits) + ")");
    defaults_.keep(n, DefaultsSink::Kind::unsigned_int, v);
  }
  void bit(const char* n, const bool& v) {
    line(n, "bit");
    defaults_.keep(n, DefaultsSink::Kind::boolean, v ? 1 : 0);
  }
  template <class F>
  void quant(const char* n, const F& v, const QuantSpec& s) {
    line(n, "quant(" + format_number(s.min) + ", " + format_number(s.max) + ", " + format_number(s.resolution) + ")");
    defaults_.keep(n, DefaultsSink::Kind::real64, std::bit_cast<uint64_t>(static_cast<double>(v)));
  }
  // A quaternion's default is the identity, as the plan's zero is.
  void quat(const char* n, const Quat&, unsigned bits) { line(n, "quat(" + std::to_string(bits) + ")"); }

 private:
  void line(const char* name, const std::string& type);
  std::string& out_;
  int indent_;
  DefaultsSink defaults_;
};

class DescribeWalker {
 public:
  static constexpr bool reading = false;
  DescribeWalker(SchemaBuilder& builder, std::string& out, int indent, std::string_view shape = {})
      : builder_(builder), out_(out), indent_(indent), defaults_{&builder, shape} {}

  void u8(const char* n, const uint8_t& v) { integer_line(n, "u8", v); }
  void u16(const char* n, const uint16_t& v) { integer_line(n, "u16", v); }
  void u32(const char* n, const uint32_t& v) { integer_line(n, "u32", v); }
  void u64(const char* n, const uint64_t& v) { integer_line(n, "u64", v); }
  void i8(const char* n, const int8_t& v) { integer_line(n, "i8", v); }
  void i16(const char* n, const int16_t& v) { integer_line(n, "i16", v); }
  void i32(const char* n, const int32_t& v) { integer_line(n, "i32", v); }
  void i64(const char* n, const int64_t& v) { integer_line(n, "i64", v); }
  void f32(const char* n, const float& v) {
    line(n, "f32");
    defaults_.keep(n, DefaultsSink::Kind::real32, std::bit_cast<uint32_t>(v));
  }
  void f64(const char* n, const double& v) {
    line(n, "f64");
    defaults_.keep(n, DefaultsSink::Kind::real64, std::bit_cast<uint64_t>(v));
  }
  void boolean(const char* n, const bool& v) {
    line(n, "bool");
    defaults_.keep(n, DefaultsSink::Kind::boolean, v ? 1 : 0);
  }
  void varu32(const char* n, const uint32_t& v) { integer_line(n, "varu32", v); }
  void varu64(const char* n, const uint64_t& v) { integer_line(n, "varu64", v); }
  void str8(const char* n, const std::string& v, std::size_t max) { text_line(n, "str8", v, max); }
  void str16(const char* n, const std::string& v, std::size_t max) { text_line(n, "str16", v, max); }
  void hash16(const char* n, const Hash16& v) {
    line(n, "hash16");
    defaults_.keep_bytes(n, DefaultsSink::Kind::bytes16, v.bytes.data(), v.bytes.size());
  }
  void guid(const char* n, const Guid& v) {
    line(n, "guid");
    defaults_.keep_bytes(n, DefaultsSink::Kind::bytes16, v.bytes.data(), v.bytes.size());
  }
  template <class E>
  void enum8(const char* n, const E& v, const EnumDef& def) {
    line(n, "enum8(" + add_enum(def) + ")");
    defaults_.keep(n, DefaultsSink::Kind::enumeration, static_cast<uint32_t>(v), true);
  }
  template <class E>
  void enum32(const char* n, const E& v, const EnumDef& def) {
    line(n, "enum32(" + add_enum(def) + ")");
    defaults_.keep(n, DefaultsSink::Kind::enumeration, static_cast<uint32_t>(v), true);
  }
  void flags8(const char* n, const uint8_t& v, const FlagsDef& def) { flags_line(n, "flags8", v, def); }
  void flags16(const char* n, const uint16_t& v, const FlagsDef& def) { flags_line(n, "flags16", v, def); }
  void flags32(const char* n, const uint32_t& v, const FlagsDef& def) { flags_line(n, "flags32", v, def); }

  template <class T>
  void shape(const char* n, const T&) {
    line(n, add_shape<T>());
  }
  template <class T>
  void optional(const char* n, const std::optional<T>&) {
    line(n, "optional(" + add_shape<T>() + ")");
  }
  template <class List>
  void list8(const char* n, const List&, std::size_t min, std::size_t max) {
    line(n, "list8(" + add_shape<typename List::value_type>() + ", " + std::to_string(min) + ", " + std::to_string(max) + ")");
  }
  template <class List>
  void list16(const char* n, const List&, std::size_t min, std::size_t max) {
    line(n, "list16(" + add_shape<typename List::value_type>() + ", " + std::to_string(min) + ", " + std::to_string(max) + ")");
  }
  template <class T>
  void counted(const char* n, const std::vector<T>&, const char* count_field, uint64_t, std::size_t max) {
    line(n, "counted(" + add_shape<T>() + ", " + count_field + ", " + std::to_string(max) + ")");
  }
  template <class Mask, class Body>
  void sparse(const char* n, const Mask&, Body&& body) {
    static_assert(sizeof(Mask) == 1 || sizeof(Mask) == 2 || sizeof(Mask) == 4 || sizeof(Mask) == 8);
    std::string inner;
    DescribeWalker sub(builder_, inner, indent_ + 1, defaults_.shape);
    body(sub);
    block(n, "sparse" + std::to_string(sizeof(Mask) * 8), inner);
  }
  template <class... Ts>
  void variant(const char* n, const std::variant<Ts...>&, const UnionDef& def);
  template <class Body>
  void section(const char* n, Body&& body) {
    std::string inner;
    DescribeWalker sub(builder_, inner, indent_ + 1, defaults_.shape);
    body(sub);
    block(n, "section", inner);
  }
  void tail();
  template <class Body>
  void bits(const char* n, Body&& body) {
    std::string inner;
    BitDescribeWalker sub(inner, indent_ + 1, defaults_);
    body(sub);
    block(n, "bits", inner);
  }
  void tokens(const char* n, const std::vector<TokenPair>&, const TokenTableDef& table, std::size_t max) {
    line(n, "tokens(" + add_tokens(table) + ", " + std::to_string(max) + ")");
  }

  template <class T>
  std::string add_shape();

 private:
  template <class I>
  void integer_line(const char* n, const char* type, I v) {
    line(n, type);
    defaults_.keep(n, std::is_signed_v<I> ? DefaultsSink::Kind::signed_int : DefaultsSink::Kind::unsigned_int,
                   static_cast<uint64_t>(v));
  }
  void text_line(const char* n, const char* type, const std::string& v, std::size_t max) {
    line(n, std::string(type) + "(" + std::to_string(max) + ")");
    defaults_.keep_bytes(n, DefaultsSink::Kind::text, v.data(), v.size());
  }
  void flags_line(const char* n, const char* type, uint32_t v, const FlagsDef& def) {
    line(n, std::string(type) + "(" + add_flags(def) + ")");
    defaults_.keep(n, DefaultsSink::Kind::flags, v);
  }
  void line(const char* name, const std::string& type);
  void block(const char* name, const std::string& keyword, const std::string& inner);
  std::string add_enum(const EnumDef& def);
  std::string add_flags(const FlagsDef& def);
  std::string add_tokens(const TokenTableDef& def);

  SchemaBuilder& builder_;
  std::string& out_;
  int indent_;
  DefaultsSink defaults_;
};

// Collects named definitions and messages, and prints the canonical schema text: the header,
// then enums, flag sets, token tables, shapes and unions (each sorted by name), then messages
// ordered by id. The text is the protocol; its BLAKE2b-128 hash names it.
class SchemaBuilder {
 public:
  enum class Kind : uint8_t { enumeration = 0, flags, tokens, shape, union_, count_ };

  // Starts a definition; false when `name` is already defined (or being defined) with this kind.
  bool begin(Kind kind, std::string_view name);
  void finish(Kind kind, std::string_view name, std::string text);
  void add_message(uint8_t id, Direction direction, std::string_view name, std::string_view shape);
  template <class T>
  void add_message(uint8_t id, Direction direction, std::string_view name) {
    std::string unused;
    DescribeWalker walker(*this, unused, 0);
    add_message(id, direction, name, walker.add_shape<T>());
  }
  std::string text() const;
  // What each described shape holds before a walk (its sample's non-zero scalars).
  ShapeDefaults& defaults() { return defaults_; }
  const ShapeDefaults& defaults() const { return defaults_; }

 private:
  std::map<std::string, std::string, std::less<>> defs_[static_cast<int>(Kind::count_)];
  ShapeDefaults defaults_;
  std::map<std::pair<uint8_t, Direction>, std::string> messages_;
};

template <class T>
std::string DescribeWalker::add_shape() {
  static_assert(NamedShape<T>, "a nested shape needs a static wire_name");
  const std::string name(T::wire_name);
  if (builder_.begin(SchemaBuilder::Kind::shape, name)) {
    std::string inner;
    DescribeWalker sub(builder_, inner, 1, T::wire_name);
    T sample{};
    visit_fields(sub, sample);
    builder_.finish(SchemaBuilder::Kind::shape, name, "shape " + name + " {\n" + inner + "}\n");
  }
  return name;
}

template <class... Ts>
void DescribeWalker::variant(const char* n, const std::variant<Ts...>&, const UnionDef& def) {
  TW_ASSERT(def.cases.size() == sizeof...(Ts), "a union definition must name every alternative");
  const std::string name(def.name);
  if (builder_.begin(SchemaBuilder::Kind::union_, name)) {
    std::vector<std::string> shapes{add_shape<Ts>()...};
    std::string text = "union " + name + " {\n";
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      text += "  " + std::to_string(def.cases[i].tag) + " " + std::string(def.cases[i].name) + " " + shapes[i] + ";\n";
    }
    builder_.finish(SchemaBuilder::Kind::union_, name, text + "}\n");
  }
  line(n, "union(" + name + ")");
}

}  // namespace tickwire::wire
