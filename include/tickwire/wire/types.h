// The value types and static definitions the field tables name: 16-byte hashes and guids,
// quantization specs, quaternions, and the constexpr definitions of enums, flag sets, unions and
// token tables. A definition carries the names the schema spells, so pairing is by name.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>

namespace tickwire::wire {

struct Hash16 {
  std::array<uint8_t, 16> bytes{};
  friend bool operator==(const Hash16&, const Hash16&) = default;
};

struct Guid {
  std::array<uint8_t, 16> bytes{};
  friend bool operator==(const Guid&, const Guid&) = default;
};

struct Quat {
  float x = 0, y = 0, z = 0, w = 1;
  friend bool operator==(const Quat&, const Quat&) = default;
};

// A quantized float: values in [min, max] at `resolution`; steps = round((max-min)/resolution).
// Steps and bits are computed once, at construction (at compile time for constexpr specs).
struct QuantSpec {
  constexpr QuantSpec(double min_value, double max_value, double resolution_value)
      : min(min_value), max(max_value), resolution(resolution_value),
        steps_(static_cast<uint64_t>((max_value - min_value) / resolution_value + 0.5)) {
    unsigned n = 1;
    while (n < 64 && (steps_ >> n) != 0) ++n;
    bits_ = n;
  }
  constexpr uint64_t steps() const { return steps_; }
  constexpr unsigned bits() const { return bits_; }  // bits needed for an index in [0, steps]

  double min;
  double max;
  double resolution;

 private:
  uint64_t steps_;
  unsigned bits_ = 1;
};

struct NamedValue {
  std::string_view name;
  uint32_t value;  // enum: member value; flags: bit index
};

// An enum whose members pair by name: the schema spells `enum Name { member = value; ... }`.
struct EnumDef {
  std::string_view name;
  std::span<const NamedValue> members;
  bool has(uint32_t value) const {
    for (const auto& m : members)
      if (m.value == value) return true;
    return false;
  }
  // The member's name, or "" for a value the definition lacks.
  std::string_view name_of(uint32_t value) const {
    for (const auto& m : members)
      if (m.value == value) return m.name;
    return {};
  }
};

// A set of named bits: `flags Name { bit = index; ... }`. Unnamed bits are refused on read.
struct FlagsDef {
  std::string_view name;
  std::span<const NamedValue> bits;
  uint32_t mask() const {
    uint32_t m = 0;
    for (const auto& b : bits) m |= 1u << b.value;
    return m;
  }
};

// A tagged union's cases, in the order of the std::variant alternatives that hold them.
struct UnionCase {
  uint8_t tag;
  std::string_view name;
};
struct UnionDef {
  std::string_view name;
  std::span<const UnionCase> cases;
};

// A token table: rows named by token, each with a scalar kind. A pair list names rows by index;
// a peer's index is mapped to ours through the token (seed 000's material rows).
enum class TokenKind : uint8_t { f32, u32, i32, boolean };
struct TokenRow {
  std::string_view token;
  TokenKind kind;
};
struct TokenTableDef {
  std::string_view name;
  std::span<const TokenRow> rows;
};
// One (row, value) pair; the value's bits are read per the row's kind (f32 as its IEEE bits).
struct TokenPair {
  uint16_t row = 0;
  uint32_t value_bits = 0;
  friend bool operator==(const TokenPair&, const TokenPair&) = default;
};

std::string_view token_kind_name(TokenKind kind);
unsigned token_kind_bytes(TokenKind kind);

// Limits every walker enforces.
inline constexpr unsigned kMaxNestingDepth = 16;
inline constexpr std::size_t kMaxStr8Bytes = 255;
inline constexpr std::size_t kMaxStr16Bytes = 65535;

}  // namespace tickwire::wire
