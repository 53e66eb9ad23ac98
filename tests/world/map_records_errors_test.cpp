// Every way a version 3 map's records can be wrong is refused with its own code and the JSON path
// of the value at fault: an unknown source, a cycle, one part overridden twice in one layer, the
// removal of something the source does not have, records laid too deep, and every new list's cap.
#include <gtest/gtest.h>

#include "map_refusal.h"

#include <string>
#include <vector>

#include "map_records_rig.h"
#include "tickwire/world/map_loader.h"

namespace tickwire::world {
namespace {

using namespace test_records;

struct ErrorCase {
  std::string what;
  std::string text;
  MapErrorCode code;
  std::string path;
};

// `count` sources named s0.. where each after the first inherits the one before.
std::string inherits_chain(std::size_t count) {
  std::string out = R"("s0": {"kind": "k"})";
  for (std::size_t i = 1; i < count; ++i)
    out += R"(, "s)" + std::to_string(i) + R"(": {"inherits": "s)" + std::to_string(i - 1) + R"("})";
  return out;
}

// A source whose `count` carried children each name `child_source`.
std::string carrier(const std::string& name, const std::string& child_source, std::size_t count) {
  std::string out = "\"" + name + R"(": {"kind": "k", "objects": [)";
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) out += ", ";
    out += R"({"key": "c)" + std::to_string(i) + R"(", "source": ")" + child_source + "\"}";
  }
  return out + "]}";
}

std::string placements(const std::string& source, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) out += ", ";
    out += R"({"key": "p)" + std::to_string(i) + R"(", "source": ")" + source + "\"}";
  }
  return out;
}

