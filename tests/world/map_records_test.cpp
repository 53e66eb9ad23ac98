// Records with one override layer (map format version 3): each slot (a source's inherits, a carried
// child, a placement) resolves once at load into the flat objects, every unstated field inherits,
// "removed": true removes, a placement of a variant of an object rebases with its layers laid
// outermost-last, and the file's layers save back as written (byte for byte when canonical).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "map_records_rig.h"
#include "support.h"
#include "tickwire/world/logic_components.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/map_object_table.h"
#include "tickwire/world/map_writer.h"

namespace tickwire::world {
namespace {

using namespace test_records;

Map load_ok(const std::string& text) {
  auto result = load_map(text);
  if (!result) ADD_FAILURE() << result.error().text();
  return std::move(result).value();
}

const MapObject& object(const Map& map, std::string_view key) {
  const std::optional<uint32_t> index = map.object_index(key);
  EXPECT_TRUE(index.has_value()) << key;
  return map.objects()[index.value_or(0)];
}

std::array<float, kMaxSettingValues> prop(const MapObject& o, std::string_view setting) {
  const ObjectComponent* c = o.component("physics_prop");
  EXPECT_NE(c, nullptr) << o.key;
  return c != nullptr ? setting_values(*c, setting) : std::array<float, kMaxSettingValues>{};
}

TEST(MapRecords, APlacementThatStatesOnlyAMassInheritsSizeMaterialAndTheRest) {
  const Map map = load_ok(v3_map(kCrate, R"({"key": "crate.1", "source": "crate", "position": [3, 0, 2],)"
                                         R"( "components": [{"name": "physics_prop", "settings": {"mass": 80}}]})"));
  ASSERT_EQ(map.objects().size(), 1u);
  const MapObject& crate = map.objects()[0];
  EXPECT_EQ(crate.key, "crate.1");
  EXPECT_EQ(crate.kind, "crate_prop");
  EXPECT_EQ(crate.position, (Vec3{3, 0, 2}));
  EXPECT_EQ(prop(crate, "mass")[0], 80.0f);
  EXPECT_EQ(prop(crate, "size"), (std::array<float, kMaxSettingValues>{1, 1, 1, 0}));
  EXPECT_EQ(prop(crate, "material")[0], 0.0f);
  const ObjectComponent& body = crate.components[0];
  EXPECT_EQ(body.active_channels().size(), 1u);
  EXPECT_EQ(body.channels[0], 10.0f);
  EXPECT_EQ(body.bits, 1);
  // The layer is kept as written: the placement states a mass and nothing else.
  const ObjectRecord& placement = map.content().placements[0];
  ASSERT_EQ(placement.components.size(), 1u);
  EXPECT_FALSE(placement.components[0].channels.has_value());
  EXPECT_FALSE(placement.kind.has_value());
  ASSERT_EQ(placement.components[0].settings.size(), 1u);
}

TEST(MapRecords, ASourceThatInheritsStatesOnlyItsDepartures) {
  const Map map = load_ok(v3_map(kCrate + ", " + kHeavyCrate, R"({"key": "h", "source": "heavy_crate"})"));
  const MapObject& heavy = map.objects()[0];
  EXPECT_EQ(heavy.kind, "crate_prop");
  EXPECT_EQ(prop(heavy, "mass")[0], 80.0f);
  EXPECT_EQ(prop(heavy, "material")[0], 1.0f);
  EXPECT_EQ(prop(heavy, "size"), (std::array<float, kMaxSettingValues>{1, 1, 1, 0}));
  EXPECT_EQ(heavy.components[0].bits, 1) << "bits inherit through the variant";
  EXPECT_EQ(map.content().sources.size(), 2u);
  EXPECT_EQ(map.content().sources[1].record.source, "crate");
}

TEST(MapRecords, APlacementOfAVariantOfAnObjectRebasesWithItsLayersOutermostLast) {
  // crate (mass 10, material 0) <- heavy_crate (mass 80, material 1) <- placement (mass 120, bits 0)
  const Map map = load_ok(v3_map(kCrate + ", " + kHeavyCrate,
                                 R"({"key": "h", "source": "heavy_crate", "kind": "big_crate",)"
                                 R"( "components": [{"name": "physics_prop", "bits": 0, "settings": {"mass": 120}}]})"));
  const MapObject& o = map.objects()[0];
  EXPECT_EQ(o.kind, "big_crate");
  EXPECT_EQ(prop(o, "mass")[0], 120.0f) << "the outermost layer is laid last";
  EXPECT_EQ(prop(o, "material")[0], 1.0f) << "the variant's layer over the root";
  EXPECT_EQ(prop(o, "size")[0], 1.0f) << "the root's";
  EXPECT_EQ(o.components[0].bits, 0);
  EXPECT_EQ(o.components[0].channels[0], 10.0f);
}

TEST(MapRecords, CarriedChildrenBecomeObjectsKeyedAndPlacedRelativeToTheirParent) {
  // A quarter turn about +y: the child's local (0, 2, 1) becomes (1, 2, 0) around the parent.
  const float h = std::sqrt(0.5f);
  const Map map = load_ok(v3_map(kAllSources, R"({"key": "cart.1", "source": "cart", "position": [10, 0, 5],)"
                                              R"( "rotation": [0, )" + std::to_string(h) + ", 0, " + std::to_string(h) + "]}"));
  ASSERT_EQ(map.objects().size(), 3u);
  EXPECT_EQ(map.objects()[0].key, "cart.1");
  EXPECT_EQ(map.objects()[1].key, "cart.1/lamp");
  EXPECT_EQ(map.objects()[2].key, "cart.1/load");
  const MapObject& lamp = object(map, "cart.1/lamp");
  EXPECT_EQ(lamp.kind, "light");
  EXPECT_NEAR(lamp.position.x, 11.0f, 1e-5f);
  EXPECT_NEAR(lamp.position.y, 2.0f, 1e-5f);
  EXPECT_NEAR(lamp.position.z, 5.0f, 1e-5f);
  ASSERT_TRUE(lamp.rotation.has_value()) << "a child turns with its parent";
  EXPECT_NEAR(lamp.rotation->y, h, 1e-5f);
  const MapObject& load = object(map, "cart.1/load");
  EXPECT_EQ(prop(load, "mass")[0], 80.0f) << "a carried child is a record too: heavy_crate over crate";
  EXPECT_NEAR(load.position.z, 4.0f, 1e-5f);
  EXPECT_EQ(map.objects()[0].position, (Vec3{10, 0, 5})) << "the placement's position replaces the source's default";
  // Downstream reads the flat objects as ever.
  const MapObjectTable table = MapObjectTable::build(map);
  EXPECT_EQ(table.size(), 3u);
}

TEST(MapRecords, APlacementOverridesAndAddsCarriedChildren) {
  const Map map = load_ok(v3_map(kAllSources, R"({"key": "cart.1", "source": "cart", "objects": [)"
                                              R"({"key": "lamp", "components": [{"name": "light", "bits": 0}]},)"
                                              R"( {"key": "spare", "source": "crate", "position": [0, 0, -1]}]})"));
  ASSERT_EQ(map.objects().size(), 4u);
  const MapObject& lamp = object(map, "cart.1/lamp");
  EXPECT_EQ(lamp.components[0].bits, 0) << "the placement's layer over the carried lamp";
  EXPECT_EQ(lamp.components[0].channels[3], 400.0f) << "its other fields inherit";
  EXPECT_EQ(lamp.position, (Vec3{0, 2.5f, 1})) << "relative to the cart's default position (0, 0.5, 0)";
  EXPECT_EQ(map.objects()[3].key, "cart.1/spare") << "a new child follows the inherited ones";
  EXPECT_EQ(object(map, "cart.1/spare").kind, "crate_prop");
}

TEST(MapRecords, AnInlineOverrideOfACarriedChildFitsTheJsonDepthCap) {
  // The deepest legal value of a version 3 file: a placement's override of a carried child's
  // component setting array, two levels under the flat format's deepest.
  const Map map = load_ok(v3_map(kAllSources, R"({"key": "cart.1", "source": "cart", "objects": [{"key": "load",)"
                                              R"( "components": [{"name": "physics_prop", "settings": {"size": [2, 3, 4]}}]}]})"));
  EXPECT_EQ(prop(object(map, "cart.1/load"), "size"), (std::array<float, kMaxSettingValues>{2, 3, 4, 0}));
  EXPECT_EQ(prop(object(map, "cart.1/load"), "mass")[0], 80.0f);
}

TEST(MapRecords, RemovedTrueRemovesAComponentAnOutputASettingAndAChild) {
  const Map map = load_ok(v3_map(kAllSources,
                                 R"({"key": "a", "source": "lamp", "outputs": {"onTurnedOn": {"removed": true}},)"
                                 R"( "components": [{"name": "light", "removed": true}]},)"
                                 R"( {"key": "b", "source": "cart", "objects": [{"key": "load", "removed": true}]},)"
                                 R"( {"key": "c", "source": "crate", "components": [{"name": "physics_prop",)"
                                 R"( "settings": {"material": {"removed": true}}}]})"));
  const MapObject& a = object(map, "a");
  EXPECT_TRUE(a.components.empty());
  EXPECT_TRUE(a.outputs.empty());
  EXPECT_FALSE(map.object_index("b/load").has_value());
  EXPECT_TRUE(map.object_index("b/lamp").has_value());
  const MapObject& c = object(map, "c");
  EXPECT_EQ(c.components[0].setting("material"), nullptr);
  EXPECT_EQ(prop(c, "material")[0], 0.0f) << "a removed setting takes its default";
  EXPECT_NE(c.components[0].setting("mass"), nullptr);
}

TEST(MapRecords, ALayerReplacesChannelsAndOutputsWholeAndAddsComponents) {
  const Map map = load_ok(v3_map(kAllSources,
                                 R"({"key": "a", "source": "lamp", "components": [{"name": "light", "channels": [0, 0, 1]},)"
                                 R"( {"name": "button", "settings": {"reset_s": 2}}],)"
                                 R"( "outputs": {"onTurnedOn": [{"delay": 1}], "onTurnedOff": [{"target": "x", "input": "y"}]}})"));
  const MapObject& a = object(map, "a");
  ASSERT_EQ(a.components.size(), 2u);
  EXPECT_EQ(a.components[0].active_channels().size(), 3u) << "a stated channel list replaces the whole list";
  EXPECT_EQ(a.components[0].channels[3], 0.0f);
  EXPECT_EQ(a.components[0].bits, 1);
  EXPECT_EQ(a.components[1].name, "button");
  ASSERT_EQ(a.outputs.size(), 2u);
  EXPECT_EQ(a.outputs[0].name, "onTurnedOff");
  EXPECT_EQ(a.outputs[1].actions.size(), 1u);
}

TEST(MapRecords, PlainObjectsAndRecordsMixInOneList) {
  const Map map = load_ok(v3_map(kCrate, R"({"key": "plain", "kind": "light", "position": [1, 2, 3]},)"
                                         R"( {"key": "placed", "source": "crate"})"));
  ASSERT_EQ(map.objects().size(), 2u);
  EXPECT_EQ(map.objects()[0].kind, "light");
  EXPECT_EQ(map.objects()[1].position, (Vec3{0, 0, 0})) << "an unstated position inherits the source's default";
  EXPECT_EQ(map.object_index("placed"), 1u);
}

TEST(MapRecords, AVersion3MapSavesItsLayersAsAuthoredAndRoundTrips) {
  const std::string text = v3_map(kAllSources, R"({"key": "cart.1", "source": "cart", "position": [1, 0, 0],)"
                                               R"( "objects": [{"key": "lamp", "components": [{"name": "light", "bits": 0}]},)"
                                               R"( {"key": "load", "removed": true}]},)"
                                               R"( {"key": "crate.1", "source": "crate", "components": [{"name": "physics_prop",)"
                                               R"( "settings": {"mass": 80, "size": {"removed": true}}}]},)"
                                               R"( {"key": "plain", "kind": "light", "outputs": {"onTurnedOn": [{"delay": 0.5}]}})");
  const Map first = load_ok(text);
  const std::string saved = save_map(first);
  EXPECT_NE(saved.find("\"version\": 3"), std::string::npos);
  EXPECT_NE(saved.find("\"inherits\": \"crate\""), std::string::npos);
  EXPECT_EQ(saved.find("\"key\": \"cart.1/lamp\""), std::string::npos) << "no resolved object is written";
  const Map second = load_ok(saved);
  EXPECT_TRUE(second.content() == first.content());
  EXPECT_EQ(second.content_hash(), first.content_hash());
  EXPECT_EQ(save_map(second), saved) << "a canonical version 3 file is written back byte for byte";
  EXPECT_EQ(second.objects().size(), first.objects().size());
}

TEST(MapRecords, TheContentHashCoversTheAuthoredLayers) {
  // Two files whose records resolve to the same object: the mass stated by the placement, or by a
  // source it names. Their objects are equal; their content (and hash) is not.
  const Map by_placement = load_ok(v3_map(kCrate, R"({"key": "c", "source": "crate", "components": [)"
                                                  R"({"name": "physics_prop", "settings": {"mass": 80}}]})"));
  const Map by_source = load_ok(v3_map(kCrate + R"(, "c80": {"inherits": "crate", "components": [)"
                                                R"({"name": "physics_prop", "settings": {"mass": 80}}]})",
                                       R"({"key": "c", "source": "c80"})"));
  EXPECT_EQ(by_placement.objects()[0], by_source.objects()[0]);
  EXPECT_NE(by_placement.content_hash(), by_source.content_hash());
}

TEST(MapRecords, SourcesNoPlacementNamesStillResolveAndLoad) {
  const Map map = load_ok(v3_map(kAllSources, ""));
  EXPECT_TRUE(map.objects().empty());
  EXPECT_EQ(map.content().sources.size(), 4u);
  EXPECT_EQ(map.content().sources[0].name, "cart") << "sources are kept in name order";
}

TEST(MapRecords, TheRecordsSeedIsCanonicalAndResolvesEverySlot) {
  const auto loaded = load_map_file(test::source_dir() / "tests" / "fixtures" / "fuzz" / "fuzz_map_loader" / "records.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error().text();
  EXPECT_EQ(loaded->format_version(), 3u);
  EXPECT_EQ(save_map(*loaded), test::read_file_text(test::source_dir() / "tests" / "fixtures" / "fuzz" / "fuzz_map_loader" / "records.json"))
      << save_map(*loaded);
  EXPECT_EQ(loaded->objects().size(), 7u) << "crate.1, crate.2, cart.1 + lamp + spare, lamp.1, light.1";
}

}  // namespace
}  // namespace tickwire::world
