// The hysteresis of a load ladder: engage at once, release one rung per dwell spent at or below the
// release thresholds of the rung in force. Time is the caller's `now`; nothing here reads a clock.
#include "tickwire/fleet/rung_hysteresis.h"

#include "tickwire/core/assert.h"

namespace tickwire {

RungHysteresis::RungHysteresis(Duration dwell) : dwell_(dwell) {
  TW_ASSERT(dwell >= Duration{}, "a ladder's release dwell is not negative");
}

uint8_t RungHysteresis::update(uint8_t met, bool releasable, MonoTime now) {
  if (met > rung_) {
    rung_ = met;
    calm_since_.reset();
    return rung_;
  }
  if (rung_ == 0 || !releasable) {
    calm_since_.reset();
    return rung_;
  }
  if (!calm_since_) calm_since_ = now;
  if (now - *calm_since_ >= dwell_) {
    --rung_;
    calm_since_.reset();
  }
  return rung_;
}

}  // namespace tickwire
