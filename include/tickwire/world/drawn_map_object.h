// A map object's replica given its shape: the sampled record (ObjectReplicas) joined with the
// catalog's entry for that index. The seed's rules for a record the client cannot trust to be the
// object the map authored: a record whose kind (section_kind) disagrees with the object's draws
// nothing, and a kind the game does not register is ignored; each is counted, never drawn wrong.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "tickwire/client/object_sample.h"
#include "tickwire/world/object_catalog.h"

namespace tickwire::world {

struct DrawnMapObject {
  uint32_t object_index = 0;
  std::string_view key;  // the catalog's (valid while the catalog lives)
  uint8_t kind = 0;
  // The record's pose when it carries one (a rotation or scale it leaves out: as authored), else
  // where the map puts it, slid by its driver's sampled open fraction (MoverPose: the slide the
  // server's body and the prediction mirror take) when a mover moves it.
  ObjectPose pose;
  ObjectSample state;  // flags and sections as sampled
};

struct ResolveCounters {
  uint64_t drawn = 0;
  uint64_t kind_mismatch = 0;      // the record's kind is not the object's: drawn as nothing
  uint64_t unregistered_kind = 0;  // no kind, or one the game registers no visual for: ignored
  uint64_t unknown_object = 0;     // an index past the catalog (another map's record): ignored
};

// `driver` is the sample of the object whose mover slides this one (CatalogEntry::slide) at the same
// render time, when that is another object (a carried child's lift); null: its authored fraction.
// A door or lift slides by its own sample.
std::optional<DrawnMapObject> resolve(const ObjectCatalog& catalog, const ObjectSample& sample, ResolveCounters& counters,
                                      const ObjectSample* driver = nullptr);

}  // namespace tickwire::world
