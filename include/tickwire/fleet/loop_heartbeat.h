// Liveness for a process whose work is one loop: the loop beats once per iteration and a probe on
// another thread asks whether it beat recently. A loop stuck in a call (a store that hangs, a
// deadlock) stops beating, and /healthz says so while every other thread still runs. Time comes in
// from the caller on both sides.
#pragma once

#include <atomic>
#include <cstdint>

#include "tickwire/clock/time.h"

namespace tickwire::fleet {

class LoopHeartbeat {
 public:
  // The loop's thread, once per iteration.
  void beat(MonoTime now) {
    last_ns_.store(now.ns(), std::memory_order_release);
    beats_.fetch_add(1, std::memory_order_relaxed);
  }
  // Any thread: it has beaten, and not longer than `window` before `now`.
  bool alive(MonoTime now, Duration window) const {
    if (beats_.load(std::memory_order_relaxed) == 0) return false;
    return now - MonoTime::from_ns(last_ns_.load(std::memory_order_acquire)) <= window;
  }
  uint64_t beats() const { return beats_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> last_ns_{0};
  std::atomic<uint64_t> beats_{0};
};

}  // namespace tickwire::fleet
