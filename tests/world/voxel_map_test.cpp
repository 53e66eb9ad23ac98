// Voxel grids in the map format: a grid loads and resolves into its authored cells, its chunk
// arithmetic round-trips, a map with grids saves and loads back to the same content and hash while
// every map without grids keeps its old hash, and each rule of a grid or of a voxel volume object
// (flat or resolved from version 3 records) is refused with its code at its JSON path.
#include <gtest/gtest.h>

#include "map_refusal.h"

#include <map>
#include <string>
#include <vector>

#include "map_records_rig.h"
#include "support.h"
#include "tickwire/world/logic_components.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/map_writer.h"
#include "tickwire/world/reference_map.h"

namespace tickwire::world {
namespace {

// A grid's JSON, field by field; each test changes the one it is about.
struct GridText {
  std::string name = R"("cave")";
  std::string size = "[10, 6, 5]";
  std::string cell_m = "0.5";
  std::string chunk_edge = "4";
  std::string blocks = R"([{"name": "stone"}, {"name": "water", "solid": false}])";
  // A stone floor, a water column through it (the later fill wins), one cell carved back to air.
  std::string fills = R"([{"min": [0, 0, 0], "max": [9, 0, 4], "block": 1}, {"min": [2, 0, 1], "max": [4, 2, 3], "block": 2},)"
                      R"( {"min": [3, 0, 2], "max": [3, 0, 2], "block": 0}])";
  std::string text() const {
    return R"({"name": )" + name + R"(, "size": )" + size + R"(, "cellM": )" + cell_m + R"(, "chunkEdge": )" + chunk_edge +
           R"(, "blocks": )" + blocks + R"(, "fills": )" + fills + "}";
  }
};

std::string grid_with(std::string GridText::*field, std::string value) {
  GridText g;
  g.*field = std::move(value);
  return g.text();
}

const std::string kGrid = GridText{}.text();

// A map of `version` with these grids (the inside of the list) and objects.
std::string grid_map(const std::string& grids, const std::string& objects = "", int version = 2) {
  return R"({"format": "tickwire-map", "version": )" + std::to_string(version) +
         R"(, "name": "voxels", "spawns": [{"position": [0, 0, 0], "yaw_deg": 0}], "voxelGrids": [)" + grids +
         R"(], "objects": [)" + objects + "]}";
}

// A voxel volume object (`extra` goes after its position), placing grid `grid`.
std::string volume(const std::string& extra = "", const std::string& grid = "0") {
  return R"({"key": "cave.1", "kind": "voxels", "position": [4, 0, -2])" + extra +
         R"(, "components": [{"name": "voxel_volume", "bits": 1, "settings": {"grid": )" + grid + "}}]}";
}

std::string repeated(const std::string& item, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) out += (i ? ", " : "") + item;
  return out;
}

Map load_ok(const std::string& text) {
  auto result = load_map(text);
  if (!result) ADD_FAILURE() << result.error().text();
  return std::move(result).value();
}

TEST(VoxelMap, AGridLoadsAndResolvesItsAuthoredCells) {
  const Map map = load_ok(grid_map(kGrid, volume()));
  ASSERT_EQ(map.voxel_grids().size(), 1u);
  const VoxelGrid& grid = map.voxel_grids()[0];
  EXPECT_EQ(grid.def().name, "cave");
  EXPECT_EQ(grid.size(), (VoxelCell{10, 6, 5}));
  EXPECT_EQ(grid.cell_m(), 0.5f);
  EXPECT_EQ(grid.chunk_edge(), 4);
  ASSERT_EQ(grid.def().blocks.size(), 2u);
  EXPECT_TRUE(grid.solid(1)) << "solid defaults to true";
  EXPECT_FALSE(grid.solid(2));
  EXPECT_FALSE(grid.solid(kVoxelAir));
  EXPECT_EQ(grid.authored({0, 0, 0}), 1);
  EXPECT_EQ(grid.authored({9, 0, 4}), 1);
  EXPECT_EQ(grid.authored({2, 0, 1}), 2) << "the later fill wins";
  EXPECT_EQ(grid.authored({4, 2, 3}), 2);
  EXPECT_EQ(grid.authored({3, 0, 2}), kVoxelAir) << "carved back to air by the last fill";
  EXPECT_EQ(grid.authored({5, 1, 0}), kVoxelAir) << "no fill: air";
  // Every cell against the fills applied in order, naively.
  std::map<VoxelCell, uint8_t> expected;
  for (const VoxelFill& f : grid.def().fills)
    for (uint16_t y = f.min[1]; y <= f.max[1]; ++y)
      for (uint16_t z = f.min[2]; z <= f.max[2]; ++z)
        for (uint16_t x = f.min[0]; x <= f.max[0]; ++x) expected[{x, y, z}] = f.block;
  for (uint16_t y = 0; y < 6; ++y)
    for (uint16_t z = 0; z < 5; ++z)
      for (uint16_t x = 0; x < 10; ++x) {
        const auto it = expected.find({x, y, z});
        EXPECT_EQ(grid.authored({x, y, z}), it == expected.end() ? kVoxelAir : it->second) << x << "," << y << "," << z;
      }
  const MapObject& object = map.objects()[0];
  const ObjectComponent* component = object.component("voxel_volume");
  ASSERT_NE(component, nullptr);
  EXPECT_EQ(setting_number(*component, "grid"), 0.0f);
  EXPECT_EQ(component->bits & 1, 1) << "bit 0: solid, as the map authors it";
  const Aabb box = voxel_cell_box(grid, object.position, {1, 2, 3});
  EXPECT_EQ(box.min, (Vec3{4.5f, 1.0f, -0.5f})) << "cell (0, 0, 0)'s min corner at the object's position";
  EXPECT_EQ(box.max, (Vec3{5.0f, 1.5f, 0.0f}));
}

TEST(VoxelGrid, ChunkArithmeticRoundTripsWithAPartialLastChunk) {
  VoxelGridDef def;
  def.name = "g";
  def.size = {10, 6, 5};
  def.chunk_edge = 4;
  const VoxelGrid grid(def);
  EXPECT_EQ(grid.chunks(), (VoxelCell{3, 2, 2})) << "10, 6 and 5 cells in chunks of 4: the last of each partial";
  EXPECT_EQ(grid.chunk_count(), 12u);
  EXPECT_EQ(grid.cells_per_chunk(), 64u);
  // x fastest, then z, then y: for chunks and for cells within a chunk.
  EXPECT_EQ(grid.chunk_of({4, 0, 0}), 1u);
  EXPECT_EQ(grid.chunk_of({0, 0, 4}), 3u);
  EXPECT_EQ(grid.chunk_of({0, 4, 0}), 6u);
  EXPECT_EQ(grid.chunk_of({9, 5, 4}), 11u);
  EXPECT_EQ(grid.offset_in_chunk({1, 0, 0}), 1u);
  EXPECT_EQ(grid.offset_in_chunk({0, 0, 1}), 4u);
  EXPECT_EQ(grid.offset_in_chunk({0, 1, 0}), 16u);
  EXPECT_EQ(grid.offset_in_chunk({5, 5, 4}), 17u) << "(1, 1, 0) within chunk (1, 1, 1)";
  EXPECT_EQ(grid.chunk_of({5, 5, 4}), 10u);
  EXPECT_EQ(grid.chunk_origin(11), (VoxelCell{8, 4, 4}));
  std::size_t inside = 0;
  for (uint16_t y = 0; y < 6; ++y)
    for (uint16_t z = 0; z < 5; ++z)
      for (uint16_t x = 0; x < 10; ++x) {
        const VoxelCell cell{x, y, z};
        const uint32_t chunk = grid.chunk_of(cell);
        const uint16_t offset = grid.offset_in_chunk(cell);
        ASSERT_LT(chunk, grid.chunk_count());
        ASSERT_LT(offset, grid.cells_per_chunk());
        EXPECT_EQ(grid.cell_at(chunk, offset), cell);
      }
  for (uint32_t chunk = 0; chunk < grid.chunk_count(); ++chunk)
    for (uint16_t offset = 0; offset < grid.cells_per_chunk(); ++offset) {
      const VoxelCell cell = grid.cell_at(chunk, offset);
      if (!grid.contains(cell)) continue;
      ++inside;
      EXPECT_EQ(grid.chunk_of(cell), chunk);
      EXPECT_EQ(grid.offset_in_chunk(cell), offset);
    }
  EXPECT_EQ(inside, 10u * 6u * 5u) << "every cell lies in exactly one chunk";
}

TEST(VoxelGrid, TheBlocksLayerNamesThePalette) {
  VoxelGridDef def;
  def.name = "g";
  def.size = {4, 4, 4};
  def.chunk_edge = 4;
  def.blocks = {{"stone", true}, {"water", false}};
  const uint32_t layer = VoxelGrid(def).blocks_layer();
  EXPECT_EQ(VoxelGrid(def).blocks_layer(), layer);
  VoxelGridDef renamed = def;
  renamed.blocks[1].name = "lava";
  EXPECT_NE(VoxelGrid(renamed).blocks_layer(), layer);
  VoxelGridDef solid = def;
  solid.blocks[1].solid = true;
  EXPECT_NE(VoxelGrid(solid).blocks_layer(), layer);
  VoxelGridDef swapped = def;
  std::swap(swapped.blocks[0], swapped.blocks[1]);
  EXPECT_NE(VoxelGrid(swapped).blocks_layer(), layer) << "block ids are places in the palette";
  VoxelGridDef refilled = def;
  refilled.fills = {{{0, 0, 0}, {3, 3, 3}, 1}};
  refilled.cell_m = 2;
  EXPECT_EQ(VoxelGrid(refilled).blocks_layer(), layer) << "only the palette makes the layer";
}

TEST(VoxelMap, AMapWithGridsRoundTripsWithItsHash) {
  for (int version : {2, 3}) {
    SCOPED_TRACE(version);
    const std::string second = grid_with(&GridText::name, R"("tower")");
    const Map first = load_ok(grid_map(kGrid + ", " + second, volume(), version));
    const std::string text = save_map(first);
    EXPECT_NE(text.find("  \"voxelGrids\": [\n    {\"name\": \"cave\", \"size\": [10, 6, 5], \"cellM\": 0.5, "
                        "\"chunkEdge\": 4, \"blocks\": [{\"name\": \"stone\", \"solid\": true}, {\"name\": \"water\", "
                        "\"solid\": false}], \"fills\": [{\"min\": [0, 0, 0], \"max\": [9, 0, 4], \"block\": 1}, "
                        "{\"min\": [2, 0, 1], \"max\": [4, 2, 3], \"block\": 2}, {\"min\": [3, 0, 2], \"max\": [3, 0, 2], "
                        "\"block\": 0}]},\n    {\"name\": \"tower\", "),
              std::string::npos)
        << text;
    const Map again = load_ok(text);
    EXPECT_TRUE(again.content() == first.content());
    EXPECT_EQ(again.content_hash(), first.content_hash());
    EXPECT_EQ(save_map(again), text);
    ASSERT_EQ(again.voxel_grids().size(), 2u);
    EXPECT_EQ(again.voxel_grids()[1].def().name, "tower");
    // A grid is content: any change of it changes the hash.
    MapContent changed = first.content();
    changed.voxel_grids[1].fills[0].block = 2;
    auto rebuilt = Map::build(std::move(changed));
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.error().text();
    EXPECT_NE(rebuilt->content_hash(), first.content_hash());
    EXPECT_FALSE(rebuilt->content() == first.content());
  }
}

TEST(VoxelMap, MapsWithoutGridsKeepTheirCanonicalTextAndHash) {
  // The reference map's identity (`b2sum -l 128 maps/reference.json`): a map without grids writes
  // no `voxelGrids` member, so its canonical text is the file's.
  const Map reference = load_ok(std::string(reference_map_text()));
  EXPECT_EQ(reference.content_hash_hex(), "33e74554917ae988736de170b5eee0cf");
  EXPECT_EQ(save_map(reference).find("voxelGrids"), std::string::npos);
  EXPECT_TRUE(reference.voxel_grids().empty());
  const auto seeds = test::source_dir() / "tests" / "fixtures" / "fuzz" / "fuzz_map_loader";
  const std::pair<const char*, const char*> pinned[] = {
      {"records.json", "28ebb902f83cb6e59ad437346c6ee245"},     // version 3
      {"wired.json", "3b5707482f181b12cc907739aff7912f"},       // version 2
      {"transforms.json", "911db3c968041bdc887fe1662d4d733e"},  // version 1
  };
  for (const auto& [file, hash] : pinned) {
    SCOPED_TRACE(file);
    const auto map = load_map_file(seeds / file);
    ASSERT_TRUE(map.ok()) << map.error().text();
    EXPECT_EQ(map->content_hash_hex(), hash);
  }
}

TEST(VoxelMap, HandBuiltContentNeedsVersion2) {
  MapContent content = load_ok(grid_map(kGrid)).content();
  content.version = 1;
  const auto refused = Map::build(content);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, MapErrorCode::unsupported_version);
  EXPECT_EQ(refused.error().path, "voxelGrids");
  content.version = 2;
  EXPECT_TRUE(Map::build(content).ok());
}

