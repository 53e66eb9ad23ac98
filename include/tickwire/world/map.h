// A loaded map: the static collision boxes, the spawn points, the voxel grids and the networked map
// objects, each object's index being its place in the file, or in a version 3 file its place once
// the records are resolved (stable, identical on every end that loaded the same map). Built only
// through Map::build, which checks every rule in docs/map-format.md, so a Map in hand is always
// valid; its content hash lets two peers confirm they hold the same map.
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
#include "tickwire/world/map_object.h"
#include "tickwire/world/map_record.h"
#include "tickwire/world/vec3.h"
#include "tickwire/world/voxel_grid.h"

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

// Everything a map says, before validation. boxes[i] and box_surfaces[i] describe one box.
// Version 3 authors its objects as records: `sources` and `placements` are the file's layers as
// written (what is saved and hashed), and Map::build resolves them into `objects`, replacing
// whatever it held. Versions 1 and 2 author `objects` directly and carry no records. Content
// built by hand is flat (version 2) unless it says otherwise.
struct MapContent {
  uint32_t version = kMapFormatFlatVersion;  // the version it was read in (and is written in)
  std::string name;
  std::vector<Aabb> boxes;
  std::vector<BoxSurface> box_surfaces;
  std::vector<SpawnPoint> spawn_points;
  std::vector<MapObject> objects;         // flat: every object downstream reads, in index order
  std::vector<SourceDefinition> sources;  // version 3: named definitions, sorted by name
  std::vector<ObjectRecord> placements;   // version 3: the file's `objects` as authored
  std::vector<VoxelGridDef> voxel_grids;  // versions 2 and 3: the grids `voxel_volume` objects place
};

bool operator==(const MapContent& a, const MapContent& b);

using MapHash = std::array<uint8_t, kMapHashBytes>;

class Map {
 public:
  // Checks every rule (caps, finite numbers, ranges, min <= max, unique keys, a spawn point...)
  // and refuses the first violation with its path; paths index the content's lists as the file does.
  // Settings and outputs are put in name order first (the order a file's JSON objects read in).
  // A version 3 content's records are resolved here, once (docs/map-format.md, "Records").
  static MapResult<Map> build(MapContent content);

  std::string_view name() const { return content_.name; }
  uint32_t format_version() const { return content_.version; }
  std::span<const Aabb> boxes() const { return content_.boxes; }
  std::span<const BoxSurface> box_surfaces() const { return content_.box_surfaces; }
  std::span<const SpawnPoint> spawn_points() const { return content_.spawn_points; }
  std::span<const MapObject> objects() const { return content_.objects; }
  // The object index of `key` (its place in objects()), or nullopt. O(log n).
  std::optional<uint32_t> object_index(std::string_view key) const;
  // The voxel grids resolved (their authored cells), in the file's order: a `voxel_volume`
  // object's `grid` setting indexes this.
  std::span<const VoxelGrid> voxel_grids() const { return voxel_grids_; }
  // BLAKE2b-128 of the canonical text (save_map): equal content, equal hash, whatever the layout
  // of the file it came from.
  const MapHash& content_hash() const { return hash_; }
  std::string content_hash_hex() const;
  const MapContent& content() const { return content_; }

 private:
  Map() = default;
  MapContent content_;
  std::vector<uint32_t> index_by_key_;  // object indices sorted by key
  std::vector<VoxelGrid> voxel_grids_;  // content_.voxel_grids resolved, one for one
  MapHash hash_{};
};

}  // namespace tickwire::world
