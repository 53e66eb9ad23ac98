// EventStream: the newest value of a live feed, published by one thread (the loop) and read by any
// number of server-sent-event connections on the HTTP threads. A reader never sees a half-written
// value and never makes the publisher wait: a publish swaps one shared pointer under a short lock
// and wakes nobody (readers look every kStreamPollInterval: a wake-up call from the loop cost it
// ~0.5 ms a publish on 2 cores, measured); a reader that falls behind skips to the newest value (a
// dashboard wants now, not history). The publisher asks wanted() first, so a feed nobody watches
// costs the loop one atomic load.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace tickwire::fleet {

inline constexpr uint32_t kDefaultMaxStreamReaders = 8;
inline constexpr std::size_t kMaxStreamEventBytes = 4u << 20;  // a bigger value is refused, not sent
inline constexpr std::chrono::milliseconds kStreamPollInterval{10};  // how late a reader may see a value

class EventStream {
 public:
  explicit EventStream(uint32_t max_readers = kDefaultMaxStreamReaders) : max_readers_(max_readers) {}

  // Publisher side (any one thread).
  bool wanted() const { return readers_.load(std::memory_order_relaxed) != 0; }
  // Replaces the newest value (readers see it within kStreamPollInterval). False (nothing
  // changes) past kMaxStreamEventBytes.
  bool publish(std::string value);
  uint64_t published() const { return version_.load(std::memory_order_relaxed); }

  // Reader side (the HTTP threads). A reader holds a seat from join() to leave(); false when all
  // max_readers seats are taken.
  bool join();
  void leave();
  uint32_t readers() const { return readers_.load(std::memory_order_relaxed); }
  uint32_t max_readers() const { return max_readers_; }
  uint64_t refused_readers() const { return refused_.load(std::memory_order_relaxed); }

  // Waits until a value newer than `seen` that `accept` takes (any, when empty) is published, then
  // sets `seen` to its version; values it does not take are passed over. Null when none came within
  // `timeout` (counted in poll intervals slept, so a little more on a late host) or on release().
  using Accept = std::function<bool(const std::string&)>;
  std::shared_ptr<const std::string> wait_newer(uint64_t& seen, std::chrono::milliseconds timeout,
                                                const Accept& accept = {});
  // Ends every wait, now and from here on, within kStreamPollInterval (the endpoint is stopping).
  void release();
  bool released() const { return released_.load(std::memory_order_relaxed); }

 private:
  const uint32_t max_readers_;
  std::atomic<uint32_t> readers_{0};
  std::atomic<uint64_t> refused_{0};
  std::atomic<uint64_t> version_{0};
  std::atomic<bool> released_{false};
  std::mutex mutex_;
  std::shared_ptr<const std::string> newest_;  // guarded by mutex_
};

}  // namespace tickwire::fleet
