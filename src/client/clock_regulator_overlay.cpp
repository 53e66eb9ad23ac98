// Formatting only: the numbers come from ClockRegulator, the text shapes are pinned by the tests.
#include "tickwire/client/clock_regulator_overlay.h"

#include <fmt/format.h>

namespace tickwire {

std::string clock_overlay_line(const ClockRegulator& regulator) {
  const std::optional<int8_t> depth = regulator.last_depth();
  const std::string depth_text = depth ? fmt::format("{}", static_cast<int>(*depth)) : std::string("-");
  return fmt::format("buf {}/{:.1f} rate x{:.3f}{}", depth_text, regulator.target_depth_ticks(), regulator.rate(),
                     regulator.holding() ? " hold" : "");
}

std::string clock_counters_line(const ClockRegulatorCounters& counters) {
  return fmt::format("clock readings {} stale {} starved {} grew {} holds {} rate x{:.3f}..x{:.3f}", counters.readings,
                     counters.stale_readings, counters.starved_ticks, counters.margin_growths, counters.holds,
                     counters.min_rate, counters.max_rate);
}

}  // namespace tickwire
