// Map format version 2: component settings and object outputs (the map's logic wiring) read, save
// and load back byte for byte; a version 1 file still reads and is written as version 1; every new
// field is bounded and refused with its JSON path.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tickwire/world/map_loader.h"
#include "tickwire/world/map_writer.h"

namespace tickwire::world {
namespace {

const std::string kSpawn = R"({"position": [0, 0, 0], "yaw_deg": 0})";
const std::string kButton =
    R"({"key": "b", "kind": "button", "position": [0, 1, 1], "components": [{"name": "button", "settings": {"reset_s": 0.5}}],)"
    R"( "outputs": {"onPressed": [{"target": "d", "input": "open"}, {"delay": 0.25}, {"target": "c", "input": "add", "param": 2}]}})";
const std::string kDoor =
    R"({"key": "d", "kind": "door", "position": [0, 0, 2], "components": [{"name": "mover", "channels": [0, 0],)"
    R"( "settings": {"speed_mps": 2, "axis": [0, 1, 0]}}]})";

std::string v2_map(const std::string& objects) {
  return R"({"format": "tickwire-map", "version": 2, "name": "wired", "spawns": [)" + kSpawn + R"(], "objects": [)" +
         objects + "]}";
}

std::string repeated(const std::string& item, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) out += (i ? "," : "") + item;
  return out;
}

TEST(MapFormatV2, SettingsAndOutputsReadInNameOrder) {
  auto loaded = load_map(v2_map(kButton + "," + kDoor));
  ASSERT_TRUE(loaded.ok()) << loaded.error().text();
  EXPECT_EQ(loaded->format_version(), 2u);
  const MapObject& button = loaded->objects()[0];
  ASSERT_EQ(button.outputs.size(), 1u);
  EXPECT_EQ(button.outputs[0].name, "onPressed");
  ASSERT_EQ(button.outputs[0].actions.size(), 3u);
  EXPECT_EQ(std::get<MapCall>(button.outputs[0].actions[0]), (MapCall{"d", "open", std::nullopt}));
  EXPECT_EQ(std::get<MapDelay>(button.outputs[0].actions[1]).seconds, 0.25f);
  EXPECT_EQ(std::get<MapCall>(button.outputs[0].actions[2]).parameter, 2.0f);
  const ObjectComponent& mover = loaded->objects()[1].components[0];
  ASSERT_EQ(mover.settings.size(), 2u);
  EXPECT_EQ(mover.settings[0].name, "axis") << "name order, whatever the file's";
  EXPECT_EQ(mover.settings[0].count, 3u);
  EXPECT_EQ(mover.setting("speed_mps")->values[0], 2.0f);
}

TEST(MapFormatV2, AWiredMapSavesAndLoadsBackByteForByte) {
  const Map first = std::move(load_map(v2_map(kButton + "," + kDoor))).value();
  const std::string text = save_map(first);
  EXPECT_NE(text.find("\"version\": 2"), std::string::npos);
  auto second = load_map(text);
  ASSERT_TRUE(second.ok()) << second.error().text();
  EXPECT_EQ(second->content(), first.content());
  EXPECT_EQ(save_map(*second), text);
  EXPECT_EQ(second->content_hash(), first.content_hash());
}

TEST(MapFormatV2, AVersion1MapIsWrittenAsVersion1) {
  const std::string v1 = R"({"format": "tickwire-map", "version": 1, "name": "old", "spawns": [)" + kSpawn +
                         R"(], "objects": [{"key": "l", "kind": "light", "position": [0, 3, 0], "components": [{"name": "light", "bits": 1}]}]})";
  const Map map = std::move(load_map(v1)).value();
  EXPECT_EQ(map.format_version(), 1u);
  const std::string text = save_map(map);
  EXPECT_NE(text.find("\"version\": 1"), std::string::npos);
  EXPECT_EQ(save_map(std::move(load_map(text)).value()), text);
}

TEST(MapFormatV2, AVersion1ContentCannotCarryVersion2Fields) {
  MapContent content = load_map(v2_map(kButton)).value().content();
  content.version = 1;
  auto built = Map::build(content);
  ASSERT_FALSE(built.ok());
  EXPECT_EQ(built.error().code, MapErrorCode::unsupported_version);
  EXPECT_EQ(built.error().path, "objects[0].outputs");
}

struct Case {
  const char* name;
  std::string object;
  MapErrorCode code;
  std::string path;
};

// {"<prefix>0": value, "<prefix>1": value, ...}: `count` entries. Built by appending: `"x" +
// std::string(...)` trips GCC 12's -Wrestrict at -O3 (GCC bug 105651).
std::string numbered_object(const char* prefix, std::size_t count, const char* value) {
  std::string s = "{";
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) s += ", ";
    s += '"';
    s += prefix;
    s += std::to_string(i);
    s += "\": ";
    s += value;
  }
  s += '}';
  return s;
}

std::string button_with(const std::string& settings, const std::string& outputs = "{}") {
  return R"({"key": "b", "kind": "button", "position": [0, 1, 1], "components": [{"name": "button", "settings": )" +
         settings + R"(}], "outputs": )" + outputs + "}";
}
std::string pressed(const std::string& actions) { return button_with("{}", R"({"onPressed": [)" + actions + "]}"); }
std::string component_with(const std::string& name, const std::string& settings) {
  return R"({"key": "x", "kind": "x", "position": [0, 0, 0], "components": [{"name": ")" + name +
         R"(", "settings": )" + settings + "}]}";
}

