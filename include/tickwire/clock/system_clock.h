// The only place the library reads a real clock. Apps call these and pass the result down as
// `now`; everything below apps/ takes time as a parameter so simulations can run on a virtual one.
#pragma once

#include "tickwire/clock/time.h"

namespace tickwire {

// std::chrono::steady_clock: monotonic, for cadence, timeouts and link-model decisions.
MonoTime mono_now();
// std::chrono::system_clock: nanoseconds since the Unix epoch, for records and tokens.
WallTime wall_now();

}  // namespace tickwire
