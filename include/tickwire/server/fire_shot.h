// FireShot: one shot as the room hands it to the game, after the room's own checks (an admitted
// session, its fire rate, a finite eye and a nonzero aim). The claimed eye is still a claim: the
// game recomputes its pawn's eye and drops a shot that strays (seed 000, "Hits"). The render time
// is the shooter's interpolation time, already bounded by the contract's max rewind.
#pragma once

#include <cstdint>

#include "tickwire/protocol/vec3.h"

namespace tickwire {

struct FireShot {
  uint32_t shot = 0;     // the client's shot counter, echoed in every hit event it causes
  protocol::Vec3 eye;    // the claimed eye origin, metres (the game re-checks it)
  protocol::Vec3 aim;    // the aim direction, unit length
  // The server tick (with its fraction) the shooter's interpolated world stood at when it fired,
  // within [the fire tick - the contract's max rewind, the fire tick]: the game traces the other
  // pawns and the movers as they stood then, and the shooter where the server holds it.
  double render_tick = 0;
  bool rewind_clamped = false;  // the client claimed an older time than the bound: traced at the bound
};

}  // namespace tickwire
