// What a behaviour may do while it handles an input or a wake: fire its node's outputs (the run's
// activator and call depth travel with it), ask to be woken after some game time, cancel its wakes,
// drop its node's continuations (a disable), and tell the host its visible state changed. A context
// lives for one call into a behaviour; the runtime makes it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tickwire/clock/time.h"
#include "tickwire/logic/activator.h"
#include "tickwire/logic/node_id.h"

namespace tickwire {

class LogicRuntime;

class LogicContext {
 public:
  LogicNodeId node() const { return node_; }
  LogicActivator activator() const { return activator_; }
  // How many calls deep this run is (0 when the host itself delivered or a wake came due).
  uint32_t depth() const { return depth_; }
  // The longest wake the runtime takes (LogicLimits::max_delay): a behaviour checks what it is given.
  Duration max_delay() const;
  // The world time scale the runtime runs at now: a behaviour that moves per tick scales its step
  // (a tick advances tick length x scale of game time).
  double time_scale() const;

  // Fires one of the node's outputs: its wired actions run now, in order, up to the first delay.
  void fire(std::string_view output);
  // Calls `woken(tag)` on this behaviour after `game_time` (LogicClock's rule; 0 means next tick),
  // with this run's activator. False when the scheduled queue is full (counted as queue_full).
  bool wake_after(Duration game_time, uint32_t tag);
  // Forgets every wake of this behaviour with `tag`.
  void cancel_wakes(uint32_t tag);
  // Drops every continuation the node has in flight (what a disable does; counted).
  void drop_continuations();
  // Tells the host the behaviour's visible state changed.
  void state_changed();

 private:
  friend class LogicRuntime;
  LogicContext(LogicRuntime& runtime, LogicNodeId node, uint64_t generation, std::size_t behaviour,
               LogicActivator activator, uint32_t depth)
      : runtime_(runtime), node_(node), generation_(generation), behaviour_(behaviour), activator_(activator),
        depth_(depth) {}

  LogicRuntime& runtime_;
  LogicNodeId node_;
  uint64_t generation_;
  std::size_t behaviour_;
  LogicActivator activator_;
  uint32_t depth_;
};

}  // namespace tickwire
