// An object record's kind from its sections, by the seed's precedence.
#include "tickwire/world/section_kinds.h"

#include <algorithm>
#include <array>

#include "tickwire/world/reference_vocabulary.h"

namespace tickwire::world {
namespace {

struct SectionKind {
  ComponentWireId component;
  uint8_t kind;
};

// First match wins: a button that also moves is a Button.
constexpr std::array<SectionKind, 5> kPrecedence{{
    {ComponentWireId::button, kKindButton},
    {ComponentWireId::mover, kKindDoor},
    {ComponentWireId::light, kKindLight},
    {ComponentWireId::pressure_plate, kKindPressurePlate},
    {ComponentWireId::physics_prop, kKindProp},
}};

}  // namespace

uint8_t section_kind(std::span<const uint8_t> component_wire_ids) {
  for (const SectionKind& rule : kPrecedence) {
    const auto id = static_cast<uint8_t>(rule.component);
    if (std::find(component_wire_ids.begin(), component_wire_ids.end(), id) != component_wire_ids.end()) return rule.kind;
  }
  return 0;
}

uint8_t section_kind(const ObjectSample& sample) {
  std::array<uint8_t, protocol::MaxComponentSections> ids{};
  const std::size_t count = std::min<std::size_t>(sample.section_count, ids.size());
  for (std::size_t k = 0; k < count; ++k) ids[k] = sample.sections[k].wire_id;
  return section_kind(std::span<const uint8_t>(ids.data(), count));
}

}  // namespace tickwire::world