std::string grid_of(const std::string& size, const std::string& fills) {
  GridText g;
  g.size = size;
  g.fills = fills;
  return g.text();
}

TEST(VoxelMap, FillsMayCoverTheirCapExactly) {
  const std::string whole = R"({"min": [0, 0, 0], "max": [127, 127, 127], "block": 1})";
  const Map map = load_ok(grid_map(grid_of("[128, 128, 128]", "[" + repeated(whole, 4) + "]")));
  ASSERT_EQ(map.voxel_grids().size(), 1u);
  EXPECT_EQ(map.voxel_grids()[0].authored({127, 127, 127}), 1);
  EXPECT_EQ(map.voxel_grids()[0].authored({0, 64, 127}), 1);
}

struct Refusal {
  std::string what;
  std::string text;
  MapErrorCode code;
  std::string path;
};

std::vector<Refusal> refused_grids() {
  const std::string long_name = "\"" + std::string(kMaxMapStringBytes + 1, 'g') + "\"";
  const std::string one_block = R"({"name": "b"})";
  const std::string fill = R"({"min": [0, 0, 0], "max": [0, 0, 0], "block": 1})";
  const std::string whole = R"({"min": [0, 0, 0], "max": [127, 127, 127], "block": 1})";
  const auto named = [](int i) { return grid_with(&GridText::name, "\"g" + std::to_string(i) + "\""); };
  std::string grids_over_cap;
  for (std::size_t i = 0; i <= kMaxVoxelGrids; ++i) grids_over_cap += (i ? ", " : "") + named(static_cast<int>(i));
  std::string blocks_over_cap = "[";
  for (std::size_t i = 0; i <= kMaxVoxelBlocks; ++i)
    blocks_over_cap += (i ? ", " : "") + std::string(R"({"name": "b)") + std::to_string(i) + "\"}";
  return {
      // The reader: the section's place in the versions, types, shapes and caps.
      {"grids in a version 1 map", grid_map(kGrid, "", 1), MapErrorCode::unknown_field, "voxelGrids"},
      {"grids not a list", R"({"format": "tickwire-map", "version": 2, "name": "v", "spawns": [{"position": [0, 0, 0], "yaw_deg": 0}], "voxelGrids": {}})",
       MapErrorCode::wrong_type, "voxelGrids"},
      {"grids over their cap", grid_map(grids_over_cap), MapErrorCode::count_over_max, "voxelGrids"},
      {"a grid's unknown field", grid_map(kGrid.substr(0, kGrid.size() - 1) + R"(, "colour": 1})"),
       MapErrorCode::unknown_field, "voxelGrids[0].colour"},
      {"a grid without a size", grid_map(R"({"name": "g", "cellM": 1, "chunkEdge": 4, "blocks": [], "fills": []})"),
       MapErrorCode::missing_field, "voxelGrids[0].size"},
      {"a grid without fills", grid_map(R"({"name": "g", "size": [1, 1, 1], "cellM": 1, "chunkEdge": 4, "blocks": []})"),
       MapErrorCode::missing_field, "voxelGrids[0].fills"},
      {"a size of floats", grid_map(grid_with(&GridText::size, "[10.0, 6, 5]")), MapErrorCode::wrong_type,
       "voxelGrids[0].size"},
      {"a fractional size", grid_map(grid_with(&GridText::size, "[10, 6.5, 5]")), MapErrorCode::wrong_type,
       "voxelGrids[0].size"},
      {"a negative size", grid_map(grid_with(&GridText::size, "[10, -6, 5]")), MapErrorCode::out_of_range,
       "voxelGrids[0].size"},
      {"a size past 16 bits", grid_map(grid_with(&GridText::size, "[70000, 1, 1]")), MapErrorCode::out_of_range,
       "voxelGrids[0].size"},
      {"a size of 2 numbers", grid_map(grid_with(&GridText::size, "[10, 6]")), MapErrorCode::wrong_length,
       "voxelGrids[0].size"},
      {"a size as text", grid_map(grid_with(&GridText::size, R"("big")")), MapErrorCode::wrong_type, "voxelGrids[0].size"},
      {"cellM as text", grid_map(grid_with(&GridText::cell_m, R"("1")")), MapErrorCode::wrong_type, "voxelGrids[0].cellM"},
      {"a fractional chunk edge", grid_map(grid_with(&GridText::chunk_edge, "4.0")), MapErrorCode::wrong_type,
       "voxelGrids[0].chunkEdge"},
      {"a chunk edge past a byte", grid_map(grid_with(&GridText::chunk_edge, "256")), MapErrorCode::out_of_range,
       "voxelGrids[0].chunkEdge"},
      {"blocks over their cap", grid_map(grid_with(&GridText::blocks, blocks_over_cap + "]")),
       MapErrorCode::count_over_max, "voxelGrids[0].blocks"},
      {"a block's unknown field", grid_map(grid_with(&GridText::blocks, R"([{"name": "b", "colour": 1}])")),
       MapErrorCode::unknown_field, "voxelGrids[0].blocks[0].colour"},
      {"a block without a name", grid_map(grid_with(&GridText::blocks, R"([{"name": "a"}, {"solid": true}])")),
       MapErrorCode::missing_field, "voxelGrids[0].blocks[1].name"},
      {"solid as a number", grid_map(grid_with(&GridText::blocks, R"([{"name": "b", "solid": 1}])")),
       MapErrorCode::wrong_type, "voxelGrids[0].blocks[0].solid"},
      {"fills over their cap", grid_map(grid_with(&GridText::fills, "[" + repeated(fill, kMaxVoxelFills + 1) + "]")),
       MapErrorCode::count_over_max, "voxelGrids[0].fills"},
      {"a fill's min of 2 numbers",
       grid_map(grid_with(&GridText::fills, R"([{"min": [0, 0], "max": [0, 0, 0], "block": 1}])")),
       MapErrorCode::wrong_length, "voxelGrids[0].fills[0].min"},
      {"a fill's negative max",
       grid_map(grid_with(&GridText::fills, R"([{"min": [0, 0, 0], "max": [0, -1, 0], "block": 1}])")),
       MapErrorCode::out_of_range, "voxelGrids[0].fills[0].max"},
      {"a fill without a block", grid_map(grid_with(&GridText::fills, R"([{"min": [0, 0, 0], "max": [0, 0, 0]}])")),
       MapErrorCode::missing_field, "voxelGrids[0].fills[0].block"},
      {"a fractional block", grid_map(grid_with(&GridText::fills, R"([{"min": [0, 0, 0], "max": [0, 0, 0], "block": 1.5}])")),
       MapErrorCode::wrong_type, "voxelGrids[0].fills[0].block"},
      // Map::build: each value's rule.
      {"an empty name", grid_map(grid_with(&GridText::name, R"("")")), MapErrorCode::invalid_string, "voxelGrids[0].name"},
      {"a name over the cap", grid_map(grid_with(&GridText::name, long_name)), MapErrorCode::string_over_cap,
       "voxelGrids[0].name"},
      {"a name with a space", grid_map(grid_with(&GridText::name, R"("a cave")")), MapErrorCode::invalid_string,
       "voxelGrids[0].name"},
      {"a name twice", grid_map(named(1) + ", " + named(2) + ", " + named(1)), MapErrorCode::duplicate_key,
       "voxelGrids[2].name"},
      {"a size of 0", grid_map(grid_of("[0, 1, 1]", "[]")), MapErrorCode::out_of_range, "voxelGrids[0].size"},
      {"a size over the edge cap", grid_map(grid_of("[1, 1025, 1]", "[]")), MapErrorCode::out_of_range,
       "voxelGrids[0].size"},
      {"cells over the grid cap", grid_map(grid_of("[1024, 1024, 3]", "[]")), MapErrorCode::out_of_range,
       "voxelGrids[0].size"},
      {"cellM too small", grid_map(grid_with(&GridText::cell_m, "0.04")), MapErrorCode::out_of_range, "voxelGrids[0].cellM"},
      {"cellM too large", grid_map(grid_with(&GridText::cell_m, "16.5")), MapErrorCode::out_of_range, "voxelGrids[0].cellM"},
      {"cellM past a float", grid_map(grid_with(&GridText::cell_m, "1e39")), MapErrorCode::not_finite, "voxelGrids[0].cellM"},
      {"a chunk edge of 5", grid_map(grid_with(&GridText::chunk_edge, "5")), MapErrorCode::out_of_range,
       "voxelGrids[0].chunkEdge"},
      {"a chunk edge of 64", grid_map(grid_with(&GridText::chunk_edge, "64")), MapErrorCode::out_of_range,
       "voxelGrids[0].chunkEdge"},
      {"an empty block name", grid_map(grid_with(&GridText::blocks, R"([{"name": "a"}, {"name": ""}])")),
       MapErrorCode::invalid_string, "voxelGrids[0].blocks[1].name"},
      {"a block name over the cap", grid_map(grid_with(&GridText::blocks, "[{\"name\": " + long_name + "}]")),
       MapErrorCode::string_over_cap, "voxelGrids[0].blocks[0].name"},
      {"a block name twice", grid_map(grid_with(&GridText::blocks, R"([{"name": "a"}, {"name": "b"}, {"name": "a", "solid": false}])")),
       MapErrorCode::duplicate_key, "voxelGrids[0].blocks[2].name"},
      {"a fill's min over its max",
       grid_map(grid_with(&GridText::fills, R"([)" + fill + R"(, {"min": [0, 2, 0], "max": [0, 1, 0], "block": 1}])")),
       MapErrorCode::box_inverted, "voxelGrids[0].fills[1]"},
      {"a fill's max outside the grid",
       grid_map(grid_with(&GridText::fills, R"([{"min": [0, 0, 0], "max": [9, 6, 4], "block": 1}])")),
       MapErrorCode::out_of_range, "voxelGrids[0].fills[0].max"},
      {"a fill of a block the palette lacks",
       grid_map(grid_with(&GridText::fills, R"([{"min": [0, 0, 0], "max": [0, 0, 0], "block": 3}])")),
       MapErrorCode::out_of_range, "voxelGrids[0].fills[0].block"},
      {"fills covering more than their cap", grid_map(grid_of("[128, 128, 128]", "[" + repeated(whole, 5) + "]")),
       MapErrorCode::count_over_max, "voxelGrids[0].fills[4]"},
      {"the first bad grid is reported", grid_map(named(1) + ", " + grid_with(&GridText::chunk_edge, "3")),
       MapErrorCode::out_of_range, "voxelGrids[1].chunkEdge"},
  };
}

