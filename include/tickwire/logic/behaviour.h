// How a logic component plugs into the runtime: a behaviour takes named inputs and fires named
// outputs through its context. The node's wiring (which output runs which actions) is the map's;
// the behaviour only decides when an output fires. The reference game's door, button, light and
// plate are behaviours of this shape on the world side; relay, timer, counter and gate live here.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "tickwire/logic/activator.h"
#include "tickwire/logic/logic_limits.h"

namespace tickwire {

class ByteRecordReader;
class ByteRecordWriter;
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

  // A checkpoint (seed 003): the behaviour's own state, whatever makes a restored node step exactly
  // as this one would (its wakes are the runtime's, saved with its queue). Nothing: no state.
  virtual void save(ByteRecordWriter& write) const { (void)write; }
  // Puts back what save wrote into a behaviour of the same kind freshly built from the same map
  // (its settings as the restored scene edits leave them). No context: nothing fires, nothing is
  // scheduled. False, the behaviour as it was, when the bytes do not read or break `limits`.
  virtual bool restore(ByteRecordReader& read, const LogicLimits& limits) {
    (void)read;
    (void)limits;
    return true;
  }
};

}  // namespace tickwire
