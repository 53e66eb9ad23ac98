// EventStream (fleet/event_stream.h): one shared pointer swapped under a lock, a version counter
// and a condition variable; seats counted with a compare-and-swap so the cap is exact.
#include "tickwire/fleet/event_stream.h"

namespace tickwire::fleet {

bool EventStream::publish(std::string value) {
  if (value.size() > kMaxStreamEventBytes) return false;
  auto shared = std::make_shared<const std::string>(std::move(value));
  {
    std::lock_guard lock(mutex_);
    newest_ = std::move(shared);
    version_.fetch_add(1, std::memory_order_relaxed);
  }
  changed_.notify_all();
  return true;
}

bool EventStream::join() {
  uint32_t now = readers_.load(std::memory_order_relaxed);
  do {
    if (now >= max_readers_) {
      refused_.fetch_add(1, std::memory_order_relaxed);
      return false;
    }
  } while (!readers_.compare_exchange_weak(now, now + 1, std::memory_order_relaxed));
  return true;
}

void EventStream::leave() { readers_.fetch_sub(1, std::memory_order_relaxed); }

std::shared_ptr<const std::string> EventStream::wait_newer(uint64_t& seen, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  const auto newer = [&] { return released() || version_.load(std::memory_order_relaxed) > seen; };
  if (!changed_.wait_for(lock, timeout, newer) || released() || newest_ == nullptr) return nullptr;
  seen = version_.load(std::memory_order_relaxed);
  return newest_;
}

void EventStream::release() {
  {
    std::lock_guard lock(mutex_);
    released_.store(true, std::memory_order_relaxed);
  }
  changed_.notify_all();
}

}  // namespace tickwire::fleet
