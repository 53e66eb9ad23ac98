// The client's catalog of a map's objects: identity, kind, authored pose, components, slide.
#include "tickwire/world/object_catalog.h"

#include <array>

#include "tickwire/world/logic_components.h"
#include "tickwire/world/object_hierarchy.h"
#include "tickwire/world/reference_vocabulary.h"

namespace tickwire::world {

uint8_t authored_kind(std::string_view map_kind) {
  struct Named {
    std::string_view map_kind;
    uint8_t kind;
  };
  static constexpr std::array<Named, 8> kNames{{
      {"light", kKindLight},
      {"door", kKindDoor},
      {"mover", kKindDoor},
      {"lift", kKindDoor},
      {"button", kKindButton},
      {"plate", kKindPressurePlate},
      {"crate_prop", kKindProp},
      {"physics_prop", kKindProp},
  }};
  for (const Named& named : kNames) {
    if (named.map_kind == map_kind) return named.kind;
  }
  return 0;
}

ObjectCatalog ObjectCatalog::build(const Map& map, const GameVocabulary& vocabulary) {
  ObjectCatalog catalog;
  for (const KindDef& kind : vocabulary.kinds) catalog.registered_kinds_.set(kind.id);
  catalog.table_ = MapObjectTable::build(map);
  catalog.map_hash_ = map.content_hash();
  const std::span<const MapObject> objects = map.objects();
  const ObjectHierarchy hierarchy = ObjectHierarchy::build(map);
  catalog.entries_.reserve(catalog.table_.size());
  for (uint32_t index = 0; index < catalog.table_.size(); ++index) {
    const MapObject& object = objects[index];  // the table is the objects in file order
    CatalogEntry& entry = catalog.entries_.emplace_back();
    entry.key = object.key;
    entry.body = logic_body_of(object);
    const uint8_t kind = authored_kind(object.kind);
    entry.kind = catalog.registered(kind) ? kind : 0;
    entry.pose.position = object.position.to_wire();
    if (object.rotation) entry.pose.rotation = wire::Quat{object.rotation->x, object.rotation->y, object.rotation->z, object.rotation->w};
    if (object.scale) entry.pose.scale = object.scale->to_wire();
    for (const ObjectComponent& component : object.components) {
      if (entry.component_count == entry.component_wire_ids.size()) break;  // the map's own cap
      if (!replicated_component(component.name)) continue;  // map data (a collider): never in a record
      entry.component_wire_ids[entry.component_count++] = static_cast<uint8_t>(component_wire_id(component.name));
    }
    if (const std::optional<uint32_t> driver = hierarchy.driver(index)) {
      const MapObject& mover = objects[*driver];
      const ObjectComponent* state = mover.component("mover");
      entry.slide = CatalogSlide{*driver, *mover_slide(mover), state != nullptr && state->channel_count > 0 ? state->channels[0] : 0.0f};
    }
  }
  return catalog;
}

const CatalogEntry* ObjectCatalog::entry(uint32_t object_index) const {
  return object_index < entries_.size() ? &entries_[object_index] : nullptr;
}

}  // namespace tickwire::world
