// A sparse set: a presence mask, then only the members whose bit is set, in visit order (bit i is
// the i-th member visited). SparseView wraps any walker and forwards a member's visit only when
// its bit is set, so the same field table body serves write, read and measure.
#pragma once

#include <cstdint>
#include <utility>

namespace tickwire::wire {

template <class W>
class SparseView {
 public:
  static constexpr bool reading = W::reading;
  SparseView(W& inner, uint64_t mask) : inner_(inner), mask_(mask) {}
  // Members visited so far (present or not).
  unsigned members() const { return bit_; }

#define TW_SPARSE_FORWARD(method)                          \
  template <class... A>                                    \
  void method(const char* name, A&&... args) {             \
    if (take()) inner_.method(name, std::forward<A>(args)...); \
  }
  TW_SPARSE_FORWARD(u8)
  TW_SPARSE_FORWARD(u16)
  TW_SPARSE_FORWARD(u32)
  TW_SPARSE_FORWARD(u64)
  TW_SPARSE_FORWARD(i8)
  TW_SPARSE_FORWARD(i16)
  TW_SPARSE_FORWARD(i32)
  TW_SPARSE_FORWARD(i64)
  TW_SPARSE_FORWARD(f32)
  TW_SPARSE_FORWARD(f64)
  TW_SPARSE_FORWARD(boolean)
  TW_SPARSE_FORWARD(varu32)
  TW_SPARSE_FORWARD(varu64)
  TW_SPARSE_FORWARD(str8)
  TW_SPARSE_FORWARD(str16)
  TW_SPARSE_FORWARD(hash16)
  TW_SPARSE_FORWARD(guid)
  TW_SPARSE_FORWARD(enum8)
  TW_SPARSE_FORWARD(enum32)
  TW_SPARSE_FORWARD(flags8)
  TW_SPARSE_FORWARD(flags16)
  TW_SPARSE_FORWARD(flags32)
  TW_SPARSE_FORWARD(shape)
  TW_SPARSE_FORWARD(optional)
  TW_SPARSE_FORWARD(list8)
  TW_SPARSE_FORWARD(list16)
  TW_SPARSE_FORWARD(variant)
  TW_SPARSE_FORWARD(section)
  TW_SPARSE_FORWARD(bits)
  TW_SPARSE_FORWARD(tokens)
#undef TW_SPARSE_FORWARD

 private:
  bool take() {
    const bool present = bit_ < 64 && ((mask_ >> bit_) & 1u) != 0;
    ++bit_;
    return present;
  }
  W& inner_;
  uint64_t mask_;
  unsigned bit_ = 0;
};

// True when mask names no member beyond the `members` the body visited.
inline bool sparse_mask_fits(uint64_t mask, unsigned members) { return members >= 64 || (mask >> members) == 0; }

}  // namespace tickwire::wire
