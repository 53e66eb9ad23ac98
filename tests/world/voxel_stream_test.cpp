// Voxel chunks streamed by distance, on both ends at once, without a network: a floor of 10,000
// placed voxel tiles, a pawn put down 10,000 times on ground nobody stood near before and run off in
// a random direction. The server (the reference game: placing a pawn cooks what is under it, each
// tick streams around it) and a client's prediction world (synced before every predicted step) must
// never let it drop through, and must step it to the very same place: the same bodies near a player.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "game_rig.h"
#include "support.h"
#include "voxel_maps.h"
#include "tickwire/core/rng.h"
#include "tickwire/world/mover_prediction_model.h"
#include "tickwire/world/voxel_live.h"
#include "tickwire/world/voxel_prediction_world.h"

namespace tickwire::world {
namespace {

constexpr int kTilesPerSide = 100;  // 10,000 placements of one 4 m tile: a 400 m square floor
constexpr float kTileM = 4.0f;
constexpr float kFloorHalfM = kTilesPerSide * kTileM / 2;

Map tiled_floor() {
  VoxelGridDef tile;
  tile.name = "tile";
  tile.size = {8, 4, 8};
  tile.cell_m = 0.5f;
  tile.chunk_edge = 8;
  tile.blocks = {{"stone", true}};
  tile.fills = {{{0, 0, 0}, {7, 0, 7}, 1}};
  MapContent content = test::voxel_map_content("tiles", tile);
  for (int i = 0; i < kTilesPerSide; ++i)
    for (int j = 0; j < kTilesPerSide; ++j) {
      MapObject object;
      object.key = "tile." + std::to_string(i) + "." + std::to_string(j);
      object.kind = "voxel_volume";
      object.position = {-kFloorHalfM + kTileM * static_cast<float>(i), -0.5f, -kFloorHalfM + kTileM * static_cast<float>(j)};
      object.components = {test::voxel_volume_component()};
      content.objects.push_back(std::move(object));
    }
  return test::build_test_map(std::move(content));
}

TEST(VoxelStream, TenThousandPlacementsOnFreshGroundNoFallAndBothEndsStepAlike) {
  const uint64_t seed = test::test_seed(0x5ea1);
  const Map map = tiled_floor();
  ASSERT_EQ(map.objects().size(), 10000u);
  ReferenceGame game(map);
  game.begin(rigs::rig_contract());
  const EntityRef pawn = EntityRef::make(EntityNetHandle::make(0, 1), 1);
  game.spawn_pawn(pawn, 1, Tick::from_value(0));
  VoxelLive live(map);
  VoxelPredictionWorld predicted_world(live);
  const std::vector<Aabb> no_statics;
  MoverPredictionModel model(game.mover(), no_statics, nullptr, &predicted_world);

  Rng rng(seed);
  int64_t now = 0;
  uint64_t steps = 0, server_falls = 0, client_falls = 0, differ = 0;
  for (int placement = 0; placement < 10000; ++placement) {
    const float x = static_cast<float>(rng.unit() * 2 - 1) * (kFloorHalfM - 20);
    const float z = static_cast<float>(rng.unit() * 2 - 1) * (kFloorHalfM - 20);
    const float yaw = static_cast<float>(rng.unit() * 360);
    game.place_pawn(pawn, Placement{{x, 0, z}, {}, yaw, 0, false});
    PredictedState predicted = predicted_from_pawn(*game.pawn(pawn));
    for (int t = 0; t < 20; ++t) {  // a third of a second of running: onto chunks nobody cooked before
      ++now;
      TickInput input = rigs::still_input(static_cast<uint32_t>(now), yaw);
      input.cmd.move_y = 1.0f;
      input.cmd.buttons = kButtonRun;
      input.cmd = as_sent(input.cmd);
      predicted = model.step_in(predicted, input.cmd, rigs::kRigDt, PredictionContext{});
      game.step_pawn(pawn, input, Tick::from_value(now), rigs::kRigDt);
      game.step_world(Tick::from_value(now), rigs::kRigDt);
      ++steps;
      server_falls += game.pawn(pawn)->feet.y < -0.01f ? 1 : 0;
      client_falls += predicted.position.y < -0.01f ? 1 : 0;
      differ += predicted.position != predicted_from_pawn(*game.pawn(pawn)).position ? 1 : 0;
    }
  }
  const VoxelColliderCounts& s = game.voxels().colliders().counts();
  const VoxelColliderCounts& c = predicted_world.colliders().counts();
  std::printf("[ voxel stream ] seed %llu: 10000 placements, %llu steps; falls server %llu, predicted %llu; steps that "
              "differ %llu; chunks cooked server urgent %llu queued %llu evicted %llu, client urgent %llu queued %llu "
              "evicted %llu\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(steps),
              static_cast<unsigned long long>(server_falls), static_cast<unsigned long long>(client_falls),
              static_cast<unsigned long long>(differ), static_cast<unsigned long long>(s.cooked_urgent),
              static_cast<unsigned long long>(s.cooked_queued), static_cast<unsigned long long>(s.evicted),
              static_cast<unsigned long long>(c.cooked_urgent), static_cast<unsigned long long>(c.cooked_queued),
              static_cast<unsigned long long>(c.evicted));
  EXPECT_EQ(server_falls, 0u);
  EXPECT_EQ(client_falls, 0u);
  EXPECT_EQ(differ, 0u) << "the server and the prediction stepped against different voxel bodies";
  EXPECT_GT(s.cooked_urgent, 10000u) << "placements landed on ground that was not cooked yet";
  EXPECT_GT(s.evicted, 10000u) << "the chunks streamed out behind the pawn";
}

}  // namespace
}  // namespace tickwire::world
