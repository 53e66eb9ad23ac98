// Map::build: validate, index the objects by key, resolve the voxel grids, hash the canonical text.
// The index, the grids' cells and the hash are computed once per loaded map; everything after is lookups.
#include "tickwire/world/map.h"

#include <sodium.h>

#include <algorithm>
#include <numeric>

#include "map_record_resolver.h"
#include "map_validate.h"
#include "tickwire/core/hex.h"
#include "tickwire/world/map_writer.h"

namespace tickwire::world {
namespace {

static_assert(kMapHashBytes >= crypto_generichash_BYTES_MIN && kMapHashBytes <= crypto_generichash_BYTES_MAX);

MapHash blake2b_128(std::string_view text) {
  [[maybe_unused]] static const int sodium_ready = sodium_init();
  MapHash digest{};
  const int rc = crypto_generichash(digest.data(), digest.size(), reinterpret_cast<const unsigned char*>(text.data()),
                                    text.size(), nullptr, 0);
  TW_ASSERT(rc == 0, "crypto_generichash failed");
  return digest;
}

bool same_box(const Aabb& a, const Aabb& b) { return a.min == b.min && a.max == b.max; }

// Settings and outputs in name order, as a file's JSON objects read (validation then finds a name
// given twice as neighbours); a stable sort keeps a duplicate's authored order for its error.
// A record's layers are sorted the same way, at every level of carried children, and the sources
// by name (the order the file's `sources` object reads in, which the resolver searches).
constexpr auto kByName = [](const auto& a, const auto& b) { return a.name < b.name; };

void sort_by_name(ObjectRecord& record) {
  std::stable_sort(record.outputs.begin(), record.outputs.end(), kByName);
  for (ComponentOverride& c : record.components)
    std::stable_sort(c.settings.begin(), c.settings.end(),
                     [](const SettingOverride& a, const SettingOverride& b) { return a.setting.name < b.setting.name; });
  for (ObjectRecord& child : record.objects) sort_by_name(child);
}

void sort_by_name(MapContent& content) {
  for (MapObject& o : content.objects) {
    std::stable_sort(o.outputs.begin(), o.outputs.end(), kByName);
    for (ObjectComponent& c : o.components) std::stable_sort(c.settings.begin(), c.settings.end(), kByName);
  }
  std::stable_sort(content.sources.begin(), content.sources.end(), kByName);
  for (SourceDefinition& source : content.sources) sort_by_name(source.record);
  for (ObjectRecord& placement : content.placements) sort_by_name(placement);
}

// Version 3: the records resolve into the flat objects, which then meet every flat rule, each
// refused at the path of the record that made the object.
std::optional<MapError> resolve_records(MapContent& content) {
  if (content.version < 3) return std::nullopt;
  auto resolved = detail::resolve_map_records(content);
  if (!resolved) return resolved.error();
  if (auto e = detail::check_objects(resolved->objects, content.version, content.voxel_grids.size(), &resolved->origins))
    return e;
  content.objects = std::move(resolved->objects);
  return std::nullopt;
}

}  // namespace

const ComponentSetting* ObjectComponent::setting(std::string_view wanted) const {
  for (const ComponentSetting& s : settings)
    if (s.name == wanted) return &s;
  return nullptr;
}

const ObjectComponent* MapObject::component(std::string_view wanted) const {
  for (const ObjectComponent& c : components)
    if (c.name == wanted) return &c;
  return nullptr;
}

bool operator==(const MapContent& a, const MapContent& b) {
  return a.version == b.version && a.name == b.name && std::equal(a.boxes.begin(), a.boxes.end(), b.boxes.begin(), b.boxes.end(), same_box) &&
         a.box_surfaces == b.box_surfaces && a.spawn_points == b.spawn_points && a.objects == b.objects &&
         a.sources == b.sources && a.placements == b.placements && a.voxel_grids == b.voxel_grids;
}

MapResult<Map> Map::build(MapContent content) {
  sort_by_name(content);
  if (auto error = detail::validate_map_content(content)) return std::move(*error);
  if (auto error = resolve_records(content)) return std::move(*error);
  Map map;
  map.content_ = std::move(content);
  const auto& objects = map.content_.objects;
  map.index_by_key_.resize(objects.size());
  std::iota(map.index_by_key_.begin(), map.index_by_key_.end(), 0u);
  std::sort(map.index_by_key_.begin(), map.index_by_key_.end(),
            [&](uint32_t a, uint32_t b) { return objects[a].key < objects[b].key; });
  map.voxel_grids_.reserve(map.content_.voxel_grids.size());
  for (const VoxelGridDef& grid : map.content_.voxel_grids) map.voxel_grids_.emplace_back(grid);
  map.hash_ = blake2b_128(canonical_map_text(map.content_));
  return map;
}

std::optional<uint32_t> Map::object_index(std::string_view key) const {
  const auto& objects = content_.objects;
  auto it = std::lower_bound(index_by_key_.begin(), index_by_key_.end(), key,
                             [&](uint32_t index, std::string_view k) { return objects[index].key < k; });
  if (it == index_by_key_.end() || objects[*it].key != key) return std::nullopt;
  return *it;
}

std::string Map::content_hash_hex() const { return to_hex(hash_); }

}  // namespace tickwire::world
