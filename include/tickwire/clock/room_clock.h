// The room clock: which fixed ticks are due, as a pure function of the tick rate, a start phase
// (the origin) and a monotonic time. Input arrival never reschedules a tick; a stall is recovered
// a bounded number of ticks per call and, past the overload threshold, declared as a discontinuity
// so that executed + declared (+ the bounded backlog still owed) == ideal, never silently lost.
#pragma once

#include <cstdint>

#include "tickwire/clock/tick.h"
#include "tickwire/clock/time.h"

namespace tickwire {

// Missed ticks one call may run before the rest waits for the following calls.
inline constexpr uint32_t kRoomClockDefaultMaxCatchUpTicks = 4;
// A backlog this deep runs only the newest tick and declares the rest dropped (~0.5 s at 60 Hz).
inline constexpr uint32_t kRoomClockDefaultOverloadThresholdTicks = 32;
// Rates above this are refused: the slot arithmetic's epsilon assumes a period of >= 1 ms.
inline constexpr double kRoomClockMaxTickRateHz = 1000.0;
// Slots counted as elapsed when the elapsed/period quotient is this close below a whole number:
// absorbs floating-point error and the nanosecond rounding of due times at slot boundaries.
inline constexpr double kRoomClockSlotEpsilon = 1e-6;

struct RoomClockConfig {
  double tick_rate_hz = 60.0;
  MonoTime origin;  // the start phase: tick n is due at origin + n * period
  uint32_t max_catch_up_ticks = kRoomClockDefaultMaxCatchUpTicks;
  uint32_t overload_threshold_ticks = kRoomClockDefaultOverloadThresholdTicks;
};

// What one call to advance() asks the caller to do: run `steps` ticks, first_tick, first_tick+1,
// ...; each step integrates exactly one tick of time. `declared` slots just before first_tick
// were dropped (a discontinuity) and will never run.
struct ClockPlan {
  Tick first_tick;
  uint32_t steps = 0;
  int64_t declared = 0;
  bool discontinuity() const { return declared > 0; }
  Tick last_tick() const { return first_tick + (static_cast<int64_t>(steps) - 1); }
};

// The accounting at one instant: executed + declared + behind == ideal, where `behind` is the
// backlog owed to the following calls (0 once caught up, always below the overload threshold
// after a call to advance()).
struct ClockAccount {
  int64_t ideal = 0;
  int64_t executed = 0;
  int64_t declared = 0;
  int64_t behind = 0;
  bool balanced() const { return executed + declared + behind == ideal && behind >= 0; }
};

struct Discontinuity {
  Tick first_dropped;  // the dropped slots are first_dropped .. first_dropped + dropped - 1
  int64_t dropped = 0;
  MonoTime at;
};

class RoomClock {
 public:
  explicit RoomClock(const RoomClockConfig& config);

  // Pure schedule queries (no state).
  double tick_rate_hz() const { return config_.tick_rate_hz; }
  double seconds_per_tick() const { return period_ns_ * 1e-9; }
  MonoTime origin() const { return config_.origin; }
  // When tick n is due: origin + n * period, by multiplication, rounded to the nanosecond.
  MonoTime due_time(Tick tick) const;
  // Ideal ticks elapsed by `now`: floor((now - origin) / period + epsilon), never negative.
  int64_t ideal_ticks(MonoTime now) const;

  // Plans (and books) the ticks to run at `now`. `now` is expected not to go backwards; if it
  // does, nothing is due.
  ClockPlan advance(MonoTime now);

  // When the next tick not yet run or declared is due (a pacer waits for this).
  MonoTime next_due() const { return due_time(next_tick()); }
  Tick next_tick() const { return Tick::from_value(executed_ + declared_ + 1); }
  // The last tick run (Tick 0 before any).
  Tick last_executed_tick() const { return last_executed_; }

  int64_t executed_ticks() const { return executed_; }
  int64_t declared_ticks() const { return declared_; }
  uint64_t discontinuities() const { return discontinuities_; }
  const Discontinuity& last_discontinuity() const { return last_discontinuity_; }
  ClockAccount account(MonoTime now) const;

  // A room loaded from a save state (seed 002) goes on after `last`: as if every tick up to it had
  // run (none declared), so the next one planned is last + 1. Its timeline moves back by `last`
  // periods (the origin, rounded to the nanosecond), so last + 1 is due where a fresh clock's first
  // tick would be: a room started from an hour-old save runs at once, not an hour later.
  // Only on a clock that has run nothing yet, and only after a tick it reaches.
  void resume_after(Tick last);
  // Whether the clock can go on after `last`: its time from tick 0 fits the clock's nanoseconds with
  // room to spare (2^62 ns, 146 years; 2^40 ticks of a 60 Hz room would be 580).
  bool reaches(Tick last) const { return last.value() >= 0 && static_cast<double>(last.value()) * period_ns_ < 0x1p62; }

 private:
  RoomClockConfig config_;
  double period_ns_;
  int64_t ideal_seen_ = 0;  // the highest ideal count booked, so a clock read going back loses nothing
  int64_t executed_ = 0;
  int64_t declared_ = 0;
  Tick last_executed_;
  uint64_t discontinuities_ = 0;
  Discontinuity last_discontinuity_;
};

}  // namespace tickwire