std::vector<ErrorCase> error_cases() {
  const std::string crate_with = R"({"key": "c", "source": "crate", )";
  return {
      // Unknown sources, in each slot.
      {"a placement's unknown source", v3_map(kCrate, R"({"key": "a", "kind": "k"}, {"key": "b", "source": "barrel"})"),
       MapErrorCode::unknown_source, "objects[1].source"},
      {"an inherits of an unknown source", v3_map(R"("heavy": {"inherits": "crate"})", ""), MapErrorCode::unknown_source,
       "sources.heavy.inherits"},
      {"a carried child's unknown source", v3_map(R"("cart": {"kind": "k", "objects": [{"key": "x", "source": "nope"}]})", ""),
       MapErrorCode::unknown_source, "sources.cart.objects[0].source"},
      // Cycles, through inherits and through carried children.
      {"two sources inheriting each other", v3_map(R"("a": {"inherits": "b"}, "b": {"inherits": "a"})", ""),
       MapErrorCode::source_cycle, "sources.b.inherits"},
      {"a source inheriting itself", v3_map(R"("a": {"inherits": "a"})", ""), MapErrorCode::source_cycle,
       "sources.a.inherits"},
      {"a source carrying itself", v3_map(R"("a": {"kind": "k", "objects": [{"key": "x", "source": "a"}]})", ""),
       MapErrorCode::source_cycle, "sources.a.objects[0].source"},
      // One override per part.
      {"a component named twice in a source", v3_map(kCrate + R"(, "heavy_crate": {"inherits": "crate", "components": [)"
                                                         R"({"name": "physics_prop", "bits": 0}, {"name": "physics_prop", "bits": 1}]})", ""),
       MapErrorCode::duplicate_override, "sources.heavy_crate.components[1].name"},
      {"a component named twice in a placement", v3_map(kCrate, crate_with + R"("components": [{"name": "physics_prop"},)"
                                                                R"( {"name": "light"}, {"name": "physics_prop", "removed": true}]})"),
       MapErrorCode::duplicate_override, "objects[0].components[2].name"},
      {"a child layer with a field no record has", v3_map(kAllSources, R"({"key": "c", "source": "cart", "objects": [)"
                                                               R"({"key": "lamp", "bits": 0}]})"),
       MapErrorCode::unknown_field, "objects[0].objects[0].bits"},
      {"a child overridden twice", v3_map(kAllSources, R"({"key": "c", "source": "cart", "objects": [)"
                                                       R"({"key": "lamp"}, {"key": "lamp", "removed": true}]})"),
       MapErrorCode::duplicate_override, "objects[0].objects[1].key"},
      // Removing what the source does not have.
      {"removing an absent component", v3_map(kCrate, crate_with + R"("components": [{"name": "light", "removed": true}]})"),
       MapErrorCode::remove_missing, "objects[0].components[0].removed"},
      {"removing an absent output", v3_map(kCrate, crate_with + R"("outputs": {"onPressed": {"removed": true}}})"),
       MapErrorCode::remove_missing, "objects[0].outputs.onPressed.removed"},
      {"removing an absent child", v3_map(kAllSources, R"({"key": "c", "source": "cart", "objects": [{"key": "wheel", "removed": true}]})"),
       MapErrorCode::remove_missing, "objects[0].objects[0].removed"},
      {"removing an absent setting", v3_map(R"("p": {"kind": "k", "components": [{"name": "physics_prop", "settings": {"mass": 2}}]})",
                                            R"({"key": "c", "source": "p", "components": [{"name": "physics_prop",)"
                                            R"( "settings": {"size": {"removed": true}}}]})"),
       MapErrorCode::remove_missing, "objects[0].components[0].settings.size.removed"},
      {"removing in a source with nothing under it", v3_map(R"("p": {"kind": "k", "components": [{"name": "light", "removed": true}]})", ""),
       MapErrorCode::remove_missing, "sources.p.components[0].removed"},
      {"removed false", v3_map(kCrate, crate_with + R"("components": [{"name": "physics_prop", "removed": false}]})"),
       MapErrorCode::out_of_range, "objects[0].components[0].removed"},
      {"a removal stating more", v3_map(kAllSources, R"({"key": "c", "source": "cart", "objects": [{"key": "load", "removed": true, "position": [0, 0, 0]}]})"),
       MapErrorCode::unknown_field, "objects[0].objects[0].position"},
      {"an inherited child's override naming a source", v3_map(kAllSources, R"({"key": "c", "source": "cart", "objects": [{"key": "lamp", "source": "crate"}]})"),
       MapErrorCode::override_names_source, "objects[0].objects[0].source"},
      // Fields a slot does not have.
      {"a placement that inherits", v3_map(kCrate, R"({"key": "c", "inherits": "crate"})"), MapErrorCode::unknown_field,
       "objects[0].inherits"},
      {"a placement that is removed", v3_map(kCrate, R"({"key": "c", "source": "crate", "removed": true})"),
       MapErrorCode::unknown_field, "objects[0].removed"},
      {"a source with a key", v3_map(R"("p": {"key": "p", "kind": "k"})", ""), MapErrorCode::unknown_field, "sources.p.key"},
      {"sources in a version 2 map", R"({"format": "tickwire-map", "version": 2, "name": "x", "spawns": [{"position": [0, 0, 0], "yaw_deg": 0}], "sources": {}})",
       MapErrorCode::unknown_field, "sources"},
      {"a record of no kind", v3_map("", R"({"key": "c", "position": [0, 0, 0]})"), MapErrorCode::missing_field, "objects[0].kind"},
      {"a placement without a key", v3_map(kCrate, R"({"source": "crate"})"), MapErrorCode::missing_field, "objects[0].key"},
      {"sources not an object", v3_map("", "").replace(v3_map("", "").find("\"objects\""), 0, R"("sources": [], )"),
       MapErrorCode::wrong_type, "sources"},
      // Values inside a layer are checked where they are written.
      {"a mass out of range in a source", v3_map(R"("p": {"kind": "k", "components": [{"name": "physics_prop", "settings": {"mass": -1}}]})", ""),
       MapErrorCode::out_of_range, "sources.p.components[0].settings.mass"},
      {"a material that is no whole number", v3_map(kCrate, crate_with + R"("components": [{"name": "physics_prop", "settings": {"material": 1.5}}]})"),
       MapErrorCode::out_of_range, "objects[0].components[0].settings.material"},
      {"a material past the table", v3_map(kCrate, crate_with + R"("components": [{"name": "physics_prop", "settings": {"material": 4}}]})"),
       MapErrorCode::out_of_range, "objects[0].components[0].settings.material"},
      {"a child's bad position", v3_map(kAllSources, R"({"key": "c", "source": "cart", "objects": [{"key": "lamp", "position": [0, 1e6, 0]}]})"),
       MapErrorCode::out_of_range, "objects[0].objects[0].position"},
      {"a source name that is no identifier", v3_map(R"("a b": {"kind": "k"})", ""), MapErrorCode::invalid_string, "sources"},
      // What only the resolved objects show, at the record that made them.
      {"two placements of one key", v3_map(kCrate, placements("crate", 1) + ", " + placements("crate", 1)),
       MapErrorCode::duplicate_key, "objects[1].key"},
      {"a placement's key taken by a carried child", v3_map(kAllSources, R"({"key": "c", "source": "cart"}, {"key": "c/lamp", "kind": "k"})"),
       MapErrorCode::duplicate_key, "objects[1].key"},
      {"a fifth component from a layer", v3_map(R"("p": {"kind": "k", "components": [{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "d"}]})",
                                                R"({"key": "x", "source": "p", "components": [{"name": "e"}]})"),
       MapErrorCode::count_over_max, "objects[0].components"},
      // Caps.
      {"records laid too deep", v3_map(inherits_chain(kMaxRecordDepth + 1), ""), MapErrorCode::record_too_deep,
       "sources.s8.inherits"},
      {"too many sources", v3_map(inherits_chain(kMaxMapSources + 1), ""), MapErrorCode::count_over_max,
       "sources"},
      {"too many carried children", v3_map(kCrate + ", " + carrier("cart", "crate", kMaxCarriedChildren + 1), ""),
       MapErrorCode::count_over_max, "sources.cart.objects"},
      {"sources that multiply past their cap",
       v3_map(kCrate + ", " + carrier("t1", "crate", 16) + ", " + carrier("t2", "t1", 16) + ", " + carrier("t3", "t2", 16) +
                  ", " + carrier("t4", "t3", 16),
              ""),
       MapErrorCode::count_over_max, "sources.t4.objects[2]"},
      {"placements that resolve past the object cap",
       v3_map(kCrate + ", " + carrier("t1", "crate", 16) + ", " + carrier("t2", "t1", 16) + ", " + carrier("t3", "t2", 15),
              placements("t3", 17)),  // 17 x 4,096 objects: past the 65,536-object cap
       MapErrorCode::count_over_max, "objects"},
  };
}

