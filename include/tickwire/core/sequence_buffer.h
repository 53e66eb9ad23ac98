// A window of the most recent entries keyed by 16-bit wrapping sequence number (sent-packet
// records, received-packet flags, per-packet ack state). Fixed capacity; an entry older than the
// window is simply absent. Inserting a newer sequence clears the slots it skips over.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "tickwire/core/sequence.h"

namespace tickwire {

template <class T, std::size_t Capacity>
class SequenceBuffer {
  static_assert(Capacity > 0 && Capacity <= 32768, "window must be within half the sequence space");

 public:
  static constexpr std::size_t capacity() { return Capacity; }

  // The newest sequence ever inserted + 1 (the next expected), meaningful once something was inserted.
  uint16_t next_sequence() const { return next_; }

  // Inserts (or overwrites) the entry for `sequence` and returns it, or nullptr when `sequence`
  // is too old for the window.
  T* insert(uint16_t sequence) {
    if (!started_) {
      started_ = true;
      next_ = sequence;
    }
    if (sequence_less_than(sequence, next_)) {
      if (sequence_difference(next_, sequence) > static_cast<int32_t>(Capacity)) return nullptr;
    } else {
      clear_range(next_, sequence);
      next_ = static_cast<uint16_t>(sequence + 1);
    }
    const std::size_t i = sequence % Capacity;
    valid_[i] = true;
    keys_[i] = sequence;
    entries_[i] = T{};
    return &entries_[i];
  }
  T* find(uint16_t sequence) {
    const std::size_t i = sequence % Capacity;
    return (valid_[i] && keys_[i] == sequence) ? &entries_[i] : nullptr;
  }
  const T* find(uint16_t sequence) const {
    const std::size_t i = sequence % Capacity;
    return (valid_[i] && keys_[i] == sequence) ? &entries_[i] : nullptr;
  }
  bool contains(uint16_t sequence) const { return find(sequence) != nullptr; }
  void remove(uint16_t sequence) {
    const std::size_t i = sequence % Capacity;
    if (valid_[i] && keys_[i] == sequence) valid_[i] = false;
  }
  void reset() {
    valid_.fill(false);
    started_ = false;
    next_ = 0;
  }

 private:
  // Invalidates every slot for sequences in [from, to] (wrapping), at most the whole window.
  void clear_range(uint16_t from, uint16_t to) {
    const auto span = static_cast<uint32_t>(static_cast<uint16_t>(to - from)) + 1;
    if (span >= Capacity) {
      valid_.fill(false);
      return;
    }
    for (uint32_t k = 0; k < span; ++k) valid_[static_cast<uint16_t>(from + k) % Capacity] = false;
  }

  std::array<T, Capacity> entries_{};
  std::array<uint16_t, Capacity> keys_{};
  std::array<bool, Capacity> valid_{};
  uint16_t next_ = 0;
  bool started_ = false;
};

}  // namespace tickwire
