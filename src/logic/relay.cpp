// The relay's inputs: a trigger passes through while enabled; a disable also drops what is in flight.
#include "tickwire/logic/relay.h"

#include "tickwire/logic/logic_context.h"

namespace tickwire {

LogicInputResult LogicRelay::input(std::string_view name, const LogicSignal& signal, LogicContext& context) {
  (void)signal;
  if (name == kTrigger) {
    if (!enabled_.value()) return LogicInputResult::disabled;
    context.fire(kOnTrigger);
    return LogicInputResult::handled;
  }
  if (name == kEnable) {
    set_enabled(true, context);
  } else if (name == kDisable) {
    set_enabled(false, context);
  } else if (name == kToggle) {
    set_enabled(!enabled_.value(), context);
  } else {
    return LogicInputResult::not_an_input;
  }
  return LogicInputResult::handled;
}

void LogicRelay::set_enabled(bool enabled, LogicContext& context) {
  if (enabled_.set(enabled) && !enabled) context.drop_continuations();
}

}  // namespace tickwire
