// ExpiryOrder: keys that lapse a fixed time after they were last renewed (a waiter's refresh, a seat
// offer), kept in the order they lapse in. With one timeout for every key that order is the order of
// the last renewals, so a renewal moves its key to the back and lapsed keys are always at the front:
// renewing, forgetting and each lapse cost O(1), and nothing is ever scanned.
#pragma once

#include <cstddef>
#include <iterator>
#include <list>
#include <optional>
#include <unordered_map>

#include "tickwire/clock/time.h"
#include "tickwire/core/assert.h"

namespace tickwire::fleet {

template <class Key>
class ExpiryOrder {
 public:
  explicit ExpiryOrder(Duration timeout) : timeout_(timeout) {
    TW_ASSERT(timeout > Duration{}, "a key lapses a positive time after its renewal");
  }

  // Starts (or restarts) `key`'s time at `now`. Times must not go backwards.
  void renew(Key key, MonoTime now) {
    const MonoTime deadline = now + timeout_;
    TW_ASSERT(order_.empty() || order_.back().deadline <= deadline, "renewals come in time order");
    forget(key);
    order_.push_back(Entry{key, deadline});
    where_[key] = std::prev(order_.end());
  }
  // Drops `key` without lapsing it; false when it was not there.
  bool forget(Key key) {
    const auto found = where_.find(key);
    if (found == where_.end()) return false;
    order_.erase(found->second);
    where_.erase(found);
    return true;
  }
  bool contains(Key key) const { return where_.contains(key); }
  // When `key` lapses (nullopt when it is not there).
  std::optional<MonoTime> deadline(Key key) const {
    const auto found = where_.find(key);
    if (found == where_.end()) return std::nullopt;
    return found->second->deadline;
  }
  // Removes every key whose deadline is at or before `now`, the earliest first, calling
  // `on_lapsed(key)` for each after it is gone.
  template <class OnLapsed>
  void lapse(MonoTime now, OnLapsed&& on_lapsed) {
    while (!order_.empty() && order_.front().deadline <= now) {
      const Key key = order_.front().key;
      where_.erase(key);
      order_.pop_front();
      on_lapsed(key);
    }
  }
  std::size_t size() const { return order_.size(); }
  Duration timeout() const { return timeout_; }

 private:
  struct Entry {
    Key key;
    MonoTime deadline;
  };
  Duration timeout_;
  std::list<Entry> order_;  // by deadline, the earliest first
  std::unordered_map<Key, typename std::list<Entry>::iterator> where_;
};

}  // namespace tickwire::fleet
