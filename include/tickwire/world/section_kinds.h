// SectionKinds.Of (seed 000, "Networked Entities"): an object record carries no kind byte; its kind
// is what its component sections are. Both ends derive it here, in one place, so the server's idea
// of an object's kind and the client's can never drift apart.
#pragma once

#include <cstdint>
#include <span>

#include "tickwire/client/object_sample.h"

namespace tickwire::world {

// The NetKind of a record with these component wire ids: a button section makes a Button, else a
// mover a Door, else a light a Light, else a pressure plate a PressurePlate, else a physics prop a
// Prop; else 0 (no kind: nothing a kind's visual draws).
uint8_t section_kind(std::span<const uint8_t> component_wire_ids);
uint8_t section_kind(const ObjectSample& sample);

}  // namespace tickwire::world
