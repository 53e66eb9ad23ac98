// Voxel volumes over the network (SimNetwork, seeded): a floor made only of voxels, the server
// writing 1,000 cells while bots walk on it under 10% loss and reordering. Every client's cells end
// equal to the server's, a client that joins after the writes gets all of them, and no pawn, the
// server's or a predicted one, ever drops through the floor while its chunks stream in around it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "game_profiles.h"
#include "game_sim.h"
#include "support.h"
#include "tickwire/world/client_world.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

// A 192 m square floor of 0.5 m cells (one layer of stone, its top at y = 0: wider than the bots
// wander) and room above it for written blocks, placed once; no map box holds anyone up. Spawns in
// the middle.
std::string voxel_floor_map() {
  std::string spawns;
  for (int i = 0; i < 8; ++i)
    spawns += (i ? ", " : "") + std::string(R"({"position": [)") + std::to_string(i * 3 - 12) + R"(, 0, 0], "yaw_deg": 0})";
  return R"({"format": "tickwire-map", "version": 2, "name": "voxel-floor", "boxes": [], "spawns": [)" + spawns +
         R"(], "voxelGrids": [{"name": "floor", "size": [384, 6, 384], "cellM": 0.5, "chunkEdge": 8,
            "blocks": [{"name": "stone"}, {"name": "glass"}, {"name": "mist", "solid": false}],
            "fills": [{"min": [0, 0, 0], "max": [383, 0, 383], "block": 1}]}],
           "objects": [{"key": "floor", "kind": "voxel_volume", "position": [-96, -0.5, -96],
            "components": [{"name": "voxel_volume", "channels": [], "bits": 1, "settings": {"grid": 0}}]}]})";
}

