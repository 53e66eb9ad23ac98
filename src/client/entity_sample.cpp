// The blend rules of a remote entity sample: lerp the continuous, snap the discrete.
#include "tickwire/client/entity_sample.h"

#include <cmath>

#include "lerp.h"
#include "tickwire/core/assert.h"

namespace tickwire {
namespace {

// Position and angles: the motion half, shared by blending and extrapolation.
void lerp_motion(const EntitySample& from, const EntitySample& to, double alpha, EntitySample& out) {
  out.position_m = lerp_vec(from.position_m, to.position_m, alpha);
  out.yaw_deg = lerp_angle_deg(from.yaw_deg, to.yaw_deg, alpha);
  out.pitch_deg = lerp_angle_deg(from.pitch_deg, to.pitch_deg, alpha);
}

bool finite(float v) { return std::isfinite(v); }

}  // namespace

bool sample_is_well_formed(const EntitySample& s) {
  if (s.channel_count > kSampleChannels) return false;
  if (!finite(s.position_m.x) || !finite(s.position_m.y) || !finite(s.position_m.z)) return false;
  if (!finite(s.yaw_deg) || !finite(s.pitch_deg)) return false;
  for (float c : s.channels) {
    if (!finite(c)) return false;
  }
  return true;
}

float wrap_angle_deg(double angle_deg) {
  double wrapped = std::fmod(angle_deg + 180.0, 360.0);
  if (wrapped < 0.0) wrapped += 360.0;
  return static_cast<float>(wrapped - 180.0);
}

float lerp_angle_deg(float from_deg, float to_deg, double alpha) {
  // The signed short-way difference lies in [-180, 180).
  const double delta = wrap_angle_deg(static_cast<double>(to_deg) - from_deg);
  return wrap_angle_deg(static_cast<double>(from_deg) + delta * alpha);
}

EntitySample blend_samples(const EntitySample& older, const EntitySample& newer, double alpha) {
  TW_ASSERT(alpha >= 0.0 && alpha <= 1.0, "a blend stays between its two samples");
  EntitySample out = newer;  // entity, bits and channel count: the newer's
  lerp_motion(older, newer, alpha, out);
  for (std::size_t i = 0; i < kSampleChannels; ++i) {
    const float from = i < older.channel_count ? older.channels[i] : 0.0f;
    const float to = i < newer.channel_count ? newer.channels[i] : 0.0f;
    out.channels[i] = i < newer.channel_count ? lerp_f(from, to, alpha) : 0.0f;
  }
  return out;
}

EntitySample extrapolate_sample(const EntitySample& previous, const EntitySample& newest, double alpha) {
  TW_ASSERT(alpha >= 1.0, "extrapolation starts at the newest sample");
  EntitySample out = newest;
  lerp_motion(previous, newest, alpha, out);
  return out;
}

}  // namespace tickwire