TEST(MapRecordErrors, EachBrokenRecordIsRefusedWithItsCodeAndPath) {
  for (const ErrorCase& c : error_cases()) {
    SCOPED_TRACE(c.what);
    expect_map_refused(c.text, c.code, c.path);
  }
}

TEST(MapRecordErrors, ACycleNamesTheSourcesOnIt) {
  const auto result = load_map(v3_map(R"("a": {"inherits": "b"}, "b": {"inherits": "c"}, "c": {"inherits": "a"})", ""));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, MapErrorCode::source_cycle);
  EXPECT_NE(result.error().message.find("a -> b -> c -> a"), std::string::npos) << result.error().text();
}

TEST(MapRecordErrors, AChainAtTheDepthCapLoads) {
  const auto result = load_map(v3_map(inherits_chain(kMaxRecordDepth), R"({"key": "x", "source": "s7"})"));
  ASSERT_TRUE(result.ok()) << result.error().text();
  EXPECT_EQ(result->objects()[0].kind, "k");
}

TEST(MapRecordErrors, AHandBuiltFlatContentCannotCarryRecords) {
  MapContent content;
  content.name = "x";
  content.spawn_points = {SpawnPoint{}};
  content.sources = {SourceDefinition{"s", ObjectRecord{}}};
  const auto built = Map::build(content);
  ASSERT_FALSE(built.ok());
  EXPECT_EQ(built.error().code, MapErrorCode::unsupported_version);
  EXPECT_EQ(built.error().path, "sources");
}

}  // namespace
}  // namespace tickwire::world