TEST(VoxelCellsSim, AThousandWritesUnderLossAndReorderReachEveryClientALateJoinerAndNobodyFalls) {
  const uint64_t seed = test_seed(0x70c5e1);
  GameSimConfig config;
  config.map_text = voxel_floor_map();
  GameSim sim(seed, config);
  const uint32_t volume = *sim.map.object_index("floor");
  const world::VoxelGrid& grid = sim.map.voxel_grids()[0];
  // Small radii and a tight budget: chunks stream in as the bots walk onto them.
  world::VoxelStreamSettings stream;
  stream.stream_radius_m = 16;
  stream.urgent_radius_m = 8;
  stream.cooks_per_sync = 1;
  std::vector<std::unique_ptr<world::ClientWorld>> voxel_clients;
  std::map<const SimGameClient*, world::ClientWorld*> by_client;
  LinkModel lossy = *link_profile("transatlantic");
  lossy.loss = 0.10;
  lossy.reorder = 0.10;
  const auto add = [&](uint64_t brain_seed) {
    voxel_clients.push_back(std::make_unique<world::ClientWorld>(sim.map, sim.mover, sim.statics, sim.solids, stream));
    GameClientSetup setup;
    setup.up = setup.down = lossy;
    setup.model = &voxel_clients.back()->model();
    auto brain = std::make_shared<world::BotBrain>(world::BotBehaviour::wander, brain_seed);
    setup.input = [brain](uint32_t sequence) { return brain->next(sequence); };
    by_client[&sim.add_client(setup)] = voxel_clients.back().get();
  };
  for (int i = 0; i < 4; ++i) add(seed * 31 + static_cast<uint64_t>(i));

  Rng rng(seed);
  uint32_t writes = 0;
  bool writing = true;
  uint64_t server_checks = 0, server_falls = 0, predicted_checks = 0, predicted_falls = 0;
  float farthest_m = 0;
  sim.watched.after_tick = [&](Tick) {
    for (const auto& c : sim.clients) {
      const world::PawnState* pawn = c->client.session().welcomed() ? sim.game.pawn(c->pawn()) : nullptr;
      if (pawn == nullptr) continue;
      ++server_checks;
      server_falls += pawn->feet.y < -0.05f ? 1 : 0;
      farthest_m = std::max({farthest_m, std::fabs(pawn->feet.x), std::fabs(pawn->feet.z)});
    }
    // Five writes a tick above the middle 64 m of the floor (blocks, glass, mist or air), never into a pawn.
    for (int n = 0; n < 5 && writing && writes < 1000; ++n) {
      const world::VoxelCell cell{static_cast<uint16_t>(128 + rng.below(128)), static_cast<uint16_t>(1 + rng.below(4)),
                                  static_cast<uint16_t>(128 + rng.below(128))};
      const world::Aabb box = world::voxel_cell_box(grid, {-96, -0.5f, -96}, cell);
      bool near_pawn = false;
      for (const auto& c : sim.clients)
        if (const world::PawnState* pawn = c->client.session().welcomed() ? sim.game.pawn(c->pawn()) : nullptr)
          near_pawn = near_pawn || world::distance_to_box(pawn->feet, box) < 2.0f;
      if (near_pawn) continue;
      if (!sim.game.write_voxel(volume, cell, static_cast<uint8_t>(rng.below(4)))) ++writes;
    }
  };
  sim.after_frame = [&](SimGameClient& c) {
    world::ClientWorld& v = *by_client.at(&c);
    while (auto message = c.facade->receive_message()) EXPECT_TRUE(v.take(*message)) << "only voxel messages";
    const Predictor* predictor = c.client.predictor();
    if (predictor == nullptr || c.client.prediction_context().snapshot == nullptr) return;
    ++predicted_checks;
    predicted_falls += predictor->predicted().position.y < -0.05f ? 1 : 0;
  };

  sim.run_for(Duration::seconds(20));
  ASSERT_TRUE(sim.all_welcomed());
  EXPECT_EQ(writes, 1000u) << "the server wrote its thousand cells";
  writing = false;
  add(seed * 31 + 99);  // the late joiner
  sim.run_for(Duration::seconds(6));
  ASSERT_TRUE(sim.all_welcomed());

  const world::VoxelCells& server_cells = sim.game.voxels().cells();
  uint64_t corrections = 0, cooked_urgent = 0, cooked_queued = 0;
  for (std::size_t i = 0; i < voxel_clients.size(); ++i) {
    const world::ClientWorld& v = *voxel_clients[i];
    EXPECT_EQ(v.live().cells(), server_cells) << "client " << i << (i == 4 ? " (the late joiner)" : "");
    uint64_t refused = 0;
    visit_nonzero(v.live().refusals(), [&](world::VoxelCellsRefusal, uint64_t n) { refused += n; });
    EXPECT_EQ(refused, 0u) << "client " << i;
    corrections += sim.clients[i]->client.predictor()->stats().corrections;
    cooked_urgent += v.voxels().colliders().counts().cooked_urgent;
    cooked_queued += v.voxels().colliders().counts().cooked_queued;
  }
  std::printf("[ voxels ] seed %llu: %u writes in %zu chunks, %llu chunk messages queued; server falls %llu of %llu ticks, "
              "predicted falls %llu of %llu frames; client chunks cooked urgent %llu, queued %llu; server %llu, %llu; "
              "corrections %llu; farthest pawn %.1f m out\n",
              static_cast<unsigned long long>(seed), writes, server_cells.chunks().size(),
              static_cast<unsigned long long>(sim.game.voxels().chunks_sent()),
              static_cast<unsigned long long>(server_falls), static_cast<unsigned long long>(server_checks),
              static_cast<unsigned long long>(predicted_falls), static_cast<unsigned long long>(predicted_checks),
              static_cast<unsigned long long>(cooked_urgent), static_cast<unsigned long long>(cooked_queued),
              static_cast<unsigned long long>(sim.game.voxels().colliders().counts().cooked_urgent),
              static_cast<unsigned long long>(sim.game.voxels().colliders().counts().cooked_queued),
              static_cast<unsigned long long>(corrections), farthest_m);
  ASSERT_LT(farthest_m, 90.0f) << "the bots stayed on the floor";
  EXPECT_GT(server_checks, 1000u);
  EXPECT_GT(predicted_checks, 1000u);
  EXPECT_EQ(server_falls, 0u) << "a server pawn dropped through the voxel floor";
  EXPECT_EQ(predicted_falls, 0u) << "a predicted pawn dropped through the voxel floor";
}

}  // namespace
}  // namespace tickwire
