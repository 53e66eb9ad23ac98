// The starvation rule and the names of input sources: shared by the queue, stats and tests.
#include "tickwire/server/tick_input.h"

namespace tickwire {

std::string_view tick_input_source_name(TickInputSource source) {
  switch (source) {
    case TickInputSource::fresh: return "fresh";
    case TickInputSource::repeated: return "repeated";
    case TickInputSource::zeroed: return "zeroed";
  }
  return "unknown";
}

protocol::InputCmd starved_command(const protocol::InputCmd& previous, uint32_t run_ticks, uint32_t repeat_limit_ticks,
                                   uint32_t posture_buttons) {
  protocol::InputCmd cmd = previous;
  if (run_ticks <= repeat_limit_ticks) return cmd;
  cmd.move_x = 0;
  cmd.move_y = 0;
  cmd.buttons = previous.buttons & posture_buttons;
  return cmd;
}

}  // namespace tickwire
