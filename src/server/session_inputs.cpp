// The preparing seam: one take per simulated tick, asserted, and the owner report captured then.
#include "tickwire/server/session_inputs.h"

#include "tickwire/core/assert.h"

namespace tickwire {

SessionInputs::SessionInputs(const InputQueueConfig& config) : queue_(config) {}

std::size_t SessionInputs::receive_timed(const protocol::TimedInputFrame& frame, uint64_t server_time_us,
                                         uint64_t stamp_lead_us) {
  if (frame.newest_stamp_us > server_time_us + stamp_lead_us) {
    queue_.refuse(InputDropReason::stamp_ahead, frame.inputs.size());
    return 0;
  }
  return queue_.accept(frame.first_sequence, frame.inputs);
}

const TickInput& SessionInputs::prepare(Tick tick) {
  TW_ASSERT(!prepared_tick_ || tick > *prepared_tick_, "an input is taken once per simulated tick, ticks increasing");
  prepared_tick_ = tick;
  current_ = queue_.take_for_tick();
  report_ = OwnerInputReport{tick, queue_.ack_sequence(), queue_.depth_byte()};
  return current_;
}

const TickInput& SessionInputs::current() const {
  TW_ASSERT(prepared_tick_.has_value(), "no tick prepared yet");
  return current_;
}

const OwnerInputReport& SessionInputs::report() const {
  TW_ASSERT(prepared_tick_.has_value(), "no tick prepared yet");
  return report_;
}

void prepare_tick(std::span<SessionInputs> sessions, Tick tick) {
  for (SessionInputs& session : sessions) session.prepare(tick);
}

}  // namespace tickwire
