// What the eight button bits of an InputCmd mean to the reference game's pawn. The engine carries
// the byte without reading it; the game names its bits here and registers them in its vocabulary.
#pragma once

#include <cstdint>

namespace tickwire::world {

enum PawnButton : uint32_t {
  kButtonJump = 1u << 0,  // jump (only while grounded; holding it jumps again on landing)
  kButtonRun = 1u << 1,   // run speed instead of walk speed
  kButtonUse = 1u << 2,   // interact with what the pawn looks at (not read by the mover)
  kButtonFire = 1u << 3,  // fire (not read by the mover)
  kButtonCrouch = 1u << 4,  // crouch while held (a posture: kept through a starved run)
  kButtonReserved5 = 1u << 5,
  kButtonReserved6 = 1u << 6,
  kButtonReserved7 = 1u << 7,
};

inline constexpr uint32_t kPawnButtonMask = 0xFFu;  // InputCmd::buttons carries 8 bits on the wire

constexpr bool button_held(uint32_t buttons, PawnButton button) { return (buttons & button) != 0; }

}  // namespace tickwire::world
