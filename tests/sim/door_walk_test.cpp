// Walking into the world's solids over the network: a closed door (a kinematic body at rest) and a
// static collider stop the predicted walk where the server's stops, so a client pressing into them
// for seconds logs no correction; a pawn walking through the doorway a door opens is not held back.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "game_profiles.h"
#include "game_sim.h"
#include "support.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

// A closed door 4 m ahead of the spawn (it slides up 3 m when opened) and a static pillar beside.
std::string door_map() {
  return R"({"format": "tickwire-map", "version": 2, "name": "door", "boxes": [{"tag": "floor", "material": "concrete",)"
         R"( "min": [-50, -1, -50], "max": [50, 0, 50]}], "spawns": [{"position": [0, 0, 0], "yaw_deg": 0}, {"position": [6, 0, 0], "yaw_deg": 0}],)"
         R"( "objects": [{"key": "door", "kind": "door", "position": [0, 1.5, 4], "components": [{"name": "mover",)"
         R"( "channels": [0, 0], "settings": {"axis": [0, 1, 0], "distance_m": 3, "speed_mps": 2}}, {"name": "collider",)"
         R"( "settings": {"half_extents": [1.5, 1.5, 0.1]}}]}, {"key": "pillar", "kind": "light", "position": [6, 1, 3],)"
         R"( "components": [{"name": "light", "channels": [1, 1, 1, 1]}, {"name": "collider", "settings": {"half_extents": [1, 1, 0.5]}}]}]})";
}

TEST(DoorWalk, WalkingIntoAClosedDoorOrAColliderLogsNoCorrection) {
  const uint64_t seed = test_seed(0xd00e);
  GameSimConfig config;
  config.map_text = door_map();
  GameSim sim(seed, config);
  GameClientSetup setup;
  setup.up = setup.down = *link_profile("transatlantic");
  setup.input = walk_forward();
  SimGameClient& first = sim.add_client(setup);
  SimGameClient& second = sim.add_client(setup);
  sim.run_for(Duration::seconds(10));
  ASSERT_TRUE(sim.all_welcomed());
  // The spawns go in admission order: the one at x = 0 faces the door.
  const bool first_at_door = std::fabs(sim.pawn_of(first).feet.x) < 1.0f;
  SimGameClient& at_door = first_at_door ? first : second;
  SimGameClient& at_pillar = first_at_door ? second : first;
  const float door_face = 4.0f - 0.1f - sim.mover.settings().radius_m;
  const float pillar_face = 3.0f - 0.5f - sim.mover.settings().radius_m;
  std::printf("[ door walk ] transatlantic, seed %llu: stopped at z %.4f (door face %.4f) and %.4f (pillar %.4f); "
              "corrections %llu and %llu, snaps %llu and %llu\n",
              static_cast<unsigned long long>(seed), sim.pawn_of(at_door).feet.z, door_face, sim.pawn_of(at_pillar).feet.z,
              pillar_face, static_cast<unsigned long long>(at_door.client.predictor()->stats().corrections),
              static_cast<unsigned long long>(at_pillar.client.predictor()->stats().corrections),
              static_cast<unsigned long long>(at_door.client.predictor()->stats().snaps.total()),
              static_cast<unsigned long long>(at_pillar.client.predictor()->stats().snaps.total()));
  EXPECT_NEAR(sim.pawn_of(at_door).feet.z, door_face, 0.01f);
  EXPECT_NEAR(sim.pawn_of(at_pillar).feet.z, pillar_face, 0.01f);
  EXPECT_NEAR(at_door.facade->own_position().z, door_face, 0.01f) << "the predicted walk stops at the door too";
  EXPECT_EQ(at_door.client.predictor()->stats().corrections, 0u);
  EXPECT_EQ(at_pillar.client.predictor()->stats().corrections, 0u);

  // The door opens (slides up): the walker goes through.
  ASSERT_TRUE(sim.game.despawn_object(*sim.map.object_index("door")));
  sim.run_for(Duration::seconds(2));
  EXPECT_GT(sim.pawn_of(at_door).feet.z, 5.0f) << "its body went with it";
}

}  // namespace
}  // namespace tickwire
