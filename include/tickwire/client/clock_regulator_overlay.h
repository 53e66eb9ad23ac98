// What the regulator shows a person: the perf overlay's `buf 2/2.0 rate x1.000` line and the
// counters line for the log. An unknown queue is shown as `-`, never as an empty one.
#pragma once

#include <string>

#include "tickwire/client/clock_regulator.h"

namespace tickwire {

// "buf <latest raw depth>/<target depth> rate x<rate>", e.g. "buf 2/2.0 rate x1.000"; the depth is
// "-" until the session's first reading; " hold" is appended while input production is stopped.
std::string clock_overlay_line(const ClockRegulator& regulator);

// One line for the log, e.g. "clock readings 3600 stale 0 starved 4 grew 1 holds 0 rate x0.985..x1.020".
std::string clock_counters_line(const ClockRegulatorCounters& counters);

}  // namespace tickwire
