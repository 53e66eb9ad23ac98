// A headless player for the arena: holds a seeded choice of buttons and aim for a few frames, then
// picks again, firing now and then. Its choices change often enough that remote guesses go wrong,
// which is what a rollback test needs.
#pragma once

#include <cstdint>

#include "tickwire/core/rng.h"
#include "tickwire/lockstep/deterministic_game.h"
#include "tickwire/world/lockstep_arena.h"

namespace tickwire::world {

class ArenaBotInput final : public lockstep::LocalInputSource {
 public:
  explicit ArenaBotInput(uint64_t seed) : rng_(seed) {}
  void sample(uint32_t frame, std::span<uint8_t> out) override;

 private:
  Rng rng_;
  ArenaInput held_;
  uint32_t hold_until_ = 0;
};

}  // namespace tickwire::world
