// The interp overlay line's one format.
#include "tickwire/client/interp_counters.h"

#include <fmt/format.h>

namespace tickwire {

std::string format_interp_overlay(int64_t delay_ticks, double margin_ticks, const InterpCounters& counters) {
  return fmt::format("interp {} t (+{:.1f}) held {} snaps {} burst {}", delay_ticks, margin_ticks,
                     counters.held_frames, counters.snaps, counters.max_burst);
}

}  // namespace tickwire
