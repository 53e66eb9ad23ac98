// The thread's CPU clock.
#include "tickwire/fleet/work_clock.h"

#include <ctime>

namespace tickwire {

Duration ThreadCpuClock::spent() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return Duration::seconds(ts.tv_sec) + Duration::nanoseconds(ts.tv_nsec);
}

}  // namespace tickwire
