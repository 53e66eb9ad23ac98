// The map as peers use it: the shipped reference map loads with the counts the game and the rest
// table rely on, its embedded copy is the file, saving is canonical and lossless, and the content
// hash is BLAKE2b-128 of the canonical text, so equal content hashes equal and any change shows.
#include "tickwire/world/map.h"

#include <gtest/gtest.h>
#include <sodium.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "support.h"
#include "tickwire/core/hex.h"
#include "tickwire/core/rng.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/map_writer.h"
#include "tickwire/world/reference_map.h"

namespace tickwire::world {
namespace {

std::filesystem::path reference_path() { return test::source_dir() / "maps" / "reference.json"; }

Map load_ok(std::string_view text) {
  auto result = load_map(text);
  if (!result) ADD_FAILURE() << result.error().text();
  return std::move(result).value();
}

std::size_t count_kind(const Map& map, std::string_view kind) {
  std::size_t n = 0;
  for (const MapObject& o : map.objects()) n += o.kind == kind;
  return n;
}

TEST(ReferenceMap, LoadsWithTheExpectedCounts) {
  auto result = load_map_file(reference_path());
  ASSERT_TRUE(result.ok()) << result.error().text();
  const Map& map = *result;
  EXPECT_EQ(map.name(), "reference");
  EXPECT_EQ(map.boxes().size(), 29u);  // floor, 4 walls, 20 crates, the pool's 4-box rim
  EXPECT_EQ(map.spawn_points().size(), 16u);
  EXPECT_EQ(map.format_version(), 2u);
  EXPECT_EQ(map.objects().size(), 319u);
  EXPECT_EQ(count_kind(map, "light"), 301u);
  EXPECT_EQ(count_kind(map, "door"), 4u);
  EXPECT_EQ(count_kind(map, "button"), 4u);
  EXPECT_EQ(count_kind(map, "crate_prop"), 6u);
  EXPECT_EQ(count_kind(map, "lift"), 1u);
  EXPECT_EQ(count_kind(map, "plate"), 1u);
  EXPECT_EQ(count_kind(map, "trigger"), 1u);
  std::size_t tags[3] = {};
  for (const BoxSurface& s : map.box_surfaces()) {
    tags[0] += s.tag == "floor";
    tags[1] += s.tag == "wall";
    tags[2] += s.tag == "crate";
  }
  EXPECT_EQ(tags[0], 1u);
  EXPECT_EQ(tags[1], 4u);
  EXPECT_EQ(tags[2], 20u);
  const Aabb& floor = map.boxes()[0];
  EXPECT_EQ(floor.max.x - floor.min.x, 64.0f);
  EXPECT_EQ(floor.max.z - floor.min.z, 64.0f);
  EXPECT_EQ(floor.max.y, 0.0f);
  std::size_t enabled = 0;
  for (const MapObject& o : map.objects()) {
    if (o.kind != "light") continue;
    const ObjectComponent* light = o.component("light");
    ASSERT_NE(light, nullptr) << o.key;
    EXPECT_EQ(light->channel_count, 4u) << o.key;
    enabled += light->bits & 1u;
  }
  EXPECT_GT(enabled, 200u);  // most lights stand on, some off: both states at rest
  EXPECT_LT(enabled, 301u);
}

TEST(ReferenceMap, EmbeddedTextIsTheFileAndTheFileIsCanonical) {
  const std::string file = test::read_file_text(reference_path());
  ASSERT_FALSE(file.empty());
  EXPECT_EQ(reference_map_text(), file);
  const Map map = load_ok(reference_map_text());
  EXPECT_EQ(save_map(map), file);  // scripts/gen-reference-map writes the writer's own layout
}

TEST(ReferenceMap, ObjectIndexIsThePlaceInTheFile) {
  const Map map = load_ok(reference_map_text());
  for (uint32_t i = 0; i < map.objects().size(); ++i) EXPECT_EQ(map.object_index(map.objects()[i].key), i);
  EXPECT_EQ(map.object_index("light.wall.n.00"), 0u);
  EXPECT_EQ(map.object_index("prop.crate.5"), 314u);
  EXPECT_EQ(map.object_index("no.such.object"), std::nullopt);
  EXPECT_EQ(map.object_index(""), std::nullopt);
}

TEST(MapFormatDoc, TheDocumentedExampleLoads) {
  const std::string doc = test::read_file_text(test::source_dir() / "docs" / "map-format.md");
  const std::string fence = "```json\n";
  const auto begin = doc.find(fence);
  ASSERT_NE(begin, std::string::npos);
  const auto end = doc.find("```", begin + fence.size());
  ASSERT_NE(end, std::string::npos);
  auto map = load_map(std::string_view(doc).substr(begin + fence.size(), end - begin - fence.size()));
  ASSERT_TRUE(map.ok()) << map.error().text();
  EXPECT_EQ(map->boxes().size(), 2u);
  EXPECT_EQ(map->objects().size(), 4u);
  EXPECT_EQ(map->object_index("button.1"), 2u);
}

// Floats a writer could get wrong: tiny, huge, subnormal, non-terminating, -0.
MapContent awkward_content() {
  MapContent c;
  c.name = R"(a "quoted" \ name)";
  c.boxes = {Aabb{{-0.1f, -1e-30f, 1.0f / 3.0f}, {0.1f, 0.0f, 99999.99f}}};
  c.box_surfaces = {{"floor", "concrete"}};
  c.spawn_points = {{{-0.0f, 0.3f, 7.0e-5f}, 359.99997f}};
  MapObject o;
  o.key = "odd/key:0";
  o.kind = "light";
  o.position = {1.17549435e-38f, -2.5f, -99999.992f};
  o.rotation = Quat{0.5f, -0.5f, 0.5f, -0.5f};
  o.scale = Vec3{0.001f, 1000.0f, 1.0f / 7.0f};
  o.components = {ObjectComponent{"light", {3.4028235e38f, 1e-45f, -1e-38f, 0.1f}, 4, 0xA5, {}},
                  ObjectComponent{"mover", {0.25f}, 1, 0, {}}, ObjectComponent{"empty", {}, 0, 0, {}}};
  c.objects = {o};
  return c;
}

TEST(MapSave, RoundTripIsLosslessAndCanonical) {
  auto built = Map::build(awkward_content());
  ASSERT_TRUE(built.ok()) << built.error().text();
  const std::string awkward_text = save_map(*built);
  for (const std::string_view text : {reference_map_text(), std::string_view(awkward_text)}) {
    const Map first = load_ok(text);
    const std::string saved = save_map(first);
    const Map second = load_ok(saved);
    EXPECT_TRUE(first.content() == second.content());
    EXPECT_EQ(save_map(second), saved);
    EXPECT_EQ(first.content_hash(), second.content_hash());
  }
  EXPECT_TRUE(load_ok(awkward_text).content() == awkward_content());
}

TEST(MapSave, EveryFloatReadsBackBitExact) {
  Rng rng(test::test_seed(0x6d6170));
  MapContent base = awkward_content();
  for (int round = 0; round < 2000; ++round) {
    ObjectComponent& c = base.objects[0].components[0];
    for (float& v : c.channels) {
      do v = std::bit_cast<float>(rng.next_u32());
      while (!std::isfinite(v) || v == 0.0f);
    }
    auto map = Map::build(base);
    ASSERT_TRUE(map.ok());
    const Map back = load_ok(save_map(*map));
    for (std::size_t i = 0; i < kMaxComponentChannels; ++i)
      ASSERT_EQ(std::bit_cast<uint32_t>(back.objects()[0].components[0].channels[i]), std::bit_cast<uint32_t>(c.channels[i]))
          << canonical_map_number(c.channels[i]);
  }
}

TEST(MapSave, NumbersAreShortPlainDecimals) {
  EXPECT_EQ(canonical_map_number(1.0f), "1");
  EXPECT_EQ(canonical_map_number(-0.0f), "0");
  EXPECT_EQ(canonical_map_number(0.85f), "0.85");
  EXPECT_EQ(canonical_map_number(-31.75f), "-31.75");
  EXPECT_EQ(canonical_map_number(100000.0f), "100000");
  EXPECT_EQ(canonical_map_number(1e-5f), "0.00001");
}

MapHash blake2b_128(const std::string& text) {
  MapHash out{};
  EXPECT_EQ(sodium_init() >= 0, true);
  EXPECT_EQ(crypto_generichash(out.data(), out.size(), reinterpret_cast<const unsigned char*>(text.data()), text.size(),
                               nullptr, 0),
            0);
  return out;
}

constexpr const char* kTinyCompact =
    R"({"format":"tickwire-map","version":1,"name":"tiny","spawns":[{"position":[0,0,0],"yaw_deg":0}],)"
    R"("objects":[{"key":"a","kind":"light","position":[0,3,0],"components":[{"name":"light","channels":[1,1,1,100],"bits":1}]}]})";
constexpr const char* kTinyCanonical = R"({
  "format": "tickwire-map",
  "version": 1,
  "name": "tiny",
  "boxes": [],
  "spawns": [
    {"position": [0, 0, 0], "yaw_deg": 0}
  ],
  "objects": [
    {"key": "a", "kind": "light", "position": [0, 3, 0], "components": [{"name": "light", "channels": [1, 1, 1, 100], "bits": 1}]}
  ]
}
)";
constexpr const char* kTinyReordered = R"({
  "objects": [ { "components": [ { "bits": 1, "channels": [1.0, 1.0, 1e0, 100.000], "name": "light" } ],
                 "position": [0.0, 3, -0.0], "kind": "light", "key": "a" } ],
  "spawns": [ { "yaw_deg": 0, "position": [0, 0, 0] } ], "boxes": [], "name": "tiny", "version": 1,
  "format": "tickwire-map" })";

