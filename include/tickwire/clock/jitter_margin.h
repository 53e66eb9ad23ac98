// JitterMargin: the one control law for an earned safety margin, shared by the client's tick-clock
// regulation and its interpolation delay. Every bad event (a held or snapped frame, a starved
// tick) widens the margin by `growth` up to `max`; calm decays it by one unit per `decay` of time,
// handing the latency back. Switched off, the margin stays zero (events are still counted).
#pragma once

#include <cstdint>

#include "tickwire/clock/time.h"

namespace tickwire {

struct JitterMarginConfig {
  double growth = 1.0;                     // units added per bad event
  double max = 8.0;                        // the margin never exceeds this
  Duration decay = Duration::seconds(2);   // calm time that hands back one unit
  bool enabled = true;
};

class JitterMargin {
 public:
  // `start`: the time the margin begins to be observed (decay is measured from here).
  JitterMargin(const JitterMarginConfig& config, MonoTime start);

  // A bad event at `now`: decay up to now, then widen.
  void on_bad_event(MonoTime now);
  // Applies the decay of the calm time since the last update.
  void update(MonoTime now);

  // The margin in (fractional) units.
  double value() const { return value_; }
  // The margin in whole units (ceil): one unit is handed back only after a full decay period.
  int64_t whole_units() const;
  uint64_t bad_events() const { return bad_events_; }
  const JitterMarginConfig& config() const { return config_; }

 private:
  JitterMarginConfig config_;
  MonoTime last_update_;
  double value_ = 0.0;
  uint64_t bad_events_ = 0;
};

}  // namespace tickwire
