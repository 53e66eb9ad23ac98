// Datagrams in flight, held until their delivery time: a capped min-heap ordered by (time, push
// order). Both SimNetwork and the link conditioner release through it, so equal delivery times
// always come out in the order they were decided and a run never depends on container iteration.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "tickwire/clock/time.h"

namespace tickwire {

template <class T>
class DelayQueue {
 public:
  explicit DelayQueue(std::size_t capacity) : capacity_(capacity) {}

  // False (and nothing stored) when the queue already holds `capacity` entries.
  bool push(MonoTime at, T value) {
    if (heap_.size() >= capacity_) return false;
    heap_.push_back(Entry{at, next_seq_++, std::move(value)});
    std::push_heap(heap_.begin(), heap_.end(), later);
    return true;
  }

  // Calls fn(MonoTime at, T&& value) for every entry due at or before `now`, earliest first, equal
  // times in push order. fn may push. Returns how many were released.
  template <class Fn>
  std::size_t release_due(MonoTime now, Fn&& fn) {
    std::size_t released = 0;
    while (!heap_.empty() && heap_.front().at <= now) {
      std::pop_heap(heap_.begin(), heap_.end(), later);
      Entry entry = std::move(heap_.back());
      heap_.pop_back();
      fn(entry.at, std::move(entry.value));
      ++released;
    }
    return released;
  }

  std::optional<MonoTime> next_time() const {
    if (heap_.empty()) return std::nullopt;
    return heap_.front().at;
  }
  std::size_t size() const { return heap_.size(); }
  bool empty() const { return heap_.empty(); }
  std::size_t capacity() const { return capacity_; }

 private:
  struct Entry {
    MonoTime at;
    uint64_t seq;
    T value;
  };
  // Heap order: the entry that should come out first sits at the front.
  static bool later(const Entry& a, const Entry& b) {
    if (a.at != b.at) return a.at > b.at;
    return a.seq > b.seq;
  }

  std::size_t capacity_;
  uint64_t next_seq_ = 0;
  std::vector<Entry> heap_;
};

}  // namespace tickwire
