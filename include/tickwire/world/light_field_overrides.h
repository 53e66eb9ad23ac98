// LightFieldOverrides (seed 000, "Scene edits"): a retuned light is an edit like any other, with no
// light layer of its own on the wire. Each client turns the edit set's light fields into the patch
// its renderer lays over the authored light (whose colour and lumens the records carry and the logic
// flickers): only the fields an edit set are stated, a light an edit removed draws nothing and one
// an edit added draws from its fields' defaults. Both hosts read it through the same overlay
// (scene_overlay.h), so every client draws the same lamp.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "tickwire/protocol/scene_node_state.h"
#include "tickwire/world/map.h"

namespace tickwire::world {

struct LightOverride {
  uint32_t object_index = 0;
  bool removed = false;  // taken off by an edit: draw no light
  bool added = false;    // added by an edit: draw one (its unstated fields at their defaults)
  std::optional<std::array<float, 3>> color;
  std::optional<float> intensity;
  std::optional<float> range_m;
  std::optional<std::string_view> shadows;  // a name of kLightShadows
  std::optional<uint32_t> layers;           // bit i: kLightLayers[i]
};

// One patch per object whose light the edit set touches, ascending object index.
std::vector<LightOverride> light_overrides(const Map& map, const protocol::SceneNodeState& state);

}  // namespace tickwire::world
