// A timed input frame's stamps, derived from its newest one and the client's logic step.
#include "tickwire/protocol/timed_input_frame.h"

namespace tickwire::protocol {

uint64_t timed_input_stamp_us(const TimedInputFrame& frame, std::size_t index) {
  const uint64_t steps_back = frame.inputs.size() - 1 - index;
  const uint64_t back_us = steps_back * frame.step_us;
  return frame.newest_stamp_us > back_us ? frame.newest_stamp_us - back_us : 0;
}

bool timed_input_frame_valid(const TimedInputFrame& frame) {
  return frame.step_us >= 1 && frame.step_us <= MaxLogicStepUs && !frame.inputs.empty();
}

}  // namespace tickwire::protocol