TEST(VoxelMapErrors, EachBadGridIsRefusedWithItsErrorAndPath) {
  ASSERT_TRUE(load_map(grid_map(kGrid)).ok());
  for (const Refusal& c : refused_grids()) {
    SCOPED_TRACE(c.what);
    expect_map_refused(c.text, c.code, c.path);
  }
}

TEST(VoxelVolume, ItsSettingsAreTheGridIndex) {
  EXPECT_EQ(component_settings_spec("voxel_volume"), &voxel_volume_spec());
  ASSERT_EQ(voxel_volume_spec().settings.size(), 1u);
  const SettingSpec& grid = voxel_volume_spec().settings[0];
  EXPECT_EQ(grid.name, "grid");
  EXPECT_EQ(grid.shape, SettingShape::index);
  EXPECT_EQ(grid.max, float(kMaxVoxelGrids - 1));
  EXPECT_EQ(grid.fallback[0], 0.0f);
  EXPECT_TRUE(replicated_component("voxel_volume"));
  EXPECT_EQ(logic_component_spec("voxel_volume"), nullptr) << "no behaviour runs it";
  const Map map = load_ok(grid_map(kGrid + ", " + grid_with(&GridText::name, R"("tower")"),
                                   volume(R"(, "rotation": [0, 0, 0, 1])", "1")));
  EXPECT_EQ(setting_number(map.objects()[0].components[0], "grid"), 1.0f) << "an identity rotation is no rotation";
}

