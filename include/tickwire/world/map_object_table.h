// MapObjectTable (seed 000, "Object records"): one object index per map object, the same number on
// every end that loaded the same map, so a snapshot record, a console line and a rest-table entry
// name one object everywhere. Built once per loaded map and cached while the map keeps its shape.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tickwire/world/map.h"

namespace tickwire::world {

// The order: the map's entities (objects()) in authored order, then its geometry ordered by id.
// Our format's geometry (boxes) is static collision with no id and is never replicated, so it
// takes no index; the table is the objects in file order. Indices are transient handles: what is
// persisted is the object's authored key.
class MapObjectTable {
 public:
  MapObjectTable() = default;
  static MapObjectTable build(const Map& map);

  std::size_t size() const { return keys_.size(); }
  std::size_t entity_count() const { return keys_.size(); }
  // The object index of an authored key, or nullopt. O(log n).
  std::optional<uint32_t> index_of(std::string_view key) const;
  // The authored key at an index (asserts index < size()).
  std::string_view key_of(uint32_t object_index) const;

  friend bool operator==(const MapObjectTable& a, const MapObjectTable& b) { return a.keys_ == b.keys_; }

 private:
  std::vector<std::string> keys_;        // by object index
  std::vector<uint32_t> index_by_key_;   // object indices sorted by key
};

// What "the map keeps its shape" means, cheaply: which map, its object and box lists (where they
// live and how long they are) and its content hash. Any reload or reassignment changes it.
struct MapShapeKey {
  const Map* map = nullptr;
  const void* objects_data = nullptr;
  std::size_t object_count = 0;
  const void* boxes_data = nullptr;
  std::size_t box_count = 0;
  MapHash content_hash{};
  friend bool operator==(const MapShapeKey&, const MapShapeKey&) = default;
};
MapShapeKey map_shape_key(const Map& map);

// The table of the map in hand: rebuilt only when the map's shape key changes, so a reader that
// asks once per object pays a comparison, never a walk of the map.
class MapObjectTableCache {
 public:
  // The reference stays valid until the next call with a map of another shape.
  const MapObjectTable& of(const Map& map);
  uint64_t builds() const { return builds_; }

 private:
  std::optional<MapShapeKey> key_;
  MapObjectTable table_;
  uint64_t builds_ = 0;
};

}  // namespace tickwire::world
