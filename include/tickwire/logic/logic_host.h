// What the logic runtime asks of the world it runs in. The runtime is pure: it holds nodes, wiring,
// behaviours and the scheduled queue, and knows nothing of entities, sessions or bodies. A host
// (the room's NetLogicHost in world/, a test's recorder) binds it to those through this seam: calls
// to names that are not logic nodes (the activator's pawn, a world setting), visible state to
// replicate, fired outputs to announce, and the debug trace.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "tickwire/logic/activator.h"
#include "tickwire/logic/node_id.h"

namespace tickwire {

// A call as the host sees it: who fired what, and what it asks of `target`.
struct LogicHostCall {
  LogicNodeId source;
  std::string_view output;
  std::string_view target;
  std::string_view input;
  std::optional<double> parameter;
  LogicActivator activator;
};

class ILogicHost {
 public:
  virtual ~ILogicHost() = default;

  // A call whose target names no loaded node. The host may own that name (a pawn, a world setting);
  // true if it took the call. False drops it in silence (counted as absent_target), the same silence
  // an unloaded object gets until it spawns back.
  virtual bool deliver_to_host(const LogicHostCall& call) {
    (void)call;
    return false;
  }

  // A behaviour's visible state changed (a door's open fraction, a light's bit): the host writes the
  // component's section from it. Behaviour `index` is its place in the list given to load.
  virtual void state_changed(LogicNodeId node, std::size_t behaviour_index) {
    (void)node;
    (void)behaviour_index;
  }

  // A node fired an output, before its wiring runs (entityEvent announcements hang off this).
  virtual void output_fired(LogicNodeId node, std::string_view output, LogicActivator activator) {
    (void)node;
    (void)output;
    (void)activator;
  }

  // Whether firings are traced (the host's log is at debug level): no line is formatted otherwise.
  virtual bool tracing() const { return false; }
  // One line per call, e.g. "doorButton fired onPressed -> slidingDoor.toggle".
  virtual void trace(std::string_view line) { (void)line; }
};

}  // namespace tickwire
