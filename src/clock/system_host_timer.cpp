// The real host's timer. Kept tiny on purpose: it is one of only two clock reads in the library.
#include "tickwire/clock/system_host_timer.h"

#include <chrono>
#include <thread>

namespace tickwire {

MonoTime SystemHostTimer::now() {
  const auto since_epoch = std::chrono::steady_clock::now().time_since_epoch();
  return MonoTime::from_ns(std::chrono::duration_cast<std::chrono::nanoseconds>(since_epoch).count());
}

void SystemHostTimer::sleep(Duration request) {
  if (request.ns() <= 0) return;
  std::this_thread::sleep_for(std::chrono::nanoseconds(request.ns()));
}

void SystemHostTimer::pause() { std::this_thread::yield(); }

}  // namespace tickwire
