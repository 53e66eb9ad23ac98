// The light's switch: only an edge changes the bit and fires.
#include "tickwire/world/light_behaviour.h"

#include "tickwire/logic/logic_context.h"

namespace tickwire::world {

LogicInputResult LightBehaviour::input(std::string_view name, const LogicSignal&, LogicContext& context) {
  bool changed = false;
  if (name == kTurnOn) {
    changed = on_.set(true);
  } else if (name == kTurnOff) {
    changed = on_.set(false);
  } else if (name == kToggle) {
    changed = on_.toggle();
  } else {
    return LogicInputResult::not_an_input;
  }
  if (changed) {
    context.state_changed();
    context.fire(on() ? kOnTurnedOn : kOnTurnedOff);
  }
  return LogicInputResult::handled;
}

void LightBehaviour::write_state(ObjectComponent& component) const {
  component.bits = static_cast<uint8_t>(on() ? component.bits | kOnBit : component.bits & ~kOnBit);
}

}  // namespace tickwire::world
