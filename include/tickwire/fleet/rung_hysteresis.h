// RungHysteresis: when a load ladder's rung in force moves. A rung engages as soon as the signals
// meet it (a ladder under pressure sheds at once, every rung up to the one met); the rung in force
// releases one rung at a time, each only after the signals have stayed at or below its release
// thresholds for the dwell, so a signal hovering at a threshold never makes the ladder flap.
#pragma once

#include <cstdint>
#include <optional>

#include "tickwire/clock/time.h"

namespace tickwire {

class RungHysteresis {
 public:
  explicit RungHysteresis(Duration dwell);

  // One reading at `now`: `met`, the highest rung the signals meet (the ladder's walk);
  // `releasable`, whether they lie at or below the release thresholds of the rung in force. Returns
  // the rung in force (0: calm). A reading that is not releasable restarts the dwell; after a
  // release the next rung's dwell counts from the first releasable reading that follows.
  uint8_t update(uint8_t met, bool releasable, MonoTime now);

  uint8_t rung() const { return rung_; }
  Duration dwell() const { return dwell_; }
  // Since when the signals have stayed releasable for the rung in force (nullopt: they have not).
  std::optional<MonoTime> calm_since() const { return calm_since_; }

 private:
  Duration dwell_;
  uint8_t rung_ = 0;
  std::optional<MonoTime> calm_since_;
};

}  // namespace tickwire
