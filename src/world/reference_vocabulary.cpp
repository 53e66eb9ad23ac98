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
    v.component(static_cast<uint8_t>(ComponentWireId::light), "light", 4)
        .component(static_cast<uint8_t>(ComponentWireId::mover), "mover", 4)
        .component(static_cast<uint8_t>(ComponentWireId::button), "button", 4)
        .component(static_cast<uint8_t>(ComponentWireId::physics_prop), "physicsProp", 4)
        .component(static_cast<uint8_t>(ComponentWireId::other), "other", 4);
    v.pawn_value("stanceHeight").pawn_value("eyeHeight");
    v.button(0, "jump").button(1, "run").button(2, "use").button(3, "fire").button(4, "crouch", /*posture=*/true);
    return v;
  }();
  return vocabulary;
}

}  // namespace tickwire::world
