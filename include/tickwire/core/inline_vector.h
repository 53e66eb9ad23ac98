// InlineVector: a list of at most N elements stored in place, for the short lists a hot path copies
// every tick (a pawn's values in each owner detail): no allocation, ever. It reads and writes
// through the field-table walkers as a list8 like a std::vector does.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "tickwire/core/assert.h"

namespace tickwire {

template <class T, std::size_t N>
class InlineVector {
  static_assert(N <= 255, "an inline list is counted in one byte");

 public:
  using value_type = T;

  InlineVector() = default;
  InlineVector(std::initializer_list<T> items) {
    for (const T& item : items) push_back(item);
  }

  static constexpr std::size_t capacity() { return N; }
  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  void clear() { count_ = 0; }
  // Growing fills the new elements with T{}; past the capacity is a programmer error.
  void resize(std::size_t n) {
    TW_ASSERT(n <= N, "an inline list past its capacity");
    for (std::size_t i = count_; i < n; ++i) items_[i] = T{};
    count_ = static_cast<uint8_t>(n);
  }
  void push_back(const T& item) {
    TW_ASSERT(count_ < N, "an inline list past its capacity");
    items_[count_++] = item;
  }
  T& operator[](std::size_t i) {
    TW_ASSERT(i < count_, "an inline list index past its size");
    return items_[i];
  }
  const T& operator[](std::size_t i) const {
    TW_ASSERT(i < count_, "an inline list index past its size");
    return items_[i];
  }
  T* begin() { return items_.data(); }
  T* end() { return items_.data() + count_; }
  const T* begin() const { return items_.data(); }
  const T* end() const { return items_.data() + count_; }

  friend bool operator==(const InlineVector& a, const InlineVector& b) {
    if (a.count_ != b.count_) return false;
    for (std::size_t i = 0; i < a.count_; ++i) {
      if (!(a.items_[i] == b.items_[i])) return false;
    }
    return true;
  }

 private:
  std::array<T, N> items_{};
  uint8_t count_ = 0;
};

}  // namespace tickwire
