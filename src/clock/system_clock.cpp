// Reads steady_clock and system_clock; nothing else in the library may (see DESIGN.md, "Time is a
// parameter").
#include "tickwire/clock/system_clock.h"

#include <chrono>

namespace tickwire {

MonoTime mono_now() {
  const auto since = std::chrono::steady_clock::now().time_since_epoch();
  return MonoTime::from_ns(std::chrono::duration_cast<std::chrono::nanoseconds>(since).count());
}

WallTime wall_now() {
  const auto since = std::chrono::system_clock::now().time_since_epoch();
  return WallTime::from_ns(std::chrono::duration_cast<std::chrono::nanoseconds>(since).count());
}

}  // namespace tickwire
