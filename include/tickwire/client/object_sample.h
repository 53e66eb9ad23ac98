// ObjectSample: one map object's drawable state in one snapshot (seed 000, "Object records"): its
// flags, where it stands when a record moved it (the transform section), and each replicated
// component's section. Blending follows the kind payload's rule: channels lerp on the interpolation
// timeline (a door's open fraction eases), bits and flags snap to the newer sample (a light is on
// or off, never half-lit), a transform lerps when both samples have one.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "tickwire/protocol/constants.h"
#include "tickwire/protocol/record_batch.h"
#include "tickwire/wire/types.h"

namespace tickwire {

struct SectionSample {
  uint8_t wire_id = 0;        // the component's wire id (the game's ComponentDef)
  uint8_t channel_count = 0;  // channels past it read as zero
  std::array<float, protocol::MaxKindChannels> channels{};
  uint8_t bits = 0;
  friend bool operator==(const SectionSample&, const SectionSample&) = default;
};

struct ObjectPose {
  protocol::Vec3 position;
  std::optional<wire::Quat> rotation;
  std::optional<protocol::Vec3> scale;
  friend bool operator==(const ObjectPose&, const ObjectPose&) = default;
};

struct ObjectSample {
  uint32_t object_index = 0;
  uint8_t flags = 0;
  std::optional<ObjectPose> pose;  // absent: where the map (the game's catalog) puts it
  uint8_t section_count = 0;       // <= protocol::MaxComponentSections
  std::array<SectionSample, protocol::MaxComponentSections> sections{};

  // The section of a component wire id, or null.
  const SectionSample* section(uint8_t wire_id) const;
  friend bool operator==(const ObjectSample&, const ObjectSample&) = default;
};

// An object record as a sample (every section field present: the client's records are whole).
ObjectSample object_sample(const protocol::ObjectRecord& record);
// object_sample(record) == sample, without building the sample (most objects of most snapshots
// are what they were: this is the client's commonest question about them).
bool sample_of_record(const ObjectSample& sample, const protocol::ObjectRecord& record);

// older -> newer at alpha in [0, 1]: a section's channels lerp against the older sample's section of
// the same wire id (absent there: from zero); the section list, counts, bits and flags are the
// newer's; a pose lerps (rotation the short way, normalised) when both have one, else the newer's.
ObjectSample blend_objects(const ObjectSample& older, const ObjectSample& newer, double alpha);

}  // namespace tickwire
