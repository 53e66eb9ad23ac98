// The button's latch: a press is an edge or nothing; the reset delay rides the logic's queue, so it
// follows the world time scale and vanishes with the node.
#include "tickwire/world/button_behaviour.h"

#include "tickwire/logic/logic_context.h"

namespace tickwire::world {

LogicInputResult ButtonBehaviour::input(std::string_view name, const LogicSignal&, LogicContext& context) {
  if (name == kPress) {
    if (!pressed_.set(true)) return LogicInputResult::handled;  // latched: a second press is nothing
    context.state_changed();
    if (settings_.reset_after > Duration{}) (void)context.wake_after(settings_.reset_after, kRelease);
    context.fire(kOnPressed);
  } else if (name == kReset) {
    release(context);
  } else {
    return LogicInputResult::not_an_input;
  }
  return LogicInputResult::handled;
}

void ButtonBehaviour::woken(uint32_t tag, LogicContext& context) {
  if (tag == kRelease) release(context);
}

void ButtonBehaviour::release(LogicContext& context) {
  if (!pressed_.set(false)) return;
  context.cancel_wakes(kRelease);
  context.state_changed();
  context.fire(kOnReleased);
}

void ButtonBehaviour::write_state(ObjectComponent& component) const {
  component.bits = static_cast<uint8_t>(pressed() ? component.bits | kPressedBit : component.bits & ~kPressedBit);
}

}  // namespace tickwire::world
