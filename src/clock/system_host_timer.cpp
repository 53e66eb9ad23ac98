// The real host's timer: reads time through clock/system_clock (the one clock source) and sleeps.
#include "tickwire/clock/system_host_timer.h"

#include "tickwire/clock/system_clock.h"

#include <chrono>
#include <thread>

namespace tickwire {

MonoTime SystemHostTimer::now() {
  return mono_now();
}

void SystemHostTimer::sleep(Duration request) {
  if (request.ns() <= 0) return;
  std::this_thread::sleep_for(std::chrono::nanoseconds(request.ns()));
}

void SystemHostTimer::pause() { std::this_thread::yield(); }

}  // namespace tickwire
