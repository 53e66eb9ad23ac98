// EntityMarks: a membership set over dense indices [0, capacity) that empties in O(1). Interest
// composition and budget fitting ask "seen already?" for every visible entity of every client each
// tick; an epoch stamp per index answers it without clearing (or allocating) anything per query.
#pragma once

#include <cstdint>
#include <vector>

#include "tickwire/core/assert.h"

namespace tickwire {

class EntityMarks {
 public:
  explicit EntityMarks(uint32_t capacity) : stamps_(capacity, 0) {}

  uint32_t capacity() const { return static_cast<uint32_t>(stamps_.size()); }

  // Unmarks everything: one epoch step, and a real wipe only once every 2^32 - 1 clears.
  void clear() {
    if (++epoch_ == 0) {
      for (uint32_t& s : stamps_) s = 0;
      epoch_ = 1;
    }
  }
  bool test(uint32_t index) const {
    TW_ASSERT(index < stamps_.size(), "entity mark index out of range");
    return stamps_[index] == epoch_;
  }
  // Marks `index`; true when it was not marked before.
  bool insert(uint32_t index) {
    TW_ASSERT(index < stamps_.size(), "entity mark index out of range");
    if (stamps_[index] == epoch_) return false;
    stamps_[index] = epoch_;
    return true;
  }

 private:
  std::vector<uint32_t> stamps_;
  uint32_t epoch_ = 1;
};

}  // namespace tickwire
