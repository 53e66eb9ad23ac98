// The crate yard's text, written out row by row.
#include "tickwire/world/crate_yard_map.h"

#include <fmt/format.h>

namespace tickwire::world {

std::string crate_yard_map_text() {
  std::string boxes = R"({"tag": "floor", "material": "concrete", "min": [-30, -1, -30], "max": [30, 0, 30]})";
  for (const char* wall : {"[-31, 0, -31], \"max\": [-30, 3, 31]", "[30, 0, -31], \"max\": [31, 3, 31]",
                           "[-30, 0, -31], \"max\": [30, 3, -30]", "[-30, 0, 30], \"max\": [30, 3, 31]"}) {
    boxes += fmt::format(R"(, {{"tag": "wall", "material": "concrete", "min": {}}})", wall);
  }
  std::string spawns;
  for (uint32_t i = 0; i < kCrateYardSpawns; ++i) {
    // Between two columns, half a row off a row of crates, each facing its own way.
    const float x = -20.0f + kCrateYardSpacingM * static_cast<float>(i);
    const float z = (i % 2 == 0 ? -1.25f : 1.25f) + kCrateYardSpacingM * (static_cast<float>(i % 4) - 2.0f);
    spawns += fmt::format(R"({}{{"position": [{}, 0, {}], "yaw_deg": {}}})", i == 0 ? "" : ", ", x, z, (45 * i) % 360);
  }
  std::string objects;
  for (uint32_t r = 0; r < kCrateYardRows; ++r) {
    for (uint32_t c = 0; c < kCrateYardColumns; ++c) {
      const float x = -23.75f + kCrateYardSpacingM * static_cast<float>(c);
      const float z = -11.25f + kCrateYardSpacingM * static_cast<float>(r);
      objects += fmt::format(R"({}{{"key": "crate.{}.{}", "kind": "crate_prop", "position": [{}, 0.4, {}], )"
                             R"("components": [{{"name": "physics_prop", "channels": [10], "bits": 1, )"
                             R"("settings": {{"mass": 10, "size": [0.8, 0.8, 0.8]}}}}]}})",
                             objects.empty() ? "" : ", ", r, c, x, z);
    }
  }
  return fmt::format(R"({{"format": "tickwire-map", "version": 2, "name": "crate-yard", "boxes": [{}], "spawns": [{}], )"
                     R"("objects": [{}]}})",
                     boxes, spawns, objects);
}

}  // namespace tickwire::world
