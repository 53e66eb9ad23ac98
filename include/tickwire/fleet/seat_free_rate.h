// SeatFreeRate: how fast a full deployment's line moves, measured from the instants its last seats
// were handed to waiters, and the wait that rate implies for a place in line: the estimate a waiting
// player is shown. Without enough measured frees it gives none rather than a guess.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "tickwire/clock/time.h"
#include "tickwire/core/assert.h"
#include "tickwire/core/ring_buffer.h"

namespace tickwire::fleet {

inline constexpr std::size_t kSeatFreeSamples = 32;    // the frees the rate looks back over
inline constexpr std::size_t kMinSeatFreeSamples = 4;  // fewer: no estimate

class SeatFreeRate {
 public:
  // A seat went to a waiter at `at` (times in order).
  void seat_freed(MonoTime at) {
    if (freed_.full()) freed_.pop();
    const bool kept = freed_.push(at);
    TW_ASSERT(kept, "a ring with its oldest dropped has room");
  }

  // The wait of the waiter `position` places from the front: that many frees at the rate measured
  // from the oldest kept free to `now` (so a line that stops moving shows a growing wait). nullopt
  // with fewer than kMinSeatFreeSamples frees, or when they all came at `now`.
  std::optional<Duration> wait_for(uint32_t position, MonoTime now) const {
    if (freed_.size() < kMinSeatFreeSamples) return std::nullopt;
    const Duration span = now - freed_.front();
    if (span <= Duration{}) return std::nullopt;
    const double intervals = static_cast<double>(freed_.size() - 1);
    return Duration::from_seconds(span.seconds_f() * static_cast<double>(position) / intervals);
  }

  std::size_t samples() const { return freed_.size(); }

 private:
  RingBuffer<MonoTime, kSeatFreeSamples> freed_;
};

}  // namespace tickwire::fleet
