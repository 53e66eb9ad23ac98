// Map objects' samples and their blend: lerp the continuous, snap the discrete.
#include "tickwire/client/object_sample.h"

#include <algorithm>
#include <cmath>

#include "lerp.h"
#include "tickwire/core/assert.h"

namespace tickwire {
namespace {

// Normalised lerp the short way round (q and -q are one rotation).
wire::Quat nlerp(const wire::Quat& from, const wire::Quat& to, double alpha) {
  const double dot = double{from.x} * to.x + double{from.y} * to.y + double{from.z} * to.z + double{from.w} * to.w;
  const float sign = dot < 0.0 ? -1.0f : 1.0f;
  wire::Quat q{lerp_f(from.x, sign * to.x, alpha), lerp_f(from.y, sign * to.y, alpha), lerp_f(from.z, sign * to.z, alpha),
               lerp_f(from.w, sign * to.w, alpha)};
  const double length = std::sqrt(double{q.x} * q.x + double{q.y} * q.y + double{q.z} * q.z + double{q.w} * q.w);
  if (!(length > 1e-9)) return to;
  const auto scale = [&](float v) { return static_cast<float>(v / length); };
  return {scale(q.x), scale(q.y), scale(q.z), scale(q.w)};
}

ObjectPose blend_pose(const ObjectPose& older, const ObjectPose& newer, double alpha) {
  ObjectPose out = newer;
  out.position = lerp_vec(older.position, newer.position, alpha);
  if (older.rotation && newer.rotation) out.rotation = nlerp(*older.rotation, *newer.rotation, alpha);
  if (older.scale && newer.scale) out.scale = lerp_vec(*older.scale, *newer.scale, alpha);
  return out;
}

}  // namespace

const SectionSample* ObjectSample::section(uint8_t wire_id) const {
  for (uint8_t k = 0; k < section_count && k < sections.size(); ++k) {
    if (sections[k].wire_id == wire_id) return &sections[k];
  }
  return nullptr;
}

ObjectSample object_sample(const protocol::ObjectRecord& record) {
  ObjectSample s;
  s.object_index = record.object_index;
  s.flags = record.flags;
  if (record.transform) {
    ObjectPose& pose = s.pose.emplace();
    pose.position = record.transform->position;
    if (record.transform->rotation) pose.rotation = record.transform->rotation->q;
    pose.scale = record.transform->scale;
  }
  s.section_count = static_cast<uint8_t>(std::min(record.sections.size(), s.sections.size()));
  for (uint8_t k = 0; k < s.section_count; ++k) {
    const protocol::ComponentSection& from = record.sections[k];
    SectionSample& to = s.sections[k];
    to.wire_id = from.wire_id;
    to.channel_count = static_cast<uint8_t>(std::min<std::size_t>(from.channel_count, to.channels.size()));
    for (uint8_t c = 0; c < to.channel_count; ++c) to.channels[c] = from.channel[c];
    to.bits = from.bits;
  }
  return s;
}

bool sample_of_record(const ObjectSample& sample, const protocol::ObjectRecord& record) {
  if (sample.object_index != record.object_index || sample.flags != record.flags) return false;
  if (sample.pose.has_value() != record.transform.has_value()) return false;
  if (record.transform) {
    const ObjectPose& pose = *sample.pose;
    const protocol::ObjectTransform& t = *record.transform;
    if (!(pose.position == t.position) || pose.scale != t.scale || pose.rotation.has_value() != t.rotation.has_value()) return false;
    if (t.rotation && !(*pose.rotation == t.rotation->q)) return false;
  }
  if (sample.section_count != std::min(record.sections.size(), sample.sections.size())) return false;
  for (uint8_t k = 0; k < sample.section_count; ++k) {
    const protocol::ComponentSection& from = record.sections[k];
    const SectionSample& to = sample.sections[k];
    if (to.wire_id != from.wire_id || to.bits != from.bits ||
        to.channel_count != std::min<std::size_t>(from.channel_count, to.channels.size()))
      return false;
    for (uint8_t c = 0; c < to.channel_count; ++c) {
      if (!(to.channels[c] == from.channel[c])) return false;
    }
  }
  return true;
}

ObjectSample blend_objects(const ObjectSample& older, const ObjectSample& newer, double alpha) {
  TW_ASSERT(alpha >= 0.0 && alpha <= 1.0, "a blend stays between its two samples");
  ObjectSample out = newer;
  if (older.pose && newer.pose) out.pose = blend_pose(*older.pose, *newer.pose, alpha);
  for (uint8_t k = 0; k < out.section_count; ++k) {
    SectionSample& section = out.sections[k];
    const SectionSample* was = older.section(section.wire_id);
    for (uint8_t c = 0; c < section.channel_count; ++c) {
      const float from = was != nullptr && c < was->channel_count ? was->channels[c] : 0.0f;
      section.channels[c] = lerp_f(from, section.channels[c], alpha);
    }
  }
  return out;
}

}  // namespace tickwire
