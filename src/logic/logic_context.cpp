// A behaviour's context only forwards: what it may do is decided by the runtime, which knows the
// node's generation and so never lets a behaviour of an unloaded node act.
#include "tickwire/logic/logic_context.h"

#include "tickwire/logic/logic_runtime.h"

namespace tickwire {

Duration LogicContext::max_delay() const { return runtime_.limits().max_delay; }
double LogicContext::time_scale() const { return runtime_.clock().time_scale(); }

void LogicContext::fire(std::string_view output) { runtime_.context_fire(*this, output); }

bool LogicContext::wake_after(Duration game_time, uint32_t tag) {
  return runtime_.context_wake_after(*this, game_time, tag);
}

void LogicContext::cancel_wakes(uint32_t tag) { runtime_.context_cancel_wakes(*this, tag); }

void LogicContext::drop_continuations() { runtime_.context_drop_continuations(*this); }

void LogicContext::state_changed() { runtime_.context_state_changed(*this); }

}  // namespace tickwire
