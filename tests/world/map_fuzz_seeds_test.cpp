// The seed corpus of fuzz_map_loader (tests/fixtures/fuzz/fuzz_map_loader/): every seed but the one
// meant to be refused loads and saves to text that loads back to the same content, and the wired
// seed builds a node for each of its nine logic objects; the records seed (version 3) resolves its
// sources, carried children and placements into objects the logic host runs like any other; the
// voxel seed resolves its grids.
#include <gtest/gtest.h>

#include <filesystem>

#include "support.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/map_logic_host.h"
#include "tickwire/world/map_writer.h"

namespace tickwire::world {
namespace {

const std::filesystem::path kSeeds = test::source_dir() / "tests" / "fixtures" / "fuzz" / "fuzz_map_loader";

TEST(MapFuzzSeeds, EverySeedLoadsOrIsRefusedAsNamed) {
  std::size_t seeds = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kSeeds)) {
    SCOPED_TRACE(entry.path().filename().string());
    ++seeds;
    const auto loaded = load_map_file(entry.path());
    if (entry.path().filename().string().starts_with("refused_")) {
      EXPECT_FALSE(loaded.ok());
      continue;
    }
    ASSERT_TRUE(loaded.ok()) << loaded.error().text();
    const auto again = load_map(save_map(*loaded));
    ASSERT_TRUE(again.ok()) << again.error().text();
    EXPECT_EQ(again->content(), loaded->content());
  }
  EXPECT_GE(seeds, 8u);
}

TEST(MapFuzzSeeds, TheWiredSeedLoadsEveryLogicObject) {
  const auto loaded = load_map_file(kSeeds / "wired.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error().text();
  const MapObjectTable table = MapObjectTable::build(*loaded);
  std::vector<std::vector<ObjectComponent>> state;
  for (const MapObject& o : loaded->objects()) state.push_back(o.components);
  LogicSettings settings;
  settings.tick_length = Duration::milliseconds(50);
  MapLogicHost host(*loaded, table, settings,
                    [&](uint32_t index, std::size_t component) -> ObjectComponent& { return state[index][component]; });
  EXPECT_EQ(host.logic_objects(), 9u);
  EXPECT_EQ(host.runtime().loads().total(), 9u);
  EXPECT_EQ(host.usable_objects().size(), 2u) << "the button and the usable door";
  std::vector<TouchingPawn> nobody;
  for (int64_t t = 1; t <= 40; ++t) host.advance(Tick::from_value(t), nobody);
  EXPECT_EQ(state[2][0].bits & 1, 1) << "the timer, started on, toggled the light on at 2 s";
  for (int64_t t = 41; t <= 80; ++t) host.advance(Tick::from_value(t), nobody);
  EXPECT_EQ(state[2][0].bits & 1, 0) << "and off at 4 s";
  EXPECT_EQ(host.runtime().drops().total(), 0u);
}

TEST(MapFuzzSeeds, TheRecordsSeedResolvesIntoObjectsTheLogicHostRuns) {
  const auto loaded = load_map_file(kSeeds / "records.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error().text();
  EXPECT_EQ(loaded->format_version(), 3u);
  EXPECT_TRUE(loaded->object_index("cart.1/lamp").has_value());
  EXPECT_FALSE(loaded->object_index("cart.1/load").has_value()) << "removed by the placement";
  const MapObjectTable table = MapObjectTable::build(*loaded);
  std::vector<std::vector<ObjectComponent>> state;
  for (const MapObject& o : loaded->objects()) state.push_back(o.components);
  LogicSettings settings;
  settings.tick_length = Duration::milliseconds(50);
  MapLogicHost host(*loaded, table, settings,
                    [&](uint32_t index, std::size_t component) -> ObjectComponent& { return state[index][component]; });
  EXPECT_EQ(host.logic_objects(), 4u) << "cart.1's mover, the lamp it carries, lamp.1's button and light.1";
}

TEST(MapFuzzSeeds, TheVoxelSeedResolvesItsGridsAndVolumes) {
  const auto loaded = load_map_file(kSeeds / "voxels.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error().text();
  ASSERT_EQ(loaded->voxel_grids().size(), 2u);
  EXPECT_EQ(loaded->voxel_grids()[0].authored({2, 0, 1}), 2) << "the water column's later fill wins";
  EXPECT_EQ(loaded->voxel_grids()[1].authored({0, 7, 0}), 1);
  const auto pillar = loaded->object_index("pillar.1");
  ASSERT_TRUE(pillar.has_value());
  EXPECT_NE(loaded->objects()[*pillar].component("voxel_volume"), nullptr);
}

}  // namespace
}  // namespace tickwire::world
