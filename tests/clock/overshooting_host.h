// The host the clock tests pace against: sleep(1 ms) takes 7.8 ms and sleep(14 ms) takes 83 ms
// (a headless host measured so), fitted as an affine sleep law on a simulated clock.
#pragma once

#include "tickwire/clock/sim_host_timer.h"

namespace tickwire::test {

inline SleepModel overshooting_sleep_model() {
  return SleepModel::through(Duration::milliseconds(1), Duration::from_milliseconds(7.8), Duration::milliseconds(14),
                             Duration::milliseconds(83));
}

inline constexpr MonoTime kHostStart = MonoTime::from_ns(5'000'000'000);

}  // namespace tickwire::test
