// WorkClock: how much work a shard's thread has done, as opposed to how much time has passed. A
// room's cost measured by the wall clock counts the time its thread was preempted mid-iteration (on
// a host with more busy threads than cores, most of it), and a ladder reading that would shed for
// a neighbour's load; the shard reads its rooms' cost from the thread's CPU clock instead (lag is
// what tells it the host itself is short of time). Tests on a simulated host read the host timer.
#pragma once

#include "tickwire/clock/time.h"

namespace tickwire {

class WorkClock {
 public:
  virtual ~WorkClock() = default;
  // The calling thread's work so far (a monotonic count; only differences mean anything).
  virtual Duration spent() = 0;
};

// The calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID): read it on the thread it measures.
class ThreadCpuClock final : public WorkClock {
 public:
  Duration spent() override;
};

}  // namespace tickwire
