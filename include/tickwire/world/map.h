// A loaded map: the static collision boxes, the spawn points and the networked map objects, each
// object's index being its place in the file (stable, identical on every end that loaded the same
// map). Built only through Map::build, which checks every rule in docs/map-format.md, so a Map in
// hand is always valid; its content hash lets two peers confirm they hold the same map.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tickwire/world/map_error.h"
#include "tickwire/world/map_limits.h"
#include "tickwire/world/vec3.h"

namespace tickwire::world {

// What a static box is (tag: floor, wall, crate...) and what it is made of (material).
struct BoxSurface {
  std::string tag;
  std::string material;
  friend bool operator==(const BoxSurface&, const BoxSurface&) = default;
};

struct SpawnPoint {
  Vec3 position;
  float yaw_deg = 0;  // [0, 360): rotation about +y; 0 faces +z, 90 faces +x
  friend bool operator==(const SpawnPoint&, const SpawnPoint&) = default;
};

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

// Everything a map says, before validation. boxes[i] and box_surfaces[i] describe one box.
struct MapContent {
  uint32_t version = kMapFormatVersion;  // the version it was read in (and is written in)
  std::string name;
  std::vector<Aabb> boxes;
  std::vector<BoxSurface> box_surfaces;
  std::vector<SpawnPoint> spawn_points;
  std::vector<MapObject> objects;
};

bool operator==(const MapContent& a, const MapContent& b);

using MapHash = std::array<uint8_t, kMapHashBytes>;

class Map {
 public:
  // Checks every rule (caps, finite numbers, ranges, min <= max, unique keys, a spawn point...)
  // and refuses the first violation with its path; paths index the content's lists as the file does.
  // Settings and outputs are put in name order first (the order a file's JSON objects read in).
  static MapResult<Map> build(MapContent content);

  std::string_view name() const { return content_.name; }
  uint32_t format_version() const { return content_.version; }
  std::span<const Aabb> boxes() const { return content_.boxes; }
  std::span<const BoxSurface> box_surfaces() const { return content_.box_surfaces; }
  std::span<const SpawnPoint> spawn_points() const { return content_.spawn_points; }
  std::span<const MapObject> objects() const { return content_.objects; }
  // The object index of `key` (its place in objects()), or nullopt. O(log n).
  std::optional<uint32_t> object_index(std::string_view key) const;
  // BLAKE2b-128 of the canonical text (save_map): equal content, equal hash, whatever the layout
  // of the file it came from.
  const MapHash& content_hash() const { return hash_; }
  std::string content_hash_hex() const;
  const MapContent& content() const { return content_; }

 private:
  Map() = default;
  MapContent content_;
  std::vector<uint32_t> index_by_key_;  // object indices sorted by key
  MapHash hash_{};
};

}  // namespace tickwire::world
