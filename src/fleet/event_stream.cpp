// EventStream (fleet/event_stream.h): one shared pointer swapped under a lock and a version
// counter readers poll; seats counted with a compare-and-swap so the cap is exact.
#include "tickwire/fleet/event_stream.h"

#include <algorithm>
#include <thread>

namespace tickwire::fleet {

bool EventStream::publish(std::string value) {
  if (value.size() > kMaxStreamEventBytes) return false;
  auto shared = std::make_shared<const std::string>(std::move(value));
  {
    std::lock_guard lock(mutex_);
    newest_ = std::move(shared);
    version_.fetch_add(1, std::memory_order_release);
  }
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

std::shared_ptr<const std::string> EventStream::wait_newer(uint64_t& seen, std::chrono::milliseconds timeout,
                                                           const Accept& accept) {
  // Counted in poll intervals slept, not read off a clock: below apps/ time is never read.
  const int64_t slices = std::max<int64_t>(1, (timeout.count() + kStreamPollInterval.count() - 1) / kStreamPollInterval.count());
  for (int64_t slept = 0; !released(); ++slept) {
    if (version_.load(std::memory_order_acquire) > seen) {
      std::shared_ptr<const std::string> value;
      {
        std::lock_guard lock(mutex_);
        seen = version_.load(std::memory_order_relaxed);
        value = newest_;
      }
      if (!accept || accept(*value)) return value;
    }
    if (slept >= slices) break;
    std::this_thread::sleep_for(kStreamPollInterval);
  }
  return nullptr;
}

void EventStream::release() { released_.store(true, std::memory_order_relaxed); }

}  // namespace tickwire::fleet