std::vector<Refusal> refused_volumes() {
  const std::string settings = "objects[0].components[0].settings";
  const std::string quarter_turn = R"(, "rotation": [0, 0.70710677, 0, 0.70710677])";
  return {
      {"a grid index past the map's grids", grid_map(kGrid, volume("", "1")), MapErrorCode::out_of_range,
       settings + ".grid"},
      {"a volume in a map without grids", grid_map("", volume("", "0")), MapErrorCode::out_of_range, settings + ".grid"},
      {"the default grid in a map without grids",
       grid_map("", R"({"key": "v", "kind": "voxels", "position": [0, 0, 0], "components": [{"name": "voxel_volume"}]})"),
       MapErrorCode::out_of_range, settings + ".grid"},
      {"a grid index past the setting's range", grid_map(kGrid, volume("", "64")), MapErrorCode::out_of_range,
       settings + ".grid"},
      {"a fractional grid index", grid_map(kGrid, volume("", "0.5")), MapErrorCode::out_of_range, settings + ".grid"},
      {"an unknown setting", grid_map(kGrid, volume("", R"(0, "size": 1)")), MapErrorCode::unknown_field,
       settings + ".size"},
      {"a rotated volume", grid_map(kGrid, volume(quarter_turn)), MapErrorCode::voxel_volume_transformed,
       "objects[0].rotation"},
      {"a half-turned volume", grid_map(kGrid, volume(R"(, "rotation": [0, 1, 0, 0])")),
       MapErrorCode::voxel_volume_transformed, "objects[0].rotation"},
      {"a scaled volume", grid_map(kGrid, volume(R"(, "scale": [2, 2, 2])")), MapErrorCode::voxel_volume_transformed,
       "objects[0].scale"},
      {"a unit scale is a scale too", grid_map(kGrid, volume(R"(, "scale": [1, 1, 1])")),
       MapErrorCode::voxel_volume_transformed, "objects[0].scale"},
      {"the transform before the grid", grid_map(kGrid, volume(R"(, "scale": [1, 1, 1])", "5")),
       MapErrorCode::voxel_volume_transformed, "objects[0].scale"},
  };
}

