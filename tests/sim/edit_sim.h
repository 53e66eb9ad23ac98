// EditSim: a game sim with two clients standing still, an editor admitted with world authority and
// a watcher without it, shared by the scene edit sims (fields, components and verbs; wiring).
#pragma once

#include <gtest/gtest.h>

#include <string_view>
#include <vector>

#include "game_sim.h"

namespace tickwire::test {

struct EditSim {
  explicit EditSim(uint64_t seed, const GameSimConfig& config = {}) : sim(seed, config) {
    editor = &sim.add_client(standing(true));
    watcher = &sim.add_client(standing(false));
    sim.run_for(Duration::from_seconds(1.5));
    EXPECT_TRUE(sim.all_welcomed());
  }
  static GameClientSetup standing(bool authority) {
    GameClientSetup setup;
    setup.input = [](uint32_t) { return protocol::InputCmd{}; };
    setup.world_authority = authority;
    return setup;
  }
  uint32_t object(std::string_view key) const { return *sim.map.object_index(key); }
  std::vector<protocol::SceneEditRefused> refusals(SimGameClient& c) {
    std::vector<protocol::SceneEditRefused> out;
    while (auto r = c.facade->receive_edit_refusal()) out.push_back(*r);
    return out;
  }
  const protocol::SceneNodeState& server_state() const { return *sim.game.scene_state(); }

  GameSim sim;
  SimGameClient* editor = nullptr;
  SimGameClient* watcher = nullptr;
};

}  // namespace tickwire::test
