// A fixed-capacity hash index (key -> small integer) with open addressing, linear probing and
// backward-shift deletion: the lookup tables of the netcode server (addresses, token MACs) get a
// hard cap and allocate nothing after construction, however hostile the traffic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "tickwire/core/assert.h"

namespace tickwire::netcode {

template <class K, class Hash>
class FixedHashIndex {
 public:
  // Holds up to `capacity` keys; the table is the next power of two >= 2 x capacity.
  explicit FixedHashIndex(std::size_t capacity) : capacity_(capacity) {
    std::size_t n = 2;
    while (n < 2 * capacity) n <<= 1;
    slots_.resize(n);
    mask_ = n - 1;
  }

  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  bool full() const { return size_ >= capacity_; }

  std::optional<uint32_t> find(const K& key) const {
    for (std::size_t i = home(key);; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (!s.used) return std::nullopt;
      if (s.key == key) return s.value;
    }
  }
  // Inserts or overwrites; returns false when the key is new and the index is full.
  bool insert(const K& key, uint32_t value) {
    std::size_t i = home(key);
    for (; slots_[i].used; i = (i + 1) & mask_) {
      if (slots_[i].key == key) {
        slots_[i].value = value;
        return true;
      }
    }
    if (full()) return false;
    slots_[i] = Slot{key, value, true};
    ++size_;
    return true;
  }
  bool erase(const K& key) {
    std::size_t i = home(key);
    for (; slots_[i].used; i = (i + 1) & mask_) {
      if (slots_[i].key == key) break;
    }
    if (!slots_[i].used) return false;
    // Backward shift: pull later members of the probe run into the hole.
    std::size_t hole = i;
    for (std::size_t j = (hole + 1) & mask_; slots_[j].used; j = (j + 1) & mask_) {
      const std::size_t want = home(slots_[j].key);
      const bool movable = ((j - want) & mask_) >= ((j - hole) & mask_);
      if (movable) {
        slots_[hole] = slots_[j];
        hole = j;
      }
    }
    slots_[hole].used = false;
    --size_;
    return true;
  }
  void clear() {
    for (Slot& s : slots_) s.used = false;
    size_ = 0;
  }

 private:
  struct Slot {
    K key{};
    uint32_t value = 0;
    bool used = false;
  };
  std::size_t home(const K& key) const { return Hash{}(key) & mask_; }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::size_t capacity_ = 0;
  std::size_t size_ = 0;
};

}  // namespace tickwire::netcode
