// The face pass: every solid cell in exactly one box, no box over a cell that is not solid, and as
// few boxes as the shapes need (a floor one, a staircase one per step).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tickwire/world/voxel_colliders.h"
#include "tickwire/world/voxel_cooker.h"

namespace tickwire::world {
namespace {

VoxelGridDef floor_def(VoxelCell size, uint8_t edge) {
  return VoxelGridDef{"g", size, 0.5f, edge, {{"stone", true}, {"mist", false}},
                      {{{0, 0, 0}, {static_cast<uint16_t>(size[0] - 1), 0, static_cast<uint16_t>(size[2] - 1)}, 1}}};
}

// How many boxes of `boxes` contain the centre of `cell`.
int covering(const std::vector<Aabb>& boxes, const VoxelGrid& grid, const Vec3& origin, const VoxelCell& cell) {
  const Aabb c = voxel_cell_box(grid, origin, cell);
  const Vec3 centre = (c.min + c.max) * 0.5f;
  int n = 0;
  for (const Aabb& b : boxes)
    n += centre.x > b.min.x && centre.x < b.max.x && centre.y > b.min.y && centre.y < b.max.y && centre.z > b.min.z &&
         centre.z < b.max.z;
  return n;
}

TEST(VoxelCooker, AFlatFloorChunkIsOneBoxAndAPartialChunkStopsAtTheGridsEdge) {
  const VoxelGrid grid(floor_def({12, 4, 12}, 8));
  std::vector<uint8_t> solid;
  std::vector<Aabb> boxes;
  voxel_chunk_solids(grid, 0, nullptr, {}, solid);
  cook_voxel_chunk(grid, {10, 0, 0}, 0, solid, boxes);
  ASSERT_EQ(boxes.size(), 1u);
  EXPECT_EQ(boxes[0].min, (Vec3{10, 0, 0}));
  EXPECT_EQ(boxes[0].max, (Vec3{14, 0.5f, 4}));
  boxes.clear();
  const uint32_t corner = grid.chunk_of({8, 0, 8});  // 4 x 4 cells of it lie inside the grid
  voxel_chunk_solids(grid, corner, nullptr, {}, solid);
  cook_voxel_chunk(grid, {0, 0, 0}, corner, solid, boxes);
  ASSERT_EQ(boxes.size(), 1u);
  EXPECT_EQ(boxes[0].min, (Vec3{4, 0, 4}));
  EXPECT_EQ(boxes[0].max, (Vec3{6, 0.5f, 6}));
  EXPECT_EQ(voxel_chunk_bounds(grid, {0, 0, 0}, corner).max, (Vec3{6, 2, 6}));
}

TEST(VoxelCooker, WritesAndClaimsAreLaidOverTheAuthoredCells) {
  const VoxelGrid grid(floor_def({8, 4, 8}, 8));
  VoxelChunkWrites writes;
  writes.revision = 1;
  writes.writes = {{grid.offset_in_chunk({0, 0, 0}), 0},   // a hole
                   {grid.offset_in_chunk({1, 0, 0}), 2},   // mist: not solid
                   {grid.offset_in_chunk({3, 2, 3}), 1}};  // a floating block
  const std::vector<uint16_t> claimed{grid.offset_in_chunk({7, 0, 7})};
  std::vector<uint8_t> solid;
  std::vector<Aabb> boxes;
  voxel_chunk_solids(grid, 0, &writes, claimed, solid);
  cook_voxel_chunk(grid, {}, 0, solid, boxes);
  for (uint16_t y = 0; y < 4; ++y)
    for (uint16_t z = 0; z < 8; ++z)
      for (uint16_t x = 0; x < 8; ++x) {
        const bool expect = (y == 0 && !(x <= 1 && z == 0) && !(x == 7 && z == 7)) || (x == 3 && y == 2 && z == 3);
        EXPECT_EQ(covering(boxes, grid, {}, {x, y, z}), expect ? 1 : 0) << x << "," << y << "," << z;
      }
}

TEST(VoxelCooker, RandomCellsAreCoveredExactlyOnceByBoxesThatHoldNothingElse) {
  VoxelGridDef def = floor_def({16, 16, 16}, 16);
  std::mt19937 rng(7);
  def.fills.clear();
  for (int i = 0; i < 60; ++i) {
    const auto c = [&] { return static_cast<uint16_t>(rng() % 16); };
    VoxelCell a{c(), c(), c()}, b{c(), c(), c()};
    for (int axis = 0; axis < 3; ++axis)
      if (a[axis] > b[axis]) std::swap(a[axis], b[axis]);
    def.fills.push_back({a, b, static_cast<uint8_t>(rng() % 3)});
  }
  const VoxelGrid grid(def);
  std::vector<uint8_t> solid;
  std::vector<Aabb> boxes;
  voxel_chunk_solids(grid, 0, nullptr, {}, solid);
  cook_voxel_chunk(grid, {1, 2, 3}, 0, solid, boxes);
  std::size_t solid_cells = 0;
  for (uint16_t y = 0; y < 16; ++y)
    for (uint16_t z = 0; z < 16; ++z)
      for (uint16_t x = 0; x < 16; ++x) {
        const bool is_solid = grid.solid(grid.authored({x, y, z}));
        solid_cells += is_solid;
        ASSERT_EQ(covering(boxes, grid, {1, 2, 3}, {x, y, z}), is_solid ? 1 : 0);
      }
  EXPECT_LT(boxes.size(), solid_cells / 2) << "merged, not one box per cell";
}

TEST(VoxelColliders, ChunksNearAPlayerAreCookedAtOnceTheRestNearestFirstAndFarOnesGo) {
  const VoxelGrid grid(floor_def({256, 2, 256}, 8));  // 32 x 32 chunks of 4 m
  VoxelStreamSettings settings;
  settings.stream_radius_m = 20;
  settings.urgent_radius_m = 8;
  settings.evict_margin_m = 8;
  settings.cooks_per_sync = 4;
  VoxelColliders colliders(settings);
  colliders.set_placements({VoxelPlacement{5, &grid, {0, 0, 0}}});
  VoxelCells cells;
  const Vec3 player{64, 0.5f, 64};
  colliders.sync({&player, 1}, cells);
  EXPECT_GT(colliders.counts().cooked_urgent, 0u);
  EXPECT_EQ(colliders.counts().cooked_queued, 4u);
  EXPECT_GT(colliders.counts().queued, 0u);
  const Aabb under{{63, 0, 63}, {65, 2, 65}};
  EXPECT_TRUE(colliders.covers(voxel_step_region(under)));
  std::vector<Aabb> boxes;
  colliders.append_boxes_near(under, boxes);
  EXPECT_FALSE(boxes.empty());
  for (int i = 0; i < 40; ++i) colliders.sync({&player, 1}, cells);
  EXPECT_EQ(colliders.counts().queued, 0u) << "every chunk within the stream radius cooked";
  const std::size_t around = colliders.cooked_chunks();
  // A write under the player: its chunk is cooked again at once.
  ASSERT_TRUE(cells.write({5, grid.chunk_of({128, 0, 128})}, grid.offset_in_chunk({128, 0, 128}), 0, 1));
  colliders.sync({&player, 1}, cells);
  EXPECT_EQ(colliders.counts().recooked, 1u);
  // Far away: everything around the old spot goes, the new spot's urgent chunks come.
  const Vec3 far{900, 0.5f, 900};
  colliders.sync({&far, 1}, cells);
  EXPECT_EQ(colliders.counts().evicted, around);
  EXPECT_EQ(colliders.cooked_chunks(), 0u) << "off the grid: nothing to cook";
}

TEST(VoxelColliders, APlayerFlungOutOfTheWorldIsNoPlayerNearAnyChunk) {
  const VoxelGrid grid(floor_def({64, 2, 64}, 8));
  VoxelColliders colliders;
  VoxelCells cells;
  const std::vector<Vec3> flung{{7e28f, 0, -7e28f}, {std::nanf(""), 0, 0}, {-3e38f, 3e38f, 0}};
  colliders.sync(flung, cells);  // no placements yet: nothing to stream
  colliders.set_placements({VoxelPlacement{1, &grid, {0, 0, 0}}});
  colliders.sync(flung, cells);
  EXPECT_EQ(colliders.cooked_chunks(), 0u);
  EXPECT_TRUE(colliders.covers(Aabb{{7e28f, 0, 0}, {7e28f, 1, 1}})) << "no volume out there: nothing to cook";
  const Vec3 home{16, 0.5f, 16};
  colliders.sync({&home, 1}, cells);
  EXPECT_GT(colliders.cooked_chunks(), 0u);
}

}  // namespace
}  // namespace tickwire::world
