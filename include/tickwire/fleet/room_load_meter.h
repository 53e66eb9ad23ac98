// RoomLoadMeter: a room's load signals (fleet/room_load_ladder.h) measured over a window by the
// shard that runs it: the time its iterations took, against its share of the window (a shard's
// rooms share one thread, so each one's tick budget is the period over the rooms on it), and how
// many ticks late its iterations started on average. The mean, not the worst: one late wake the
// next iteration catches up on (a host's scheduler hiccup) is not a room behind its schedule; a
// room that stays late is, and its mean says so within the window.
#pragma once

#include <cstdint>

#include "tickwire/clock/time.h"
#include "tickwire/fleet/room_load_ladder.h"

namespace tickwire {

class RoomLoadMeter {
 public:
  // One iteration: how late it started against the tick it was due for, the room's tick period,
  // and what it cost.
  void record(Duration late, Duration tick_period, Duration cost);
  // The window's signals, `rooms_sharing` rooms sharing the thread over `window`; starts the next window.
  RoomLoadSignals close_window(Duration window, uint32_t rooms_sharing);

  Duration window_cost() const { return cost_; }
  uint64_t iterations() const { return iterations_; }

 private:
  Duration cost_;
  double late_ticks_ = 0.0;  // the window's iterations' lateness, in ticks, summed
  uint64_t window_iterations_ = 0;
  uint64_t iterations_ = 0;
};

}  // namespace tickwire
