// The gate's inputs set its level; only an edge fires.
#include "tickwire/logic/gate.h"

#include <cmath>

#include "tickwire/logic/logic_context.h"

namespace tickwire {

LogicInputResult LogicGate::input(std::string_view name, const LogicSignal& signal, LogicContext& context) {
  if (name == kSetTrue) {
    set(true, context);
  } else if (name == kSetFalse) {
    set(false, context);
  } else if (name == kToggle) {
    set(!level_.value(), context);
  } else if (name == kSet) {
    if (!signal.parameter || !std::isfinite(*signal.parameter)) return LogicInputResult::bad_parameter;
    set(*signal.parameter != 0.0, context);
  } else {
    return LogicInputResult::not_an_input;
  }
  return LogicInputResult::handled;
}

void LogicGate::set(bool level, LogicContext& context) {
  if (level_.set(level)) context.fire(level ? kOnTrue : kOnFalse);
}

}  // namespace tickwire
