// A fixed-capacity FIFO: every queue in tickwire has a cap, and this is the cap made structural.
// push() refuses when full (the caller decides: drop and count, or disconnect); no allocation.
#pragma once

#include <array>
#include <cstddef>
#include <utility>

#include "tickwire/core/assert.h"

namespace tickwire {

template <class T, std::size_t Capacity>
class RingBuffer {
  static_assert(Capacity > 0, "a ring needs room for one element");

 public:
  static constexpr std::size_t capacity() { return Capacity; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ == Capacity; }

  // Returns false (and stores nothing) when the ring is full.
  [[nodiscard]] bool push(T value) {
    if (full()) return false;
    items_[(head_ + size_) % Capacity] = std::move(value);
    ++size_;
    return true;
  }
  T& front() {
    TW_ASSERT(!empty(), "front() of an empty ring");
    return items_[head_];
  }
  const T& front() const {
    TW_ASSERT(!empty(), "front() of an empty ring");
    return items_[head_];
  }
  T& back() {
    TW_ASSERT(!empty(), "back() of an empty ring");
    return items_[(head_ + size_ - 1) % Capacity];
  }
  T pop() {
    TW_ASSERT(!empty(), "pop() of an empty ring");
    T value = std::move(items_[head_]);
    head_ = (head_ + 1) % Capacity;
    --size_;
    return value;
  }
  // i = 0 is the oldest element.
  T& operator[](std::size_t i) {
    TW_ASSERT(i < size_, "ring index out of range");
    return items_[(head_ + i) % Capacity];
  }
  const T& operator[](std::size_t i) const {
    TW_ASSERT(i < size_, "ring index out of range");
    return items_[(head_ + i) % Capacity];
  }
  void clear() {
    head_ = 0;
    size_ = 0;
  }

 private:
  std::array<T, Capacity> items_{};
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace tickwire