TEST(VoxelMapErrors, EachBadVoxelVolumeIsRefusedWithItsErrorAndPath) {
  ASSERT_TRUE(load_map(grid_map(kGrid, volume())).ok());
  for (const Refusal& c : refused_volumes()) {
    SCOPED_TRACE(c.what);
    expect_map_refused(c.text, c.code, c.path);
  }
}

// A version 3 map: these sources (the inside of the object), grids "cave" and "tower", placements.
std::string v3_grid_map(const std::string& sources, const std::string& objects) {
  std::string text = test_records::v3_map(sources, objects);
  const std::string grids = R"("voxelGrids": [)" + kGrid + ", " + grid_with(&GridText::name, R"("tower")") + "], ";
  const std::string after_spawns = R"("yaw_deg": 0}],)";
  return text.insert(text.find(after_spawns) + after_spawns.size(), " " + grids);
}

const std::string kCaveSource =
    R"("cave": {"kind": "voxels", "components": [{"name": "voxel_volume", "bits": 1, "settings": {"grid": 1}}]})";

TEST(VoxelVolume, AVersion3MapPlacesASourcedVolume) {
  const std::string cart = R"({"key": "cart.1", "kind": "cart", "position": [0, 0, 8], "rotation": [0, 0, 0, 1],)"
                           R"( "objects": [{"key": "cave", "source": "cave", "position": [0, 1, 0]}]})";
  const Map map = load_ok(v3_grid_map(kCaveSource, R"({"key": "cave.1", "source": "cave", "position": [1, 2, 3]}, )" + cart));
  EXPECT_EQ(map.format_version(), 3u);
  ASSERT_EQ(map.voxel_grids().size(), 2u);
  for (const char* key : {"cave.1", "cart.1/cave"}) {
    SCOPED_TRACE(key);
    const auto index = map.object_index(key);
    ASSERT_TRUE(index.has_value());
    const MapObject& o = map.objects()[*index];
    const ObjectComponent* volume = o.component("voxel_volume");
    ASSERT_NE(volume, nullptr);
    EXPECT_EQ(setting_number(*volume, "grid"), 1.0f);
    EXPECT_EQ(volume->bits, 1);
    EXPECT_FALSE(o.scale.has_value());
  }
  EXPECT_EQ(map.objects()[*map.object_index("cart.1/cave")].position, (Vec3{0, 1, 8}));
  const auto again = load_map(save_map(map));
  ASSERT_TRUE(again.ok()) << again.error().text();
  EXPECT_TRUE(again->content() == map.content());
  EXPECT_EQ(again->content_hash(), map.content_hash());
}

