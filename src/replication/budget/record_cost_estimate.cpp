// The estimate, field by field: a varint's length for integer residuals (zigzagged), the raw width
// for floats and packed rotations, a byte of framing (id skip and change mask) per record.
#include "tickwire/replication/budget/record_cost_estimate.h"

#include <bit>

namespace tickwire {
namespace {

constexpr uint32_t kFramingBits = 16;       // the id step and the changed-field mask
constexpr uint32_t kRotationBits = 2 + 45;  // largest index and three components at up to 15 bits
constexpr uint32_t kLookBits = 24;          // two 12-bit angles
constexpr uint32_t kFloatBits = 32;

uint32_t varint_bits(int64_t value) {
  const uint64_t zigzag = value < 0 ? (static_cast<uint64_t>(-(value + 1)) << 1) | 1u : static_cast<uint64_t>(value) << 1;
  const auto width = static_cast<uint32_t>(std::bit_width(zigzag));
  return width <= 7 ? 8 : (width + 6) / 7 * 8;  // 7 bits a byte, at least one byte
}

uint32_t payload_bits(const ReplicaPayload& current, const ReplicaPayload* reference) {
  if (reference != nullptr && current == *reference) return 0;
  uint32_t bits = 16;  // wire id and channel count / change mask
  for (uint8_t c = 0; c < current.channel_count && c < current.channels.size(); ++c) {
    const bool same = reference != nullptr && c < reference->channel_count && current.channels[c] == reference->channels[c];
    bits += same ? 1 : 1 + kFloatBits;
  }
  return bits + 8;  // the eight bits
}

uint32_t position_bits(const ReplicaState& s, const ReplicaState* r) {
  uint32_t bits = 0;
  for (std::size_t axis = 0; axis < 3; ++axis) {
    const int64_t base = r != nullptr ? r->position[axis] : 0;
    bits += 1 + varint_bits(int64_t{s.position[axis]} - base);
  }
  return bits;
}

// Position, rotation and look against a reference of the same shape (or none).
uint32_t motion_bits(const ReplicaState& s, const ReplicaState* r) {
  uint32_t bits = 0;
  if (r == nullptr || s.has_transform != r->has_transform || !same_steps(s.position, r->position)) {
    bits += position_bits(s, r);
  }
  if (s.has_rotation && (r == nullptr || !r->has_rotation || s.rotation_largest != r->rotation_largest ||
                         !same_steps(s.rotation, r->rotation))) {
    bits += kRotationBits;
  }
  if (r == nullptr || s.yaw != r->yaw || s.pitch != r->pitch) bits += kLookBits;
  return bits;
}

// The bits of the fields that differ (0: none differ), framing aside. The common case, a record
// whose extras match its reference, costs one compare of them.
uint32_t state_bits(const ReplicaState& s, const ReplicaState* r) {
  if (r != nullptr && same_extras(s, *r)) return motion_bits(s, r);
  uint32_t bits = 0;
  if (r == nullptr || s.form != r->form || s.kind != r->kind || s.object_index != r->object_index) {
    bits += 8 + (s.form == ReplicaForm::object ? varint_bits(s.object_index) : 0);
    r = nullptr;  // a different record in the same id: everything travels
  }
  bits += motion_bits(s, r);
  if (s.has_scale && (r == nullptr || !r->has_scale || s.scale != r->scale)) bits += 3 * kFloatBits;
  if (r == nullptr || s.flags != r->flags) bits += 8;
  for (uint8_t p = 0; p < s.payload_count && p < s.payloads.size(); ++p) {
    const bool held = r != nullptr && p < r->payload_count;
    bits += payload_bits(s.payloads[p], held ? &r->payloads[p] : nullptr);
  }
  return bits;
}

}  // namespace

uint32_t estimate_record_bytes(const ReplicaState& current, const ReplicaState* reference) {
  const uint32_t bits = state_bits(current, reference);
  if (bits == 0 && reference != nullptr && current == *reference) return 0;  // rare: compare fully only here
  return (kFramingBits + bits + 7) / 8;
}

}  // namespace tickwire
