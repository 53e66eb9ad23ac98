// Game time for the logic: a step per tick from the tick length and the world time scale, and the
// nearest-tick rule stated once (reached) and once as a count (ticks_for) that the tests hold it to.
#include "tickwire/logic/logic_clock.h"

#include <cmath>

#include "tickwire/core/assert.h"

namespace tickwire {

LogicClock::LogicClock(Duration tick_length, double time_scale) : tick_length_(tick_length) {
  TW_ASSERT(tick_length.ns() > 0, "a tick has a length");
  set_time_scale(time_scale);
}

Duration LogicClock::step_for(Duration tick_length, double time_scale) {
  TW_ASSERT(std::isfinite(time_scale) && time_scale >= 0.0 && time_scale <= 1e6, "the time scale is finite and not negative");
  return Duration::nanoseconds(std::llround(static_cast<double>(tick_length.ns()) * time_scale));
}

void LogicClock::set_time_scale(double time_scale) {
  step_ = step_for(tick_length_, time_scale);
  time_scale_ = time_scale;
}

void LogicClock::advance() {
  now_ += step_;
  ++ticks_;
}

int64_t LogicClock::ticks_for(Duration delay, Duration tick_length, double time_scale) {
  TW_ASSERT(delay.ns() >= 0, "a delay is not negative");
  if (delay.ns() == 0) return 0;
  const int64_t step_ns = step_for(tick_length, time_scale).ns();
  if (step_ns == 0) return -1;
  // The first k with k x step >= delay - step / 2, in integers: k >= (2 delay - step) / (2 step).
  const int64_t numerator = delay.ns() * 2 - step_ns;
  if (numerator <= 0) return 1;
  const int64_t k = (numerator + step_ns * 2 - 1) / (step_ns * 2);
  return k < 1 ? 1 : k;
}

}  // namespace tickwire
