// A pawn's placement counter: one byte that every placement (spawn, respawn, teleport) bumps,
// wrapping 255 -> 0. It is replicated, so a client snaps its smoothing offsets when it changes, and
// a forgiveness claim carries it so a claim simulated before a placement can be refused.
#pragma once

#include <cstdint>

namespace tickwire::world {

struct PawnSpawnEpoch {
  uint8_t value = 0;

  // A byte rather than a bit: a chained teleport bumps twice inside one round trip.
  constexpr void bump() { value = static_cast<uint8_t>(value + 1u); }
  friend constexpr bool operator==(PawnSpawnEpoch, PawnSpawnEpoch) = default;
};

}  // namespace tickwire::world
