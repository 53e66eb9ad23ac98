// Why a call, continuation or node did not happen. Every refusal in the logic runtime is one of
// these, counted; none is an error to the map or a message to a player (a call to an absent node is
// silent by design: the node may spawn back and be reached again).
#pragma once

#include "tickwire/core/reasons.h"

namespace tickwire {

TW_REASONS(LogicDrop,
  absent_target,       // a call naming no loaded node, and the host took no such name
  unknown_input,       // a loaded target none of whose behaviours has the input
  target_disabled,     // a behaviour took the input but is switched off (a disabled relay)
  bad_parameter,       // a behaviour refused the call's parameter (a negative interval)
  call_depth_cap,      // a call nested deeper than the cap: a wiring cycle broken
  queue_full,          // a delay or wake refused: the scheduled queue is at its cap
  unloaded_in_flight,  // a continuation or wake of a node unloaded before it came due
  disabled_in_flight,  // a continuation of a node that was switched off before it came due
  source_unloaded,     // the rest of an action list whose own node was unloaded while it ran
  stale_generation,   // a scheduled entry for an id now held by another node (never expected)
  rewired_in_flight   // the rest of an action list whose node was rewired before it came due
)

// What LogicRuntime::load answers: loaded, or why the node was refused (nothing of it kept).
TW_REASONS(LogicLoad,
  loaded,
  over_node_cap,
  too_many_behaviours,
  too_many_wires,
  too_many_actions,
  name_too_long,
  bad_delay,           // negative or past the limit
  bad_parameter,       // not a finite number
  absent              // rewire: no such node is loaded
)

}  // namespace tickwire
