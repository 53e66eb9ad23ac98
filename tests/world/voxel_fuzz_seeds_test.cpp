// The seed corpus of fuzz_voxel_cells (tests/fixtures/fuzz/fuzz_voxel_cells/): chunks a client takes
// (an empty one, writes across a partial chunk, the second volume) and ones it refuses by name.
// TICKWIRE_WIRE_FIXTURES=write writes them again from the messages below.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "support.h"
#include "tickwire/world/voxel_live.h"
#include "voxel_maps.h"

namespace tickwire::world {
namespace {

const std::filesystem::path kSeeds = test::source_dir() / "tests" / "fixtures" / "fuzz" / "fuzz_voxel_cells";

struct Seed {
  const char* name;
  VoxelCellsMessage message;
  std::optional<VoxelCellsRefusal> refusal;
};

std::vector<Seed> seeds() {
  const VoxelGrid& grid = test::voxel_fuzz_map().voxel_grids()[0];
  const auto message = [&](uint32_t volume, uint32_t chunk, std::vector<VoxelWrite> writes) {
    VoxelChunkWrites w;
    w.revision = 3;
    w.writes = std::move(writes);
    return voxel_cells_message(grid, {volume, chunk}, w);
  };
  VoxelCellsMessage mismatch = message(0, 0, {{1, 1}});
  mismatch.blocks_layer ^= 0x55;
  return {
      {"empty.bin", message(0, 0, {}), std::nullopt},
      {"writes.bin", message(0, 2, {{0, 0}, {3, 2}, {8, 1}, {200, 1}}), std::nullopt},
      {"second_volume.bin", message(2, 5, {{1, 1}}), std::nullopt},
      {"refused_not_a_volume.bin", message(1, 0, {{1, 1}}), VoxelCellsRefusal::unknown_volume},
      {"refused_layer.bin", mismatch, VoxelCellsRefusal::grid_mismatch},
      {"refused_outside.bin", message(0, 2, {{5, 1}}), VoxelCellsRefusal::bad_write},
  };
}

TEST(VoxelFuzzSeeds, EachSeedIsTakenOrRefusedAsNamed) {
  const char* mode = std::getenv("TICKWIRE_WIRE_FIXTURES");
  const bool write = mode != nullptr && std::string(mode) == "write";
  if (write) std::filesystem::create_directories(kSeeds);
  for (const Seed& seed : seeds()) {
    SCOPED_TRACE(seed.name);
    const std::vector<uint8_t> bytes = encode_voxel_cells(seed.message);
    if (write) test::write_file_bytes(kSeeds / seed.name, bytes);
    EXPECT_EQ(test::read_file_bytes(kSeeds / seed.name), bytes) << "regenerate with TICKWIRE_WIRE_FIXTURES=write";
    VoxelLive live(test::voxel_fuzz_map());
    EXPECT_EQ(live.apply(bytes), seed.refusal);
  }
}

}  // namespace
}  // namespace tickwire::world
