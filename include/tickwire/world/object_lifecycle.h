// What an operator sees of map objects joining and leaving a running game: spawns and despawns of
// single objects and live map switches, counted, with what the last discarded logic runtime still
// held (nothing, when nothing leaked). The reference game lists the counts in the server's stats.
#pragma once

#include <cstdint>

#include "tickwire/logic/logic_runtime.h"

namespace tickwire::world {

struct ObjectLifecycleCounts {
  uint64_t spawns = 0;        // objects brought back by spawn_object
  uint64_t despawns = 0;      // objects taken out by despawn_object
  uint64_t map_switches = 0;  // switch_map calls
  uint64_t runtimes_discarded = 0;
  // The discarded runtime's sizes once every node was unloaded: all zero unless something leaked.
  LogicRuntimeSizes last_discarded;
};

}  // namespace tickwire::world
