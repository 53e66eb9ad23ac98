// PawnPlacer: the only way a pawn is put somewhere outside the mover (spawn, respawn, teleport).
// Every placement bumps the pawn's placement epoch, which is how the client knows to snap rather
// than ease, and how the server knows a claim simulated before the placement describes the old place.
#pragma once

#include <cstdint>

#include "tickwire/world/mover_settings.h"
#include "tickwire/world/pawn_state.h"
#include "tickwire/world/vec3.h"

namespace tickwire::world {

struct Placement {
  Vec3 feet;
  Vec3 velocity_mps;
  float yaw_deg = 0;
  float pitch_deg = 0;
  bool crouched = false;
};

class PawnPlacer {
 public:
  // Puts the pawn at `where` with that velocity, look and stance (heights from the mover's
  // settings), not grounded until its next step finds a floor, and bumps its placement epoch. The
  // server-owned flags (noclip, frozen) are left as they were.
  void place(PawnState& pawn, const Placement& where, const MoverSettings& settings);

  uint64_t placements() const { return placements_; }

 private:
  uint64_t placements_ = 0;
};

}  // namespace tickwire::world
