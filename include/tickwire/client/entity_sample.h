// EntitySample: one remote entity's drawable state in one snapshot, and the blend rules between two
// of them. Motion and channels are continuous (they lerp; angles the short way round), discrete
// bits are not (they snap to the newer sample: a light is on or off, never half-lit).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "tickwire/protocol/constants.h"
#include "tickwire/protocol/vec3.h"
#include "tickwire/replication/handles/entity_handle.h"

namespace tickwire {

inline constexpr std::size_t kSampleChannels = protocol::MaxKindChannels;  // KindPayload float channels

struct EntitySample {
  EntityNetHandle entity;
  protocol::Vec3 position_m;
  float yaw_deg = 0.0f;
  float pitch_deg = 0.0f;
  uint8_t kind = 0;           // the game's kind id (discrete: the newer sample's)
  uint8_t flags = 0;          // the record's entity flag bits (discrete)
  uint8_t channel_count = 0;  // <= kSampleChannels; channels past it read as zero
  std::array<float, kSampleChannels> channels{};
  uint8_t bits = 0;  // discrete flags: never blended
  // Carried, not taken: the snapshot holds the entity as last sent because its lane did not run
  // that tick (a world-lane entity between world ticks). It proves presence; motion is drawn
  // between taken samples only.
  bool carried = false;

  friend bool operator==(const EntitySample&, const EntitySample&) = default;
};

// Finite numbers and a channel count that fits (what a hostile or broken sender could get wrong).
bool sample_is_well_formed(const EntitySample& sample);

// An angle in degrees wrapped into [-180, 180).
float wrap_angle_deg(double angle_deg);
// `from` -> `to` the short way round at `alpha` (alpha > 1 continues past `to`), wrapped.
float lerp_angle_deg(float from_deg, float to_deg, double alpha);

// older -> newer at alpha in [0, 1]: position, angles and channels lerp (a channel the older sample
// lacks reads as zero and blends up); kind, flags, bits and the channel count are the newer's.
EntitySample blend_samples(const EntitySample& older, const EntitySample& newer, double alpha);

// Continues the motion from `previous` through `newest` to alpha >= 1 (1 is `newest` itself):
// position and angles extrapolate; channels, flags and bits hold the newest values.
EntitySample extrapolate_sample(const EntitySample& previous, const EntitySample& newest, double alpha);

}  // namespace tickwire
