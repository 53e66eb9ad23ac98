// RoomLoop: the dedicated server's main loop, one iteration at a time. It waits (TickPacer over the
// host's timer: sleep most of the budget, spin the tail, learn the sleep overshoot) for the room's
// next due tick, then runs one RoomServer iteration at the time it really woke, and tells the
// pacer how many ticks that iteration simulated so the achieved rate is measured and reported.
#pragma once

#include <memory>

#include "tickwire/clock/host_timer.h"
#include "tickwire/clock/tick_pacer.h"
#include "tickwire/clock/time.h"
#include "tickwire/server/room_server.h"

namespace tickwire {

class RoomLoop {
 public:
  // The pacer's tick rate is the room contract's; `anchor` turns host time into wall time (tokens).
  RoomLoop(HostTimer& timer, RoomServer& server, const TimeAnchor& anchor, TickPacerConfig pacer = {},
           std::shared_ptr<spdlog::logger> logger = nullptr);

  // Waits for the room's next due tick; returns the host time it woke at.
  MonoTime wait_for_next_tick();
  // One server iteration at `now` (normally what wait_for_next_tick returned).
  RoomUpdate iterate(MonoTime now);
  RoomUpdate run_once() { return iterate(wait_for_next_tick()); }

  const TickPacer& pacer() const { return pacer_; }
  uint64_t iterations() const { return iterations_; }

 private:
  HostTimer& timer_;
  RoomServer& server_;
  TimeAnchor anchor_;
  TickPacer pacer_;
  uint64_t iterations_ = 0;
};

}  // namespace tickwire
