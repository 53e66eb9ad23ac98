// The standard's replay protection for keep-alive, payload and disconnect packets: a window of the
// 256 most recent sequence numbers. Older than the window, or already seen inside it: refused.
// Written subtraction-side so sequences at the top of the 64-bit range are handled exactly.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>

#include "tickwire/transport/netcode_constants.h"

namespace tickwire::netcode {

class ReplayProtection {
 public:
  static constexpr std::size_t kEntries = kReplayBufferEntries;

  // The check made before decryption: true when `sequence` must be ignored.
  bool already_received(uint64_t sequence) const {
    if (most_recent_ >= kEntries && sequence <= most_recent_ - kEntries) return true;
    const std::size_t i = static_cast<std::size_t>(sequence % kEntries);
    return filled_[i] && received_[i] >= sequence;
  }
  // Called once a packet has decrypted: marks it received and advances the most recent sequence.
  void advance(uint64_t sequence) {
    if (sequence > most_recent_) most_recent_ = sequence;
    const std::size_t i = static_cast<std::size_t>(sequence % kEntries);
    filled_[i] = true;
    received_[i] = sequence;
  }
  void reset() {
    most_recent_ = 0;
    filled_.reset();
  }
  uint64_t most_recent() const { return most_recent_; }

 private:
  uint64_t most_recent_ = 0;
  std::array<uint64_t, kEntries> received_{};
  std::bitset<kEntries> filled_;
};

}  // namespace tickwire::netcode
