// A behaviour of a map object: a logic behaviour (inputs, outputs, wakes) that also says what a
// validated Use does to it and writes its visible state into the component it belongs to, which is
// what the object's records and the rest table carry. The reference game's door/mover, button,
// light, pressure plate and trigger volume are of this shape; the host (MapLogicHost) builds one
// per logic component and calls write_state whenever the runtime reports the state changed.
#pragma once

#include <string_view>

#include "tickwire/logic/behaviour.h"
#include "tickwire/world/map.h"

namespace tickwire::world {

class ObjectBehaviour : public LogicBehaviour {
 public:
  // The input a validated Use delivers to this behaviour; empty when a Use does nothing to it.
  virtual std::string_view use_input() const { return {}; }
  // Writes the state it owns (some channels, some bits) into its component; the rest is untouched.
  virtual void write_state(ObjectComponent& component) const = 0;
};

}  // namespace tickwire::world
