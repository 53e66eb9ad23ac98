// MapObjectTable: the authored order read once off a map, indexed by key; and its shape-keyed cache.
#include "tickwire/world/map_object_table.h"

#include <algorithm>
#include <numeric>

#include "tickwire/core/assert.h"

namespace tickwire::world {

MapObjectTable MapObjectTable::build(const Map& map) {
  MapObjectTable table;
  const auto objects = map.objects();
  table.keys_.reserve(objects.size());
  for (const MapObject& object : objects) table.keys_.push_back(object.key);
  table.index_by_key_.resize(objects.size());
  std::iota(table.index_by_key_.begin(), table.index_by_key_.end(), 0u);
  std::sort(table.index_by_key_.begin(), table.index_by_key_.end(),
            [&](uint32_t a, uint32_t b) { return table.keys_[a] < table.keys_[b]; });
  return table;
}

std::optional<uint32_t> MapObjectTable::index_of(std::string_view key) const {
  auto it = std::lower_bound(index_by_key_.begin(), index_by_key_.end(), key,
                             [&](uint32_t index, std::string_view k) { return keys_[index] < k; });
  if (it == index_by_key_.end() || keys_[*it] != key) return std::nullopt;
  return *it;
}

std::string_view MapObjectTable::key_of(uint32_t object_index) const {
  TW_ASSERT(object_index < keys_.size(), "object index past the map's object table");
  return keys_[object_index];
}

MapShapeKey map_shape_key(const Map& map) {
  return MapShapeKey{&map, map.objects().data(), map.objects().size(), map.boxes().data(), map.boxes().size(),
                     map.content_hash()};
}

const MapObjectTable& MapObjectTableCache::of(const Map& map) {
  const MapShapeKey key = map_shape_key(map);
  if (!key_ || *key_ != key) {
    table_ = MapObjectTable::build(map);
    key_ = key;
    ++builds_;
  }
  return table_;
}

}  // namespace tickwire::world
