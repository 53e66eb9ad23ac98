// The real host's timer: std::chrono::steady_clock for now(), std::this_thread::sleep_for for
// sleep(). Besides clock/system_clock.*, this is the one place in the library that reads a clock;
// apps construct it and inject it, everything else takes a HostTimer&.
#pragma once

#include "tickwire/clock/host_timer.h"

namespace tickwire {

class SystemHostTimer final : public HostTimer {
 public:
  MonoTime now() override;
  void sleep(Duration request) override;
  void pause() override;
};

}  // namespace tickwire
