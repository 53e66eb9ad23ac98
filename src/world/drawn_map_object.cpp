// Joining a sampled record with its catalog entry, refusing a record that is not that object.
#include "tickwire/world/drawn_map_object.h"

#include <algorithm>

#include "tickwire/world/reference_vocabulary.h"
#include "tickwire/world/section_kinds.h"

namespace tickwire::world {

namespace {

// The open fraction a driver's sample draws at: its mover section's channel 0, or as authored.
float drawn_fraction(const CatalogSlide& slide, const ObjectSample* driver) {
  if (driver == nullptr) return slide.authored_fraction;
  const SectionSample* mover = driver->section(static_cast<uint8_t>(ComponentWireId::mover));
  return mover != nullptr && mover->channel_count > 0 ? mover->channels[0] : slide.authored_fraction;
}

}  // namespace

std::optional<DrawnMapObject> resolve(const ObjectCatalog& catalog, const ObjectSample& sample, ResolveCounters& counters,
                                      const ObjectSample* driver) {
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
  } else if (entry->slide) {
    const CatalogSlide& slide = *entry->slide;
    const ObjectSample* by = slide.driver_index == sample.object_index ? &sample : driver;
    const Vec3 offset = mover_offset(slide.slide, std::clamp(drawn_fraction(slide, by), 0.0f, 1.0f));
    drawn.pose.position = (Vec3::from_wire(drawn.pose.position) + offset).to_wire();
  }
  drawn.state = sample;
  ++counters.drawn;
  return drawn;
}

}  // namespace tickwire::world
