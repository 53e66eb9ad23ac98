// The reference game's vocabulary: its kinds, entity and object flag bits, component wire ids,
// pawn values and buttons, registered once and named here for the game's own code. The engine
// carries these as plain values; both ends register this same vocabulary (it is in the contract).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tickwire/protocol/vocabulary.h"

namespace tickwire::world {

// Kinds (values are only ever appended).
inline constexpr uint8_t kKindPlayerPawn = 1;
inline constexpr uint8_t kKindProp = 2;
inline constexpr uint8_t kKindButton = 3;
inline constexpr uint8_t kKindDoor = 4;
inline constexpr uint8_t kKindLight = 5;
inline constexpr uint8_t kKindPressurePlate = 6;

// Entity flag bits: a client may claim grounded and crouched; noclip and frozen are the server's.
inline constexpr uint8_t kFlagGrounded = 1u << 0;
inline constexpr uint8_t kFlagCrouched = 1u << 1;
inline constexpr uint8_t kFlagNoclip = 1u << 2;
inline constexpr uint8_t kFlagFrozen = 1u << 3;

// Object flag bits.
inline constexpr uint8_t kObjectEnabled = 1u << 0;
inline constexpr uint8_t kObjectHidden = 1u << 1;

// Component wire ids (seed 000's ComponentWireIds; values are only ever appended): 1..8 as the seed
// numbers them, then the reference game's own. `other` carries a component the game gives no id.
enum class ComponentWireId : uint8_t {
  light = 1,
  mover = 2,
  button = 3,
  pressure_plate = 4,
  physics_prop = 5,
  light_probe_volume = 6,
  voxel_volume = 7,
  instance = 8,
  trigger_volume = 9,
  other = 15,
};

// The wire id of a map component by its name in the map file ("light", "mover", "button", "plate",
// "physics_prop", "light_probe_volume", "voxel_volume", "instance", "trigger"); anything else is `other`.
ComponentWireId component_wire_id(std::string_view map_component_name);

// The owner detail's pawn values, in registration order.
inline constexpr std::size_t kValueStanceHeight = 0;  // the collision box's height
inline constexpr std::size_t kValueEyeHeight = 1;     // the eye above the feet

// A remote pawn's record carries no eye height: it follows the crouched bit (the mover's standing
// or crouched eye), so the wire never spends a float on what a flag already says.

const GameVocabulary& reference_vocabulary();

}  // namespace tickwire::world
