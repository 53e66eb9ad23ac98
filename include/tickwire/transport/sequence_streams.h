// Nonce discipline. Session keys come from a connect token, and a token may be used more than once
// while it is valid (reconnects, a re-created client, another server in its list, a server
// restarted in the same process). Packet nonces are the send sequence, so two uses of one key must
// never send the same sequence. Every sender stream therefore gets its own 2^32-sequence range
// [epoch << 32, (epoch + 1) << 32) with epoch in [2^30, 2^31): distinct epochs from a process-wide
// counter (never repeat within a process) that starts at a random point (so separate processes
// collide only by chance, about streams / 2^30). All sequences stay below 2^63, away from the
// range other implementations' servers use for handshake packets (2^63 upwards), and always take
// 8 bytes on the wire, so packet sizes do not depend on the random start. Receivers only require
// sequences to increase, so this stays interoperable with every conforming peer.
#pragma once

#include <atomic>
#include <cstdint>

#include "tickwire/core/assert.h"

namespace tickwire::netcode {

inline constexpr unsigned kStreamSequenceBits = 32;
inline constexpr uint64_t kStreamSequences = uint64_t{1} << kStreamSequenceBits;
inline constexpr uint64_t kEpochFloor = uint64_t{1} << 30;  // epochs live in [2^30, 2^31)

// One sender's sequence numbers under one key: strictly increasing, inside its range.
class SendSequence {
 public:
  SendSequence() = default;  // an empty stream: exhausted until assigned
  explicit SendSequence(uint64_t base) : next_(base), end_(base + kStreamSequences) {}
  bool exhausted() const { return next_ >= end_; }
  uint64_t take() {
    TW_ASSERT(!exhausted(), "sequence stream exhausted: the caller must check first");
    return next_++;
  }
  uint64_t peek() const { return next_; }
  uint64_t end() const { return end_; }

 private:
  uint64_t next_ = 0;
  uint64_t end_ = 0;
};

class SequenceStreams {
 public:
  // first_epoch is folded into [2^30, 2^31).
  explicit SequenceStreams(uint64_t first_epoch) : counter_(first_epoch) {}
  SequenceStreams(const SequenceStreams&) = delete;
  SequenceStreams& operator=(const SequenceStreams&) = delete;

  // A fresh stream whose range no earlier stream from this allocator shares (thread-safe).
  SendSequence open_stream() {
    const uint64_t epoch = kEpochFloor | (counter_.fetch_add(1, std::memory_order_relaxed) & (kEpochFloor - 1));
    return SendSequence(epoch << kStreamSequenceBits);
  }

  // The process-wide allocator every client and server uses unless a config names another.
  // Its starting epoch comes from libsodium's randomness.
  static SequenceStreams& process();

 private:
  std::atomic<uint64_t> counter_;
};

}  // namespace tickwire::netcode
