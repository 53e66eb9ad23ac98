// A client's own prop (sim: client) on a voxel volume, over the network (SimNetwork, seeded): the
// pawn walks into it and shoves it along a voxel floor (no map box under it) into a voxel wall (a
// client prop never blocks the pawn, so the pawn walks on through it up to the wall). The
// prop slides on the cooked chunks the pawn's prediction streamed, never sinks into the floor, and
// stops at the wall.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>

#include "game_profiles.h"
#include "game_sim.h"
#include "support.h"
#include "tickwire/world/client_world.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

// A 32 x 32 m floor of 1 m stone cells (top at y = 0) and a 2 m wall of them across z = 4..5; a 1 m
// client prop at z = 2 on the floor (1.5 m short of the wall), the pawn at z = -6 walking at it (+z);
// the map's only box a post far off the floor.
const char* kMap = R"({"format": "tickwire-map", "version": 2, "name": "voxel-shove",
  "boxes": [{"tag": "post", "material": "concrete", "min": [60, -1, 60], "max": [61, 3, 61]}],
  "spawns": [{"position": [0, 0, -6], "yaw_deg": 0}],
  "voxelGrids": [{"name": "yard", "size": [32, 3, 32], "cellM": 1, "chunkEdge": 8, "blocks": [{"name": "stone"}],
                  "fills": [{"min": [0, 0, 0], "max": [31, 0, 31], "block": 1}, {"min": [0, 1, 20], "max": [31, 2, 20], "block": 1}]}],
  "objects": [
    {"key": "yard", "kind": "voxel_volume", "position": [-16, -1, -16],
     "components": [{"name": "voxel_volume", "channels": [], "bits": 1, "settings": {"grid": 0}}]},
    {"key": "crate", "kind": "crate_prop", "position": [0, 0.5, 2],
     "components": [{"name": "physics_prop", "channels": [], "bits": 0, "settings": {"mass": 10, "sim": 1}}]}]})";

constexpr float kWallZ = 4.0f;

TEST(VoxelPropsSim, AClientPropShovedAlongAVoxelFloorStopsAtAVoxelWall) {
  const uint64_t seed = test_seed(0x5b0e);
  GameSimConfig config;
  config.map_text = kMap;
  GameSim sim(seed, config);
  world::ClientWorld world(sim.map, sim.mover, sim.statics, sim.solids);
  GameClientSetup setup;
  setup.up = setup.down = *link_profile("transatlantic");
  setup.model = &world.model();
  setup.input = [](uint32_t) {
    protocol::InputCmd cmd;
    cmd.move_y = 1.0f;
    return cmd;
  };
  sim.add_client(setup);
  float lowest_m = 1e9f, farthest_z = -1e9f;
  sim.after_frame = [&](SimGameClient& c) {
    const Predictor* predictor = c.client.predictor();
    if (predictor == nullptr) return;
    world.follow(*predictor, 1.0 / 60.0);
    const world::ClientProp& crate = world.props().props().front();
    lowest_m = std::min(lowest_m, crate.box().min.y);
    farthest_z = std::max(farthest_z, crate.box().max.z);
  };
  sim.run_for(Duration::seconds(8));
  ASSERT_TRUE(sim.all_welcomed());
  const world::ClientProp& crate = world.props().props().front();
  std::printf("[ voxel shove ] seed %llu: %llu pushes, crate at z %.3f (front %.3f, wall %.1f), lowest %.4f, respawns %llu\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(world.props().counts().pushes),
              crate.position.z, farthest_z, kWallZ, lowest_m, static_cast<unsigned long long>(world.props().counts().respawns));
  EXPECT_GT(world.props().counts().pushes, 10u) << "the pawn shoved it";
  EXPECT_EQ(world.props().counts().respawns, 0u) << "it never fell out of the world";
  EXPECT_GT(lowest_m, -0.01f) << "it slid on the voxel floor, never into it";
  EXPECT_GT(farthest_z, kWallZ - 0.05f) << "shoved all the way to the wall";
  EXPECT_LE(farthest_z, kWallZ) << "and stopped at it";
}

}  // namespace
}  // namespace tickwire
