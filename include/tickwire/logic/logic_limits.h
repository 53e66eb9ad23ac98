// Every list the logic runtime keeps has a named cap: nodes, scheduled continuations, the call
// depth that breaks wiring cycles, and the size of what one node may bring in. A node over a cap is
// refused at load (counted), a continuation over the queue's cap is refused when scheduled (counted).
#pragma once

#include <cstdint>

#include "tickwire/clock/time.h"

namespace tickwire {

// Seed 000: a per-fire call-depth cap of 8 breaks any re-entrant wiring cycle.
inline constexpr uint32_t kLogicMaxCallDepth = 8;

struct LogicLimits {
  uint32_t max_nodes = 65536;             // a map's logic objects (the rest table's 65,536 objects)
  uint32_t max_scheduled = 4096;          // continuations and wakes in flight, all nodes together
  uint32_t max_call_depth = kLogicMaxCallDepth;
  uint32_t max_behaviours_per_node = 4;   // one per logic component; an object record has <= 4 sections
  uint32_t max_wires_per_node = 64;
  uint32_t max_actions_per_wire = 64;
  uint32_t max_name_bytes = 64;           // node, output, target and input names
  Duration max_delay = Duration::seconds(24 * 3600);  // one authored delay (or a timer's interval)
};

struct LogicSettings {
  Duration tick_length;     // the room's fixed tick
  double time_scale = 1.0;  // the world time scale at start (it may change: LogicRuntime::set_time_scale)
  LogicLimits limits;
};

}  // namespace tickwire
