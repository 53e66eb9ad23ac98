// A whole-system sim's presser and its audience: one client standing still, looking along a yaw,
// holding Use while the test says so, and two more clients that only watch, all on one link.
#pragma once

#include <memory>

#include "game_sim.h"
#include "tickwire/world/pawn_buttons.h"

namespace tickwire::test {

// Adds the presser (client 0) and two watchers; returns the switch the test flips to press.
inline std::shared_ptr<bool> add_presser_and_watchers(GameSim& sim, const LinkModel& link, float yaw_deg) {
  auto pressing = std::make_shared<bool>(false);
  GameClientSetup presser;
  presser.up = presser.down = link;
  presser.input = [pressing, yaw_deg](uint32_t) {
    protocol::InputCmd cmd;
    cmd.yaw_deg = yaw_deg;
    cmd.buttons = *pressing ? uint32_t{world::kButtonUse} : 0u;
    return cmd;
  };
  sim.add_client(presser);
  GameClientSetup watcher;
  watcher.up = watcher.down = link;
  sim.add_client(watcher);
  sim.add_client(watcher);
  return pressing;
}

}  // namespace tickwire::test
