// The room ladder's reading and walk: its load signal is the room's tick cost.
#include "tickwire/fleet/room_load_ladder.h"

#include <cmath>

#include "tickwire/core/assert.h"

namespace tickwire {

LadderReading reading_of(const RoomLoadSignals& signals) {
  TW_ASSERT(std::isfinite(signals.tick_cost_percent) && signals.tick_cost_percent >= 0.0,
            "a room's tick cost is a finite, non-negative percentage");
  return LadderReading{signals.tick_cost_percent, signals.lag_ticks};
}

RoomLoadRung evaluate_room_ladder(const RoomLoadSignals& signals, const RoomLadderPolicy& ladder) {
  return walk_from_calm<RoomLoadRung>(reading_of(signals), ladder.rungs);
}

}  // namespace tickwire
