// The voxel volumes' costs (docs/voxel-volumes.md): cooking one chunk by the face pass (a flat
// floor, a staircase, random cells), the voxelCells message's size and coding for a chunk holding
// 1, 64 or 512 writes, and one streaming sync of 16 players walking over a floor of 10,000 placed
// tiles (the server's per-tick cost once the chunks around them are cooked). Prints figures as
// counters; asserts nothing.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "tickwire/core/rng.h"
#include "tickwire/world/voxel_cells_message.h"
#include "tickwire/world/voxel_colliders.h"
#include "tickwire/world/voxel_cooker.h"

namespace voxel_bench {

using namespace tickwire;
using namespace tickwire::world;

VoxelGridDef grid_def(uint8_t edge, std::vector<VoxelFill> fills) {
  VoxelGridDef def;
  def.name = "bench";
  def.size = {edge, edge, edge};
  def.cell_m = 0.5f;
  def.chunk_edge = edge;
  def.blocks = {{"stone", true}, {"glass", true}, {"mist", false}};
  def.fills = std::move(fills);
  return def;
}

// A 16^3 chunk: 0 a one-cell floor, 1 a staircase (one step per cell along x), 2 random cells (half solid).
VoxelGridDef shape(int64_t which) {
  const uint16_t top = 15;
  if (which == 0) return grid_def(16, {{{0, 0, 0}, {top, 0, top}, 1}});
  if (which == 1) {
    std::vector<VoxelFill> steps;
    for (uint16_t x = 0; x < 16; ++x) steps.push_back({{x, 0, 0}, {x, x, top}, 1});
    return grid_def(16, steps);
  }
  std::vector<VoxelFill> cells;
  Rng rng(7);
  for (uint16_t y = 0; y < 16; ++y)
    for (uint16_t z = 0; z < 16; ++z)
      for (uint16_t x = 0; x < 16; ++x)
        if (rng.chance(0.5)) cells.push_back({{x, y, z}, {x, y, z}, static_cast<uint8_t>(1 + rng.below(2))});
  return grid_def(16, cells);
}

void BM_CookChunk(benchmark::State& state) {
  const VoxelGrid grid(shape(state.range(0)));
  std::vector<uint8_t> solid;
  std::vector<Aabb> boxes;
  for (auto _ : state) {
    boxes.clear();
    voxel_chunk_solids(grid, 0, nullptr, {}, solid);
    cook_voxel_chunk(grid, {}, 0, solid, boxes);
    benchmark::DoNotOptimize(boxes.data());
  }
  state.counters["boxes"] = static_cast<double>(boxes.size());
  state.SetLabel(state.range(0) == 0 ? "flat floor" : state.range(0) == 1 ? "staircase" : "random half solid");
}
BENCHMARK(BM_CookChunk)->Arg(0)->Arg(1)->Arg(2);

void BM_VoxelCellsMessage(benchmark::State& state) {
  const VoxelGrid grid(shape(0));
  VoxelChunkWrites writes;
  writes.revision = 1000;
  const auto count = static_cast<uint16_t>(state.range(0));
  for (uint16_t i = 0; i < count; ++i) writes.writes.push_back({static_cast<uint16_t>(i * 7), static_cast<uint8_t>(1 + i % 3)});
  const VoxelCellsMessage message = voxel_cells_message(grid, {1234, 0}, writes);
  std::size_t bytes = 0;
  VoxelCellsMessage back;
  for (auto _ : state) {
    const std::vector<uint8_t> payload = encode_voxel_cells(message);
    bytes = payload.size();
    benchmark::DoNotOptimize(decode_voxel_cells(payload, back).ok());
  }
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["bytes_per_write"] = static_cast<double>(bytes) / count;
}
BENCHMARK(BM_VoxelCellsMessage)->Arg(1)->Arg(64)->Arg(512);

// 16 players walking at 4 m/s on a floor of 100 x 100 tiles (one 8 x 4 x 8 chunk each, 4 m): one
// sync per 60 Hz tick once the chunks around them are cooked (new ones come in as they walk).
void BM_StreamSync(benchmark::State& state) {
  const VoxelGrid tile(VoxelGridDef{"tile", {8, 4, 8}, 0.5f, 8, {{"stone", true}}, {{{0, 0, 0}, {7, 0, 7}, 1}}});
  std::vector<VoxelPlacement> placements;
  for (uint32_t i = 0; i < 100; ++i)
    for (uint32_t j = 0; j < 100; ++j)
      placements.push_back({i * 100 + j, &tile, Vec3{-200.0f + 4.0f * static_cast<float>(i), -0.5f, -200.0f + 4.0f * static_cast<float>(j)}});
  VoxelColliders colliders;
  colliders.set_placements(placements);
  VoxelCells cells;
  // Each walks a circle of 100 m around the middle at 4 m/s, a sixteenth of the way round from the next.
  std::vector<Vec3> players(16);
  double angle = 0;
  const auto place = [&] {
    for (std::size_t p = 0; p < players.size(); ++p) {
      const double a = angle + static_cast<double>(p) * 2 * 3.14159265358979 / 16;
      players[p] = Vec3{static_cast<float>(100 * std::cos(a)), 0, static_cast<float>(100 * std::sin(a))};
    }
    angle += 4.0 / 60.0 / 100.0;
  };
  for (int warm = 0; warm < 600; ++warm) {
    place();
    colliders.sync(players, cells);
  }
  for (auto _ : state) {
    place();
    colliders.sync(players, cells);
  }
  state.counters["cooked_chunks"] = static_cast<double>(colliders.cooked_chunks());
  state.counters["players"] = static_cast<double>(players.size());
}
BENCHMARK(BM_StreamSync);

}  // namespace voxel_bench

BENCHMARK_MAIN();
