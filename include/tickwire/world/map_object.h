// The parts of one flat map object (a key, a kind, a transform, its replicated components with their
// settings, its outputs): what every object of a loaded map is, and what a version 3 record
// resolves into. Split from map.h so the authored records (map_record.h) can name the same parts.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tickwire/world/map_limits.h"
#include "tickwire/world/vec3.h"

namespace tickwire::world {

// A rotation as a unit quaternion (x, y, z, w).
struct Quat {
  float x = 0, y = 0, z = 0, w = 1;
  friend bool operator==(const Quat&, const Quat&) = default;
};

// One named setting of a component (version 2): what a behaviour needs that never replicates (a
// door's slide axis, distance and speed; a timer's interval). Values past count are always zero.
struct ComponentSetting {
  std::string name;
  std::array<float, kMaxSettingValues> values{};
  uint8_t count = 0;

  std::span<const float> active_values() const { return {values.data(), count}; }
  friend bool operator==(const ComponentSetting&, const ComponentSetting&) = default;
};

// One replicated component of a map object: the state a KindPayload section carries at rest.
// Channels past channel_count are always zero.
struct ObjectComponent {
  std::string name;  // e.g. "light"; the game maps it to a component wire id
  std::array<float, kMaxComponentChannels> channels{};
  uint8_t channel_count = 0;
  uint8_t bits = 0;  // eight flags; a light's bit 0 is "enabled"
  std::vector<ComponentSetting> settings;  // version 2; sorted by name, names unique

  std::span<const float> active_channels() const { return {channels.data(), channel_count}; }
  const ComponentSetting* setting(std::string_view name) const;
  friend bool operator==(const ObjectComponent&, const ObjectComponent&) = default;
};

// One action of an output's list (version 2): a call delivers `input` (with an optional number) to
// every object whose key is `target`; a delay blocks the rest of the list for some game seconds.
struct MapCall {
  std::string target;
  std::string input;
  std::optional<float> parameter;
  friend bool operator==(const MapCall&, const MapCall&) = default;
};
struct MapDelay {
  float seconds = 0;
  friend bool operator==(const MapDelay&, const MapDelay&) = default;
};
using MapAction = std::variant<MapCall, MapDelay>;

// A named output of an object and the ordered actions it runs when it fires.
struct MapOutput {
  std::string name;  // e.g. "onPressed"
  std::vector<MapAction> actions;
  friend bool operator==(const MapOutput&, const MapOutput&) = default;
};

struct MapObject {
  std::string key;   // stable authored identity, unique in the map
  std::string kind;  // e.g. "light", "door", "button", "crate_prop"
  Vec3 position;
  std::optional<Quat> rotation;
  std::optional<Vec3> scale;
  std::vector<ObjectComponent> components;  // at most kMaxObjectComponents, names unique
  std::vector<MapOutput> outputs;           // version 2; at most kMaxObjectOutputs, sorted by name, unique

  const ObjectComponent* component(std::string_view name) const;
  friend bool operator==(const MapObject&, const MapObject&) = default;
};

}  // namespace tickwire::world
