// The reference game's vocabulary, registered once.
#include "tickwire/world/reference_vocabulary.h"

#include "tickwire/world/pawn_buttons.h"

namespace tickwire::world {

const GameVocabulary& reference_vocabulary() {
  static const GameVocabulary vocabulary = [] {
    GameVocabulary v;
    v.kind(kKindPlayerPawn, "playerPawn")
        .kind(kKindProp, "prop")
        .kind(kKindButton, "button")
        .kind(kKindDoor, "door")
        .kind(kKindLight, "light")
        .kind(kKindPressurePlate, "pressurePlate");
    v.entity_flag(0, "grounded", true).entity_flag(1, "crouched", true).entity_flag(2, "noclip").entity_flag(3, "frozen");
    v.object_flag(0, "enabled").object_flag(1, "hidden");
    const auto id = [](ComponentWireId c) { return static_cast<uint8_t>(c); };
    v.component(id(ComponentWireId::light), "light", 4)
        .component(id(ComponentWireId::mover), "mover", 4)
        .component(id(ComponentWireId::button), "button", 4)
        .component(id(ComponentWireId::pressure_plate), "pressurePlate", 4)
        .component(id(ComponentWireId::physics_prop), "physicsProp", 4)
        .component(id(ComponentWireId::light_probe_volume), "lightProbeVolume", 4)
        .component(id(ComponentWireId::voxel_volume), "voxelVolume", 4)
        .component(id(ComponentWireId::instance), "instance", 4)
        .component(id(ComponentWireId::trigger_volume), "triggerVolume", 4)
        .component(id(ComponentWireId::other), "other", 4);
    v.pawn_value("stanceHeight").pawn_value("eyeHeight");
    v.button(0, "jump").button(1, "run").button(2, "use").button(3, "fire").button(4, "crouch", /*posture=*/true);
    return v;
  }();
  return vocabulary;
}

ComponentWireId component_wire_id(std::string_view name) {
  struct Named {
    std::string_view name;
    ComponentWireId id;
  };
  static constexpr Named kNames[] = {
      {"light", ComponentWireId::light},
      {"mover", ComponentWireId::mover},
      {"button", ComponentWireId::button},
      {"plate", ComponentWireId::pressure_plate},
      {"physics_prop", ComponentWireId::physics_prop},
      {"light_probe_volume", ComponentWireId::light_probe_volume},
      {"voxel_volume", ComponentWireId::voxel_volume},
      {"instance", ComponentWireId::instance},
      {"trigger", ComponentWireId::trigger_volume},
  };
  for (const Named& named : kNames) {
    if (named.name == name) return named.id;
  }
  return ComponentWireId::other;
}

}  // namespace tickwire::world