TEST(MapHash, IsBlake2b128OfTheCanonicalText) {
  const Map map = load_ok(reference_map_text());
  EXPECT_EQ(map.content_hash(), blake2b_128(save_map(map)));
  EXPECT_EQ(map.content_hash_hex(), to_hex(map.content_hash()));
  EXPECT_EQ(load_ok(reference_map_text()).content_hash(), map.content_hash());  // stable across loads
  // Pinned: a change here means peers of this build and the last disagree about every map.
  // Reproduce with: printf '%s' "<kTinyCanonical>" | b2sum -l 128
  const Map tiny = load_ok(kTinyCompact);
  EXPECT_EQ(save_map(tiny), kTinyCanonical);
  EXPECT_EQ(tiny.content_hash_hex(), "9af2b5c198e058314e7fa175d2008eb3");
}

TEST(MapHash, SameContentSameHashWhateverTheLayout) {
  const Map compact = load_ok(kTinyCompact);
  const Map reordered = load_ok(kTinyReordered);
  EXPECT_TRUE(compact.content() == reordered.content());
  EXPECT_EQ(compact.content_hash(), reordered.content_hash());
  EXPECT_EQ(save_map(compact), save_map(reordered));
}

TEST(MapHash, ChangesWithAnyContent) {
  const Map base = load_ok(reference_map_text());
  auto changed_hash = [&](auto edit) {
    MapContent c = base.content();
    edit(c);
    auto map = Map::build(std::move(c));
    EXPECT_TRUE(map.ok());
    return map->content_hash();
  };
  const MapHash original = base.content_hash();
  EXPECT_NE(changed_hash([](MapContent& c) { c.objects[7].components[0].bits ^= 1; }), original);
  EXPECT_NE(changed_hash([](MapContent& c) { c.objects[7].components[0].channels[3] += 1; }), original);
  EXPECT_NE(changed_hash([](MapContent& c) { c.objects[7].position.y += 0.25f; }), original);
  EXPECT_NE(changed_hash([](MapContent& c) { std::swap(c.objects[1], c.objects[2]); }), original);  // indices are content
  EXPECT_NE(changed_hash([](MapContent& c) { c.boxes[3].max.y += 1; }), original);
  EXPECT_NE(changed_hash([](MapContent& c) { c.box_surfaces[3].material = "steel"; }), original);
  EXPECT_NE(changed_hash([](MapContent& c) { c.spawn_points.pop_back(); }), original);
  EXPECT_NE(changed_hash([](MapContent& c) { c.name = "other"; }), original);
  EXPECT_NE(changed_hash([](MapContent& c) { c.objects[0].scale = Vec3{1, 1, 1}; }), original);
  EXPECT_EQ(changed_hash([](MapContent&) {}), original);
}

}  // namespace
}  // namespace tickwire::world
