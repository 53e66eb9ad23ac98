// The contract's field-table helpers: one call states a contract field's wire form and its rule
// (a number's range, a string's cap and whether it may be empty, a list's cap), so adding a field
// is one edit that reaches the wire, the canonical JSON, the validation and the hash. A wire
// walker sees the plain field (w.u32, w.str8, w.list8); a contract walker sees the rule as well.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tickwire/core/assert.h"

namespace tickwire {

// Whether a contract string may be empty.
enum class Presence : uint8_t { optional, required };

// A contract walker (contract_json_walker.h, contract_validation_walker.h) implements
//   integer(name, uint64_t value, uint64_t lo, uint64_t hi)
//   real(name, double value, double lo, double hi)
//   text(name, const std::string& value, std::size_t max_bytes, Presence)
//   list(name, std::vector<T>& elements, std::size_t max_count)
// and, as wire walkers do, boolean(name, v), enum8(name, v, EnumDef) and shape(name, v). It has no
// plain u32 or str8: a contract field written without its rule does not compile.
template <class W>
concept ContractWalker = requires(W& w) { w.integer("", uint64_t{}, uint64_t{}, uint64_t{}); };

template <class W>
void contract_u8(W& w, const char* name, uint8_t& v, uint8_t lo, uint8_t hi) {
  if constexpr (ContractWalker<W>) w.integer(name, v, lo, hi);
  else w.u8(name, v);
}

template <class W>
void contract_u16(W& w, const char* name, uint16_t& v, uint16_t lo, uint16_t hi) {
  if constexpr (ContractWalker<W>) w.integer(name, v, lo, hi);
  else w.u16(name, v);
}

template <class W>
void contract_u32(W& w, const char* name, uint32_t& v, uint32_t lo, uint32_t hi) {
  if constexpr (ContractWalker<W>) w.integer(name, v, lo, hi);
  else w.u32(name, v);
}

template <class W>
void contract_f32(W& w, const char* name, float& v, double lo, double hi) {
  if constexpr (ContractWalker<W>) w.real(name, static_cast<double>(v), lo, hi);
  else w.f32(name, v);
}

template <class W>
void contract_f64(W& w, const char* name, double& v, double lo, double hi) {
  if constexpr (ContractWalker<W>) w.real(name, v, lo, hi);
  else w.f64(name, v);
}

template <class W>
void contract_str8(W& w, const char* name, std::string& v, std::size_t max_bytes, Presence presence) {
  if constexpr (ContractWalker<W>) w.text(name, v, max_bytes, presence);
  else w.str8(name, v, max_bytes);
}

// A list of contract shapes, at most `max_count` (<= 255: the wire counts it in a byte).
template <class W, class T>
void contract_list8(W& w, const char* name, std::vector<T>& v, std::size_t max_count) {
  TW_ASSERT(max_count <= 0xff, "a contract list8 is counted in one byte");
  if constexpr (ContractWalker<W>) w.list(name, v, max_count);
  else w.list8(name, v, 0, max_count);
}

}  // namespace tickwire