TEST(MapFormatV2, EachMalformedLogicFieldIsRefusedWithItsErrorAndPath) {
  const std::string call = R"({"target": "d", "input": "open"})";
  const std::vector<Case> cases = {
      {"unknown setting", button_with(R"({"reset_t": 1})"), MapErrorCode::unknown_field,
       "objects[0].components[0].settings.reset_t"},
      {"settings on a component with none", component_with("sound", R"({"volume": 1})"), MapErrorCode::unknown_field,
       "objects[0].components[0].settings"},
      {"settings not an object", button_with("[1]"), MapErrorCode::wrong_type, "objects[0].components[0].settings"},
      {"setting of text", button_with(R"({"reset_s": "soon"})"), MapErrorCode::wrong_type,
       "objects[0].components[0].settings.reset_s"},
      {"negative reset", button_with(R"({"reset_s": -1})"), MapErrorCode::out_of_range,
       "objects[0].components[0].settings.reset_s"},
      {"reset past a day", button_with(R"({"reset_s": 86401})"), MapErrorCode::out_of_range,
       "objects[0].components[0].settings.reset_s"},
      {"a flag of 2", component_with("mover", R"({"usable": 2})"), MapErrorCode::out_of_range,
       "objects[0].components[0].settings.usable"},
      {"an axis of 2 numbers", component_with("mover", R"({"axis": [0, 1]})"), MapErrorCode::wrong_length,
       "objects[0].components[0].settings.axis"},
      {"an axis of zeros", component_with("mover", R"({"axis": [0, 0, 0]})"), MapErrorCode::out_of_range,
       "objects[0].components[0].settings.axis"},
      {"a speed of 0", component_with("mover", R"({"speed_mps": 0})"), MapErrorCode::out_of_range,
       "objects[0].components[0].settings.speed_mps"},
      {"a setting past the float range", component_with("mover", R"({"distance_m": 1e39})"), MapErrorCode::not_finite,
       "objects[0].components[0].settings.distance_m"},
      {"5 numbers in a setting", component_with("plate", R"({"half_extents": [1, 1, 1, 1, 1]})"),
       MapErrorCode::count_over_max, "objects[0].components[0].settings.half_extents"},
      {"9 settings", component_with("timer", numbered_object("s", 9, "1")),
       MapErrorCode::count_over_max, "objects[0].components[0].settings"},
      {"a counter's min over its max", component_with("counter", R"({"min": 2, "max": 1})"), MapErrorCode::out_of_range,
       "objects[0].components[0].settings.min"},
      {"outputs not an object", button_with("{}", "[]"), MapErrorCode::wrong_type, "objects[0].outputs"},
      {"an output not a list", button_with("{}", R"({"onPressed": {}})"), MapErrorCode::wrong_type,
       "objects[0].outputs.onPressed"},
      {"a call without an input", pressed(R"({"target": "d"})"), MapErrorCode::missing_field,
       "objects[0].outputs.onPressed[0].input"},
      {"a delay with a target", pressed(R"({"delay": 1, "target": "d"})"), MapErrorCode::unknown_field,
       "objects[0].outputs.onPressed[0].target"},
      {"an unknown action field", pressed(R"({"target": "d", "input": "open", "after": 1})"), MapErrorCode::unknown_field,
       "objects[0].outputs.onPressed[0].after"},
      {"a negative delay", pressed(call + R"(, {"delay": -0.5})"), MapErrorCode::out_of_range,
       "objects[0].outputs.onPressed[1].delay"},
      {"a delay past a day", pressed(R"({"delay": 90000})"), MapErrorCode::out_of_range,
       "objects[0].outputs.onPressed[0].delay"},
      {"a target with a space", pressed(R"({"target": "a door", "input": "open"})"), MapErrorCode::invalid_string,
       "objects[0].outputs.onPressed[0].target"},
      {"a parameter past the float range", pressed(R"({"target": "d", "input": "add", "param": 1e39})"),
       MapErrorCode::not_finite, "objects[0].outputs.onPressed[0].param"},
      {"a parameter past a million", pressed(R"({"target": "d", "input": "add", "param": 2000000})"),
       MapErrorCode::out_of_range, "objects[0].outputs.onPressed[0].param"},
      {"an over-long output name", button_with("{}", numbered_object(std::string(kMaxMapStringBytes, 'o').c_str(), 1, "[]")),
       MapErrorCode::string_over_cap, "objects[0].outputs"},
      {"a setting name with a space", component_with("mover", R"({"speed mps": 1})"), MapErrorCode::invalid_string,
       "objects[0].components[0].settings"},
      {"33 actions", pressed(repeated(call, kMaxOutputActions + 1)), MapErrorCode::count_over_max,
       "objects[0].outputs.onPressed"},
      {"17 outputs", button_with("{}", numbered_object("on", kMaxObjectOutputs + 1, "[]")),
       MapErrorCode::count_over_max, "objects[0].outputs"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const auto result = load_map(v2_map(c.object));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(map_error_name(result.error().code), map_error_name(c.code)) << result.error().text();
    EXPECT_EQ(result.error().path, c.path) << result.error().text();
  }
}

}  // namespace
}  // namespace tickwire::world
