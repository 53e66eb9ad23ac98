// Received payloads waiting for the layer above (the reliability layer rides inside them): a ring
// of fixed-size slots allocated once, so a flood costs a counted drop, never memory.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "tickwire/transport/netcode_constants.h"

namespace tickwire::netcode {

struct ReceivedPayload {
  uint32_t client_index = 0;  // server side: the slot it came from; client side: 0
  uint64_t sequence = 0;      // the netcode packet sequence it arrived with
  bool discarded = false;     // its connection ended before it was read (never returned by pop)
  std::size_t size = 0;
  std::array<uint8_t, kMaxPayloadBytes> bytes{};
  std::span<const uint8_t> data() const { return {bytes.data(), size}; }
};

class PayloadQueue {
 public:
  explicit PayloadQueue(std::size_t capacity) : slots_(capacity) {}
  // A slot to fill in place, or nullptr when full (the caller counts the drop).
  ReceivedPayload* push_slot() {
    if (size_ == slots_.size()) return nullptr;
    ReceivedPayload* slot = &slots_[(head_ + size_) % slots_.size()];
    slot->discarded = false;
    ++size_;
    return slot;
  }
  bool pop(ReceivedPayload& out) {
    while (size_ > 0) {
      const ReceivedPayload& front = slots_[head_];
      head_ = (head_ + 1) % slots_.size();
      --size_;
      if (front.discarded) continue;
      out.client_index = front.client_index;
      out.sequence = front.sequence;
      out.discarded = false;
      out.size = front.size;
      std::copy_n(front.bytes.begin(), front.size, out.bytes.begin());
      return true;
    }
    return false;
  }
  // Payloads still queued from a slot whose connection ended must not be read as the next
  // occupant's: they are skipped.
  void discard_client(uint32_t client_index) {
    for (std::size_t i = 0; i < size_; ++i) {
      ReceivedPayload& p = slots_[(head_ + i) % slots_.size()];
      if (p.client_index == client_index) p.discarded = true;
    }
  }
  void clear() { head_ = size_ = 0; }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return slots_.size(); }

 private:
  std::vector<ReceivedPayload> slots_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace tickwire::netcode
