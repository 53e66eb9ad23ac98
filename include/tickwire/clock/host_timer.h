// The host's clock and sleeper as a seam. The pacer and the deadline wait only ever read time and
// sleep through this interface, so a simulation can model a host whose sleeps overshoot (the
// SimHostTimer) and the real process injects the SystemHostTimer.
#pragma once

#include "tickwire/clock/time.h"

namespace tickwire {

class HostTimer {
 public:
  virtual ~HostTimer() = default;
  // The host's monotonic time.
  virtual MonoTime now() = 0;
  // Blocks for about `request`; a host may (and does) overshoot. A request <= 0 returns at once.
  virtual void sleep(Duration request) = 0;
  // One iteration of a spin-wait (a CPU relax or a yield); a simulated host advances its clock.
  virtual void pause() = 0;
};

}  // namespace tickwire
