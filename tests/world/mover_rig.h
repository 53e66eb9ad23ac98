// A pawn, a mover and a list of static boxes for the world/ tests: place the pawn, hold one input
// for a number of 60 Hz ticks, read the state. Keeps each test about the figure it asserts.
#pragma once

#include <cstdint>
#include <vector>

#include "tickwire/protocol/input_frame.h"
#include "tickwire/world/character_mover.h"
#include "tickwire/world/pawn_buttons.h"
#include "tickwire/world/pawn_placer.h"

namespace tickwire::world::test {

inline constexpr float kTickS = 1.0f / 60.0f;
// The floor's top is y = 0.
inline constexpr Aabb kFloor{{-1000.0f, -1.0f, -1000.0f}, {1000.0f, 0.0f, 1000.0f}};

inline protocol::InputCmd move_cmd(float yaw_deg, float move_y = 1.0f, uint32_t buttons = 0, float move_x = 0.0f) {
  protocol::InputCmd cmd;
  cmd.yaw_deg = yaw_deg;
  cmd.move_x = move_x;
  cmd.move_y = move_y;
  cmd.buttons = buttons;
  return cmd;
}

inline protocol::InputCmd idle_cmd(float yaw_deg = 0.0f) { return move_cmd(yaw_deg, 0.0f); }

struct MoverRig {
  explicit MoverRig(const MoverSettings& s = {}) : settings(s), mover(s) { boxes.push_back(kFloor); }

  void place(Vec3 feet, float yaw_deg = 0.0f, bool crouched = false) {
    placer.place(pawn, {feet, {}, yaw_deg, 0.0f, crouched}, settings);
  }
  // Places the pawn on the floor and lets one idle tick find the ground.
  void stand_at(Vec3 feet, float yaw_deg = 0.0f) {
    place(feet, yaw_deg);
    run(idle_cmd(yaw_deg), 1);
  }
  void run(const protocol::InputCmd& cmd, int ticks) {
    for (int i = 0; i < ticks; ++i) pawn = mover.step(pawn, cmd, kTickS, boxes);
  }

  MoverSettings settings;
  CharacterMover mover;
  PawnPlacer placer;
  std::vector<Aabb> boxes;
  PawnState pawn;
};

}  // namespace tickwire::world::test
