// Records to replica states at each kind's precision and back (the codec's only floating point).
#include "tickwire/replication/frames/record_quantizer.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "tickwire/core/assert.h"
#include "tickwire/replication/frames/smallest_three.h"
#include "tickwire/wire/quantize.h"

namespace tickwire {
namespace {

int32_t quantize_position(float value_m, float quantum_m) {
  const double steps = std::nearbyint(static_cast<double>(value_m) / static_cast<double>(quantum_m));
  if (!(steps >= INT32_MIN)) return steps > 0 ? INT32_MAX : INT32_MIN;  // NaN lands on INT32_MIN
  return steps > INT32_MAX ? INT32_MAX : static_cast<int32_t>(steps);
}

float position_of(int32_t steps, float quantum_m) {
  return static_cast<float>(static_cast<double>(steps) * static_cast<double>(quantum_m));
}

// Position, rotation and scale at a precision (both forms carry them; an object's at the objects').
void quantize_pose(const protocol::Vec3& position, const std::optional<protocol::Rotation>& rotation,
                   const std::optional<protocol::Vec3>& scale, const ReplicaPrecision& p, ReplicaState& s) {
  s.position = {quantize_position(position.x, p.position_quantum_m), quantize_position(position.y, p.position_quantum_m),
                quantize_position(position.z, p.position_quantum_m)};
  s.has_rotation = rotation.has_value();
  if (s.has_rotation) {
    const SmallestThree r = pack_smallest_three(rotation->q, rotation_max_step(p));
    s.rotation_largest = r.largest;
    s.rotation = r.steps;
  }
  s.has_scale = scale.has_value();
  if (s.has_scale) s.scale = {scale->x, scale->y, scale->z};
}

void dequantize_pose(const ReplicaState& s, const ReplicaPrecision& p, protocol::Vec3& position,
                     std::optional<protocol::Rotation>& rotation, std::optional<protocol::Vec3>& scale) {
  position = {position_of(s.position[0], p.position_quantum_m), position_of(s.position[1], p.position_quantum_m),
              position_of(s.position[2], p.position_quantum_m)};
  if (s.has_rotation) rotation = protocol::Rotation{unpack_smallest_three({s.rotation_largest, s.rotation}, rotation_max_step(p))};
  else rotation.reset();
  if (s.has_scale) scale = protocol::Vec3{s.scale[0], s.scale[1], s.scale[2]};
  else scale.reset();
}

// `out`'s body as alternative T, kept (with its lists' capacity) when it already is one.
template <class T>
T& body_as(protocol::Record& out) {
  if (T* body = std::get_if<T>(&out.body)) return *body;
  return out.body.emplace<T>();
}

void quantize_entity(const protocol::EntityRecord& e, const ReplicaKinds& kinds, ReplicaState& s) {
  s.form = ReplicaForm::entity;
  s.kind = e.kind;
  quantize_pose(e.position, e.rotation, e.scale, kinds.of(s.kind), s);
  s.yaw = static_cast<uint16_t>(wire::quantize(e.yaw_deg, protocol::kAngleSpec));
  s.pitch = static_cast<uint16_t>(wire::quantize(e.pitch_deg, protocol::kAngleSpec));
  s.flags = e.flags;
  TW_ASSERT(e.payload.channels.size() <= protocol::MaxKindChannels, "a kind payload of more than 4 channels");
  s.payload_count = 1;
  ReplicaPayload& payload = s.payloads[0];
  payload.channel_count = static_cast<uint8_t>(e.payload.channels.size());
  for (std::size_t i = 0; i < e.payload.channels.size(); ++i) payload.channels[i] = e.payload.channels[i].value;
  payload.bits = e.payload.bits;
}

void quantize_object(const protocol::ObjectRecord& o, const ReplicaKinds& kinds, ReplicaState& s) {
  s.form = ReplicaForm::object;
  s.object_index = o.object_index;
  s.flags = o.flags;
  s.has_transform = o.transform.has_value();
  if (s.has_transform) quantize_pose(o.transform->position, o.transform->rotation, o.transform->scale, kinds.objects(), s);
  TW_ASSERT(o.sections.size() <= protocol::MaxComponentSections, "an object of more than 4 sections");
  s.payload_count = static_cast<uint8_t>(o.sections.size());
  for (std::size_t k = 0; k < o.sections.size(); ++k) {
    const protocol::ComponentSection& section = o.sections[k];
    ReplicaPayload& payload = s.payloads[k];
    payload.wire_id = section.wire_id;
    for (unsigned i = 0; i < 4; ++i) payload.channels[i] = (section.dirty >> i) & 1u ? section.channel[i] : 0.0f;
    payload.channel_count = (section.dirty >> 4) & 1u ? section.channel_count : 0;
    payload.bits = (section.dirty >> 5) & 1u ? section.bits : 0;
    TW_ASSERT(payload.channel_count <= protocol::MaxKindChannels, "a section of more than 4 channels");
    for (unsigned i = payload.channel_count; i < 4; ++i) payload.channels[i] = 0.0f;
  }
}

}  // namespace

void quantize_records(std::span<const protocol::Record> records, const ReplicaKinds& kinds,
                      std::vector<ReplicaState>& out) {
  out.clear();
  for (const protocol::Record& record : records) {
    ReplicaState& s = out.emplace_back();
    s.id = record.entity_id;
    if (const auto* e = std::get_if<protocol::EntityRecord>(&record.body)) {
      quantize_entity(*e, kinds, s);
    } else {
      quantize_object(std::get<protocol::ObjectRecord>(record.body), kinds, s);
    }
  }
  const auto by_id = [](const ReplicaState& a, const ReplicaState& b) { return a.id < b.id; };
  if (!std::is_sorted(out.begin(), out.end(), by_id)) std::sort(out.begin(), out.end(), by_id);  // a game's list usually is
  for (std::size_t k = 1; k < out.size(); ++k) TW_ASSERT(out[k - 1].id < out[k].id, "record ids must be unique");
}

// Written over `out` in place: a client decodes every snapshot into the same records, so their
// lists keep their capacity and a snapshot costs no allocation once the first is decoded.
void dequantize_state(const ReplicaState& s, const ReplicaKinds& kinds, protocol::Record& out) {
  out.entity_id = s.id;
  if (s.form == ReplicaForm::object) {
    protocol::ObjectRecord& o = body_as<protocol::ObjectRecord>(out);
    o.object_index = s.object_index;
    o.flags = s.flags;
    if (s.has_transform) {
      protocol::ObjectTransform& t = o.transform ? *o.transform : o.transform.emplace();
      dequantize_pose(s, kinds.objects(), t.position, t.rotation, t.scale);
    } else {
      o.transform.reset();
    }
    o.sections.resize(std::min<std::size_t>(s.payload_count, protocol::MaxComponentSections));
    for (std::size_t k = 0; k < o.sections.size(); ++k) {
      const ReplicaPayload& payload = s.payloads[k];
      protocol::ComponentSection& section = o.sections[k];
      section.wire_id = payload.wire_id;
      section.dirty = 0x3F;
      for (unsigned i = 0; i < 4; ++i) section.channel[i] = payload.channels[i];
      section.channel_count = payload.channel_count;
      section.bits = payload.bits;
    }
    return;
  }
  protocol::EntityRecord& e = body_as<protocol::EntityRecord>(out);
  e.kind = s.kind;
  dequantize_pose(s, kinds.of(s.kind), e.position, e.rotation, e.scale);
  e.yaw_deg = static_cast<float>(wire::dequantize(s.yaw, protocol::kAngleSpec));
  e.pitch_deg = static_cast<float>(wire::dequantize(s.pitch, protocol::kAngleSpec));
  e.flags = s.flags;
  const ReplicaPayload& payload = s.payloads[0];
  e.payload.channels.resize(std::min<std::size_t>(payload.channel_count, protocol::MaxKindChannels));
  for (std::size_t i = 0; i < e.payload.channels.size(); ++i) e.payload.channels[i] = protocol::KindChannel{payload.channels[i]};
  e.payload.bits = payload.bits;
}

}  // namespace tickwire
