// How a logic component plugs into the runtime: a behaviour takes named inputs and fires named
// outputs through its context. The node's wiring (which output runs which actions) is the map's;
// the behaviour only decides when an output fires. The reference game's door, button, light and
// plate are behaviours of this shape on the world side; relay, timer, counter and gate live here.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "tickwire/logic/activator.h"

namespace tickwire {

class LogicContext;

// What a call brings: who started the run, and the call's number if it has one.
struct LogicSignal {
  LogicActivator activator;
  std::optional<double> parameter;
};

enum class LogicInputResult : uint8_t {
  handled,         // the input did what it does (firing nothing is fine)
  not_an_input,    // this behaviour has no such input (another behaviour of the node may)
  disabled,        // an input of this behaviour, ignored because it is switched off
  bad_parameter,  // an input of this behaviour, refused for its parameter
};

class LogicBehaviour {
 public:
  virtual ~LogicBehaviour() = default;

  // The component kind, for traces and reports ("relay", "door").
  virtual std::string_view kind() const = 0;

  // One input, named as the map's wiring names it.
  virtual LogicInputResult input(std::string_view name, const LogicSignal& signal, LogicContext& context) = 0;

  // A wake this behaviour asked for (LogicContext::wake_after) came due; the context carries the
  // activator of the run that asked.
  virtual void woken(uint32_t tag, LogicContext& context) {
    (void)tag;
    (void)context;
  }

  // The node was just loaded (a timer that starts on starts here). Outputs may fire.
  virtual void loaded(LogicContext& context) { (void)context; }
};

}  // namespace tickwire
