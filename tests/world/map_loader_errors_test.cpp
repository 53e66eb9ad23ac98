// Malformed maps, each refused with its named error at the JSON path of the offending value: the
// loader's contract with whoever hands it a file (an operator's typo or a hostile upload).
#include <gtest/gtest.h>

#include "map_refusal.h"

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support.h"
#include "tickwire/world/map_loader.h"

namespace tickwire::world {
namespace {

const std::string kBox = R"({"tag": "floor", "material": "concrete", "min": [-1, -1, -1], "max": [1, 0, 1]})";
const std::string kSpawn = R"({"position": [0, 0, 0], "yaw_deg": 0})";
const std::string kLight = R"({"name": "light", "channels": [1, 1, 1, 100], "bits": 1})";

std::string object(const std::string& key, const std::string& extra = "", const std::string& components = kLight) {
  return R"({"key": ")" + key + R"(", "kind": "light", "position": [0, 3, 0])" + extra + R"(, "components": [)" +
         components + "]}";
}

// A small valid map with one list replaced; `extra` adds top-level members.
std::string map_text(const std::string& boxes = kBox, const std::string& spawns = kSpawn,
                     const std::string& objects = object("a"), const std::string& extra = "") {
  return R"({"format": "tickwire-map", "version": 1, "name": "tiny", "boxes": [)" + boxes + R"(], "spawns": [)" +
         spawns + R"(], "objects": [)" + objects + "]" + extra + "}";
}

std::string repeated(const std::string& item, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) out += (i ? "," : "") + item;
  return out;
}

struct Case {
  const char* name;
  std::string text;
  MapErrorCode code;
  std::string path;
};

std::vector<Case> malformed_maps() {
  const std::string base = map_text();
  return {
      {"truncated JSON", base.substr(0, base.size() / 2), MapErrorCode::json_syntax, ""},
      {"empty text", "", MapErrorCode::json_syntax, ""},
      {"NaN literal", map_text(kBox, R"({"position": [NaN, 0, 0], "yaw_deg": 0})"), MapErrorCode::json_syntax, ""},
      {"comment", "// a map\n" + base, MapErrorCode::json_syntax, ""},
      {"invalid UTF-8", map_text(kBox, kSpawn, object("a"), ", \"x\": \"\xff\""), MapErrorCode::json_syntax, ""},
      {"root is an array", "[" + base + "]", MapErrorCode::not_a_map, ""},
      {"another format", R"({"format": "other", "version": 1})", MapErrorCode::not_a_map, "format"},
      {"future version", R"({"format": "tickwire-map", "version": 4})", MapErrorCode::unsupported_version, "version"},
      {"version 0", R"({"format": "tickwire-map", "version": 0})", MapErrorCode::unsupported_version, "version"},
      {"outputs in a version 1 map", map_text(kBox, kSpawn, object("a", R"(, "outputs": {})")),
       MapErrorCode::unknown_field, "objects[0].outputs"},
      {"version as text", R"({"format": "tickwire-map", "version": "1"})", MapErrorCode::wrong_type, "version"},
      {"unknown top-level field", map_text(kBox, kSpawn, object("a"), R"(, "colour": 1)"), MapErrorCode::unknown_field,
       "colour"},
      {"unknown object field", map_text(kBox, kSpawn, object("a", R"(, "color": [1, 1, 1])")),
       MapErrorCode::unknown_field, "objects[0].color"},
      {"field named twice", map_text(kBox, R"({"position": [0, 0, 0], "yaw_deg": 0, "yaw_deg": 1})"),
       MapErrorCode::duplicate_field, ""},
      {"nested too deep", map_text(kBox, kSpawn, object("a"), R"(, "x": [[[[[[[[[[1]]]]]]]]]])"),
       MapErrorCode::json_too_deep, ""},
      {"too many JSON values", map_text(kBox, kSpawn, object("a"), ", \"x\": [" + repeated("0", kMaxMapJsonValues) + "]"),
       MapErrorCode::json_too_many_values, ""},
      {"box min of the wrong type", map_text(R"({"tag": "floor", "material": "concrete", "min": "zero", "max": [1, 0, 1]})"),
       MapErrorCode::wrong_type, "boxes[0].min"},
      {"box without a tag", map_text(R"({"material": "concrete", "min": [0, 0, 0], "max": [1, 0, 1]})"),
       MapErrorCode::missing_field, "boxes[0].tag"},
      {"box min > max", map_text(R"({"tag": "floor", "material": "concrete", "min": [2, -1, -1], "max": [1, 0, 1]})"),
       MapErrorCode::box_inverted, "boxes[0]"},
      {"boxes not a list", R"({"format": "tickwire-map", "version": 1, "name": "tiny", "boxes": {}, "spawns": [)" + kSpawn + "]}",
       MapErrorCode::wrong_type, "boxes"},
      {"position of 2 numbers", map_text(kBox, R"({"position": [0, 0], "yaw_deg": 0})"), MapErrorCode::wrong_length,
       "spawns[0].position"},
      {"position holding text", map_text(kBox, R"({"position": [0, "up", 0], "yaw_deg": 0})"), MapErrorCode::wrong_type,
       "spawns[0].position"},
      {"number past the float range", map_text(kBox, kSpawn, R"({"key": "a", "kind": "light", "position": [0, 1e39, 0]})"),
       MapErrorCode::not_finite, "objects[0].position"},
      {"number past the double range", map_text(kBox, R"({"position": [1e999, 0, 0], "yaw_deg": 0})"),
       MapErrorCode::not_finite, ""},
      {"coordinate out of range", map_text(kBox, R"({"position": [0, 0, 1000000], "yaw_deg": 0})"),
       MapErrorCode::out_of_range, "spawns[0].position"},
      {"yaw of a full turn", map_text(kBox, R"({"position": [0, 0, 0], "yaw_deg": 360})"), MapErrorCode::out_of_range,
       "spawns[0].yaw_deg"},
      {"no spawn point", map_text(kBox, ""), MapErrorCode::no_spawn_point, "spawns"},
      {"spawns missing", R"({"format": "tickwire-map", "version": 1, "name": "tiny"})", MapErrorCode::missing_field,
       "spawns"},
      {"too many objects", map_text(kBox, kSpawn, repeated("{}", kMaxMapObjects + 1)), MapErrorCode::count_over_max,
       "objects"},
      {"too many spawn points", map_text(kBox, repeated(kSpawn, kMaxMapSpawnPoints + 1)), MapErrorCode::count_over_max,
       "spawns"},
      {"5 components", map_text(kBox, kSpawn, object("a", "", repeated(kLight, 5))), MapErrorCode::count_over_max,
       "objects[0].components"},
      {"5 channels", map_text(kBox, kSpawn, object("a", "", R"({"name": "light", "channels": [1, 1, 1, 1, 1]})")),
       MapErrorCode::count_over_max, "objects[0].components[0].channels"},
      {"bits past 255", map_text(kBox, kSpawn, object("a", "", R"({"name": "light", "bits": 256})")),
       MapErrorCode::out_of_range, "objects[0].components[0].bits"},
      {"fractional bits", map_text(kBox, kSpawn, object("a", "", R"({"name": "light", "bits": 1.5})")),
       MapErrorCode::wrong_type, "objects[0].components[0].bits"},
      {"component named twice", map_text(kBox, kSpawn, object("a", "", kLight + "," + kLight)),
       MapErrorCode::duplicate_component, "objects[0].components[1].name"},
      {"duplicate key", map_text(kBox, kSpawn, object("a") + "," + object("b") + "," + object("a")),
       MapErrorCode::duplicate_key, "objects[2].key"},
      {"missing position", map_text(kBox, kSpawn, R"({"key": "a", "kind": "light"})"), MapErrorCode::missing_field,
       "objects[0].position"},
      {"over-long key", map_text(kBox, kSpawn, object(std::string(kMaxMapStringBytes + 1, 'k'))),
       MapErrorCode::string_over_cap, "objects[0].key"},
      {"empty key", map_text(kBox, kSpawn, object("")), MapErrorCode::invalid_string, "objects[0].key"},
      {"key with a space", map_text(kBox, kSpawn, object("a b")), MapErrorCode::invalid_string, "objects[0].key"},
      {"rotation not unit", map_text(kBox, kSpawn, object("a", R"(, "rotation": [0, 0, 0, 2])")),
       MapErrorCode::rotation_not_unit, "objects[0].rotation"},
      {"rotation of 3 numbers", map_text(kBox, kSpawn, object("a", R"(, "rotation": [0, 0, 1])")),
       MapErrorCode::wrong_length, "objects[0].rotation"},
      {"zero scale", map_text(kBox, kSpawn, object("a", R"(, "scale": [1, 0, 1])")), MapErrorCode::out_of_range,
       "objects[0].scale"},
      {"text over the cap", map_text() + std::string(kMaxMapFileBytes, ' '), MapErrorCode::file_too_large, ""},
  };
}

TEST(MapLoaderErrors, EachMalformedMapIsRefusedWithItsErrorAndPath) {
  ASSERT_TRUE(load_map(map_text()).ok()) << load_map(map_text()).error().text();
  const auto cases = malformed_maps();
  ASSERT_GE(cases.size(), 20u);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    expect_map_refused(c.text, c.code, c.path);
  }
}

TEST(MapLoaderErrors, ErrorTextNamesPathMessageAndCode) {
  const auto result = load_map(map_text(kBox, R"({"position": [0, 0], "yaw_deg": 0})"));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().text(), "spawns[0].position: expected 3 numbers, got 2 (wrong_length)");
}

TEST(MapLoaderErrors, FilesMissingUnreadableOrOverTheCapAreRefused) {
  EXPECT_EQ(load_map_file("/nonexistent/tickwire/map.json").code(), MapErrorCode::file_unreadable);
  EXPECT_EQ(load_map_file(std::filesystem::temp_directory_path()).code(), MapErrorCode::file_unreadable);
  const auto dir = std::filesystem::temp_directory_path() / ("tickwire_map_test_" + std::to_string(::getpid()));
  const auto big = dir / "big.json";
  test::write_file_text(big, map_text() + std::string(kMaxMapFileBytes, ' '));
  EXPECT_EQ(load_map_file(big).code(), MapErrorCode::file_too_large);
  const auto fine = dir / "fine.json";
  test::write_file_text(fine, map_text());
  EXPECT_TRUE(load_map_file(fine).ok());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tickwire::world
