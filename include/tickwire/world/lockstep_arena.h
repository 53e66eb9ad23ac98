// The reference game of deterministic mode: ships in a walled arena, steered and fired by one
// 4-byte input per seat per frame, shots that fly and hit, scores, respawns from a seeded generator
// kept in the state. Every number is an integer (positions in 1/256 of a unit), so every peer on
// every compiler computes the same bits; the state saves to a fixed little-endian layout.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "tickwire/lockstep/deterministic_game.h"

namespace tickwire::world {

// One seat's input: buttons (arena_button bits) and an aim direction.
struct ArenaInput {
  uint8_t buttons = 0;
  int8_t aim_x = 0;
  int8_t aim_y = 0;
  uint8_t spare = 0;
};
inline constexpr uint32_t kArenaInputBytes = 4;
namespace arena_button {
inline constexpr uint8_t left = 1, right = 2, up = 4, down = 8, fire = 16;
}
void write_arena_input(const ArenaInput& input, std::span<uint8_t> out);
ArenaInput read_arena_input(std::span<const uint8_t> in);

inline constexpr uint32_t kArenaMaxSeats = 16;
inline constexpr uint32_t kArenaMaxShots = 64;
inline constexpr int32_t kArenaUnit = 256;            // fixed point: 256 per unit
inline constexpr int32_t kArenaSize = 64 * kArenaUnit;

struct ArenaShip {
  int32_t x = 0, y = 0, vx = 0, vy = 0;
  uint8_t health = 0;
  uint8_t cooldown = 0;
  uint16_t score = 0;
  bool present = false;
};

struct ArenaShot {
  int32_t x = 0, y = 0, vx = 0, vy = 0;
  uint8_t owner = 0;
  uint8_t ttl = 0;
};

// The rules a build plays by. Peers (and a replay) must agree on them: a replay under other rules
// reports the first frame they change.
struct ArenaRules {
  int32_t thrust = 12;  // velocity added per frame a direction is held, in 1/256 of a unit
};

class LockstepArena final : public lockstep::DeterministicGame {
 public:
  LockstepArena(uint32_t seats, uint32_t seed, ArenaRules rules = {});

  uint32_t seats() const override { return seats_; }
  uint32_t input_bytes() const override { return kArenaInputBytes; }
  std::size_t max_state_bytes() const override;
  std::size_t save(std::span<uint8_t> out) const override;
  Status load(std::span<const uint8_t> saved) override;
  void step(const lockstep::FrameInputs& inputs) override;

  uint32_t frame() const { return frame_; }
  const ArenaShip& ship(uint32_t seat) const { return ships_[seat]; }
  uint32_t shots() const { return shot_count_; }

  // Planted faults, for the tests that prove they are caught. From `frame` on, this instance's
  // ships drift by one 1/256 step each frame: a divergence only this peer has.
  void plant_divergence(uint32_t frame) { diverge_from_ = frame; }
  // step() reads a counter save() does not hold: a nondeterminism SyncTest must catch.
  void plant_hidden_state() { hidden_state_ = true; }

 private:
  uint32_t next_random();
  void steer(ArenaShip& ship, const ArenaInput& input);
  void fire(uint32_t seat, const ArenaInput& input);
  void move_shots();
  void respawn(ArenaShip& ship);

  uint32_t seats_;
  ArenaRules rules_;
  uint32_t frame_ = 0;
  uint32_t rng_state_;
  std::array<ArenaShip, kArenaMaxSeats> ships_{};
  std::array<ArenaShot, kArenaMaxShots> shots_{};
  uint32_t shot_count_ = 0;

  uint32_t diverge_from_ = 0;  // 0: never
  bool hidden_state_ = false;
  uint32_t hidden_counter_ = 0;
};

}  // namespace tickwire::world
