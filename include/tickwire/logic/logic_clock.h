// The logic's game time, and the one rule that turns a delay into whole ticks. Delays are authored
// in game seconds; the runtime only runs on ticks. Each tick advances game time by
//   step = tick length x world time scale        (the seconds-per-tick of the seed)
// so at a time scale of 0.5 a tick covers half the game time and a 1 s delay takes twice the ticks.
// A continuation is due at a game time; it runs on the first tick whose game time is within half a
// step of it. At a constant scale a delay of d therefore takes
//   ticks(d) = max(1, ceil(d / step - 1/2))      (the nearest whole tick; a half rounds down)
// and, because what is kept is the due game time and not a tick number, a scale that changes while
// a delay is pending is honoured from the tick it changes on. A scale of 0 stops game time: nothing
// comes due. Everything is integer nanoseconds, so the count is exact and the same on every host.
#pragma once

#include <cstdint>

#include "tickwire/clock/time.h"

namespace tickwire {

class LogicClock {
 public:
  explicit LogicClock(Duration tick_length, double time_scale = 1.0);

  // The world time scale (a world setting that may change during a session): finite, >= 0.
  void set_time_scale(double time_scale);
  double time_scale() const { return time_scale_; }
  Duration tick_length() const { return tick_length_; }
  // The game time one tick covers at the current scale.
  Duration step() const { return step_; }

  // One tick: game time moves on by one step.
  void advance();
  // Game time since the runtime started, and the ticks advanced.
  Duration now() const { return now_; }
  int64_t ticks() const { return ticks_; }
  // A checkpoint's game time and tick count put back (the scale is set_time_scale's).
  void restore(Duration now, int64_t ticks) {
    now_ = now;
    ticks_ = ticks;
  }

  // Whether something due at game time `due` runs on the tick just advanced.
  bool reached(Duration due) const { return due.ns() * 2 <= now_.ns() * 2 + step_.ns(); }

  // The rule as a number: how many ticks a delay of `delay` takes at a constant scale; -1 when it
  // never comes due (a scale of 0). A delay of 0 runs at once (no tick), so it is 0.
  static int64_t ticks_for(Duration delay, Duration tick_length, double time_scale);
  static Duration step_for(Duration tick_length, double time_scale);

 private:
  Duration tick_length_;
  double time_scale_ = 1.0;
  Duration step_;
  Duration now_;
  int64_t ticks_ = 0;
};

}  // namespace tickwire
