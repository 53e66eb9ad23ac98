// What each sent packet carried (which channel's message or fragment), so an ack can be turned
// into "these messages arrived". A fixed ring: records of packets so old that they were overwritten
// are simply gone, and their content is resent on its timer like any unacked content.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tickwire/core/assert.h"
#include "tickwire/transport/packet_entry.h"

namespace tickwire {

struct ContentRef {
  uint8_t channel = 0;
  EntryKind kind = EntryKind::ping;
  uint16_t message_id = 0;
  uint16_t fragment_index = 0;
};

class SentContentLog {
 public:
  explicit SentContentLog(std::size_t capacity) : refs_(capacity) { TW_ASSERT(capacity > 0, "empty log"); }

  // Monotonic position of the next record (wraps at 2^32, far beyond any capacity).
  uint32_t position() const { return next_; }
  void append(const ContentRef& ref) {
    refs_[next_ % refs_.size()] = ref;
    ++next_;
  }
  // True while the `count` records starting at `begin` have not been overwritten.
  bool available(uint32_t begin, uint32_t count) const {
    return static_cast<uint32_t>(next_ - begin) <= refs_.size() && static_cast<uint32_t>(next_ - begin) >= count;
  }
  const ContentRef& at(uint32_t position) const { return refs_[position % refs_.size()]; }
  std::size_t memory_bytes() const { return refs_.size() * sizeof(ContentRef); }

 private:
  std::vector<ContentRef> refs_;
  uint32_t next_ = 0;
};

}  // namespace tickwire
