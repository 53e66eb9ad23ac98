// Joining a sampled record with its catalog entry, refusing a record that is not that object.
#include "tickwire/world/drawn_map_object.h"

#include "tickwire/world/section_kinds.h"

namespace tickwire::world {

std::optional<DrawnMapObject> resolve(const ObjectCatalog& catalog, const ObjectSample& sample, ResolveCounters& counters) {
  const CatalogEntry* entry = catalog.entry(sample.object_index);
  if (entry == nullptr) {
    ++counters.unknown_object;
    return std::nullopt;
  }
  const uint8_t kind = section_kind(sample);
  if (!catalog.registered(kind) || entry->kind == 0) {
    ++counters.unregistered_kind;
    return std::nullopt;
  }
  if (kind != entry->kind) {
    ++counters.kind_mismatch;
    return std::nullopt;
  }
  DrawnMapObject drawn;
  drawn.object_index = sample.object_index;
  drawn.key = entry->key;
  drawn.kind = kind;
  drawn.pose = entry->pose;
  if (sample.pose) {
    drawn.pose.position = sample.pose->position;
    if (sample.pose->rotation) drawn.pose.rotation = sample.pose->rotation;
    if (sample.pose->scale) drawn.pose.scale = sample.pose->scale;
  }
  drawn.state = sample;
  ++counters.drawn;
  return drawn;
}

}  // namespace tickwire::world
