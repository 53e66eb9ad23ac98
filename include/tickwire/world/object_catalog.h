// ObjectCatalog: what the client knows of each map object before any record arrives, built from
// the same map the server loaded. A record names an object only by its index and states only what
// differs from the map, so the catalog supplies the rest: the authored identity (its key, what a
// saved edit or a console line persists), the kind the map says it is, where the map puts it,
// which components it carries, and the body its logic makes (LogicBodies), so the box a client draws
// and the box it collides with are one answer. Indexed as the MapObjectTable indexes (one number, every end).
#pragma once

#include <bitset>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tickwire/client/object_sample.h"
#include "tickwire/protocol/vocabulary.h"
#include "tickwire/world/logic_bodies.h"
#include "tickwire/world/map.h"
#include "tickwire/world/map_object_table.h"
#include "tickwire/world/mover_pose.h"

namespace tickwire::world {

// What slides an object (ObjectHierarchy, MoverPose): its own mover for a door or lift, its nearest
// mover ancestor's for a carried child. Drawn at the driver's sampled open fraction.
struct CatalogSlide {
  uint32_t driver_index = 0;       // the object whose mover's fraction moves it (maybe itself)
  MoverSlide slide;                // the driver's
  float authored_fraction = 0;     // the driver's open fraction as the map authors it
};

struct CatalogEntry {
  std::string key;  // the authored identity
  uint8_t kind = 0;  // the NetKind the map's kind names (0: none the game registers)
  ObjectPose pose;   // as authored (at the driver's fraction 0 when it slides)
  std::optional<CatalogSlide> slide;  // none: it moves only when a record says where (a prop)
  LogicBody body;                     // what its logic makes: kind and box (logic_body_of)
  uint8_t component_count = 0;  // <= kMaxObjectComponents
  std::array<uint8_t, kMaxObjectComponents> component_wire_ids{};

  std::span<const uint8_t> components() const { return {component_wire_ids.data(), component_count}; }
};

// The NetKind an authored map kind stands for: light -> Light; door, mover and lift -> Door (each
// is a mover); button -> Button; plate -> PressurePlate; crate_prop, physics_prop -> Prop; any other
// (a trigger volume, a folder) -> 0.
uint8_t authored_kind(std::string_view map_kind);

class ObjectCatalog {
 public:
  ObjectCatalog() = default;
  // Every object of `map`, in table order; a kind `vocabulary` does not register becomes 0.
  static ObjectCatalog build(const Map& map, const GameVocabulary& vocabulary);

  std::size_t size() const { return entries_.size(); }
  // The entry of an object index, or null past the map's objects.
  const CatalogEntry* entry(uint32_t object_index) const;
  // The object index of an authored key, or nullopt.
  std::optional<uint32_t> index_of(std::string_view key) const { return table_.index_of(key); }
  // Whether the game's vocabulary registers `kind` (0 never is).
  bool registered(uint8_t kind) const { return kind != 0 && registered_kinds_.test(kind); }
  // Which map it was built from: a client whose map changed rebuilds.
  const MapHash& map_hash() const { return map_hash_; }

 private:
  std::vector<CatalogEntry> entries_;  // by object index; as many as the map's objects (kMaxMapObjects)
  MapObjectTable table_;
  std::bitset<256> registered_kinds_;
  MapHash map_hash_{};
};

}  // namespace tickwire::world
