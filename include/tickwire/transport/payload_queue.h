// Received payloads waiting for the layer above (the reliability layer rides inside them): a ring
// of fixed-size slots allocated once, so a flood costs a counted drop, never memory.
#pragma once

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
    ++size_;
    return slot;
  }
  bool pop(ReceivedPayload& out) {
    if (size_ == 0) return false;
    out = slots_[head_];
    head_ = (head_ + 1) % slots_.size();
    --size_;
    return true;
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