TEST(VoxelMapErrors, Version3VolumesAreCheckedOnceResolved) {
  const std::string quarter_turn = R"("rotation": [0, 0.70710677, 0, 0.70710677])";
  const std::string far_grid =
      R"("far": {"kind": "voxels", "components": [{"name": "voxel_volume", "settings": {"grid": 2}}]})";
  const std::vector<Refusal> cases = {
      {"a rotated placement", v3_grid_map(kCaveSource, R"({"key": "c", "source": "cave", )" + quarter_turn + "}"),
       MapErrorCode::voxel_volume_transformed, "objects[0].rotation"},
      {"a scaled placement", v3_grid_map(kCaveSource, R"({"key": "c", "source": "cave", "scale": [1, 2, 1]})"),
       MapErrorCode::voxel_volume_transformed, "objects[0].scale"},
      {"a volume carried by a rotated parent",
       v3_grid_map(kCaveSource, R"({"key": "cart", "kind": "cart", "position": [0, 0, 0], )" + quarter_turn +
                                    R"(, "objects": [{"key": "cave", "source": "cave"}]})"),
       MapErrorCode::voxel_volume_transformed, "objects[0].objects[0].rotation"},
      {"a sourced grid past the map's grids", v3_grid_map(kCaveSource + ", " + far_grid, R"({"key": "f", "source": "far"})"),
       MapErrorCode::out_of_range, "objects[0].components[0].settings.grid"},
      {"a placement overriding the grid past the map's",
       v3_grid_map(kCaveSource, R"({"key": "c", "source": "cave", "components": [{"name": "voxel_volume", "settings": {"grid": 7}}]})"),
       MapErrorCode::out_of_range, "objects[0].components[0].settings.grid"},
      {"a source's fractional grid", v3_grid_map(R"("cave": {"kind": "voxels", "components": [{"name": "voxel_volume", "settings": {"grid": 0.5}}]})", ""),
       MapErrorCode::out_of_range, "sources.cave.components[0].settings.grid"},
  };
  for (const Refusal& c : cases) {
    SCOPED_TRACE(c.what);
    expect_map_refused(c.text, c.code, c.path);
  }
}

}  // namespace
}  // namespace tickwire::world
