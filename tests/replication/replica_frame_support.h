// Random replica frames for the delta codec's tests and fuzz seeds: states of every form and
// shape, and successors that change, add, remove and reshape records the way a game's ticks do,
// with motion that prediction can follow (steady drift and spin) mixed with jumps.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include "tickwire/core/rng.h"
#include "tickwire/replication/frames/replica_state.h"
#include "tickwire/replication/frames/smallest_three.h"

namespace tickwire::test {

inline float random_float(Rng& rng) {
  switch (rng.below(6)) {
    case 0: return 0.0f;
    case 1: return -0.0f;
    case 2: return std::bit_cast<float>(rng.next_u32() & 0x7F7FFFFFu);  // finite, any size
    default: return static_cast<float>(rng.between(-100000, 100000)) / 64.0f;
  }
}

inline protocol::OwnerDetail random_owner(Rng& rng) {
  protocol::OwnerDetail o;
  if (rng.chance(0.9)) o.ack = protocol::InputAck{rng.next_u32()};
  o.queue_depth = static_cast<int8_t>(rng.between(-128, 127));
  o.pawn.pawn_ref = rng.next_u64();
  o.pawn.position = {random_float(rng), random_float(rng), random_float(rng)};
  o.pawn.velocity = {random_float(rng), random_float(rng), random_float(rng)};
  o.pawn.values.resize(rng.below(protocol::MaxPawnValues + 1));
  for (protocol::PawnValue& v : o.pawn.values) v.value = random_float(rng);
  o.pawn.flags = static_cast<uint8_t>(rng.below(256));
  o.pawn.placement_epoch = static_cast<uint8_t>(rng.below(256));
  o.claim = static_cast<protocol::ClaimOutcome>(rng.below(3));
  return o;
}

inline void randomize_rotation(Rng& rng, ReplicaState& s) {
  s.has_rotation = rng.chance(0.7);
  s.rotation_largest = static_cast<uint8_t>(rng.below(4));
  for (int32_t& step : s.rotation) step = static_cast<int32_t>(rng.between(-180, 180));
}

inline ReplicaPayload random_payload(Rng& rng) {
  ReplicaPayload p;
  p.wire_id = static_cast<uint8_t>(rng.below(9));
  p.channel_count = static_cast<uint8_t>(rng.below(5));
  for (uint8_t i = 0; i < p.channel_count; ++i) p.channels[i] = random_float(rng);
  p.bits = static_cast<uint8_t>(rng.below(256));
  return p;
}

inline ReplicaState random_state(Rng& rng, uint32_t id) {
  ReplicaState s;
  s.id = id;
  s.form = rng.chance(0.5) ? ReplicaForm::entity : ReplicaForm::object;
  s.kind = s.form == ReplicaForm::entity ? static_cast<uint8_t>(rng.between(1, 7)) : 0;
  s.object_index = s.form == ReplicaForm::object ? static_cast<uint32_t>(rng.below(70000)) : 0;
  s.flags = static_cast<uint8_t>(rng.below(16));
  s.has_transform = s.form == ReplicaForm::entity || rng.chance(0.5);
  for (int32_t& p : s.position) p = rng.chance(0.05) ? static_cast<int32_t>(rng.next_u32()) : static_cast<int32_t>(rng.between(-300000, 300000));
  randomize_rotation(rng, s);
  s.has_scale = rng.chance(0.2);
  if (s.has_scale) s.scale = {random_float(rng), random_float(rng), random_float(rng)};
  s.yaw = static_cast<uint16_t>(rng.below(4096));
  s.pitch = static_cast<uint16_t>(rng.below(4096));
  s.payload_count = s.form == ReplicaForm::entity ? 1 : static_cast<uint8_t>(rng.below(5));
  for (uint8_t k = 0; k < s.payload_count; ++k) s.payloads[k] = random_payload(rng);
  return s;
}

// Steady motion a predictor can follow: drift and spin at a per-id rate, with some noise.
inline void step_motion(Rng& rng, ReplicaState& s, uint32_t ticks) {
  const int32_t rate = static_cast<int32_t>(s.id % 23) - 11;
  for (int32_t& p : s.position) p += rate * static_cast<int32_t>(ticks) + static_cast<int32_t>(rng.between(-2, 2));
  if (s.has_rotation) {
    for (int32_t& step : s.rotation) {
      step += static_cast<int32_t>(ticks) * (rate / 3) + static_cast<int32_t>(rng.between(-1, 1));
      step = step < -255 ? -255 : (step > 255 ? 255 : step);
    }
  }
}

// The next frame `ticks` later: most records keep still or move, some change any field, a few
// are removed, reshaped (form or kind) or added.
inline ReplicaFrame successor(Rng& rng, const ReplicaFrame& previous, uint32_t ticks, uint32_t max_id) {
  ReplicaFrame next;
  next.tick = previous.tick + ticks;
  if (previous.owner && rng.chance(0.95)) {
    next.owner = previous.owner;
    if (next.owner->ack) next.owner->ack->sequence += rng.chance(0.9) ? ticks : static_cast<uint32_t>(rng.below(5));
    next.owner->pawn.position.x += 0.0625f * static_cast<float>(ticks);
    if (rng.chance(0.2)) next.owner = random_owner(rng);
  } else if (rng.chance(0.5)) {
    next.owner = random_owner(rng);
  }
  std::size_t k = 0;
  for (uint32_t id = 0; id <= max_id; ++id) {
    while (k < previous.states.size() && previous.states[k].id < id) ++k;
    const bool held = k < previous.states.size() && previous.states[k].id == id;
    if (!held) {
      if (rng.chance(0.03)) next.states.push_back(random_state(rng, id));
      continue;
    }
    if (rng.chance(0.04)) continue;  // removed
    ReplicaState s = previous.states[k];
    const uint64_t roll = rng.below(100);
    if (roll < 40) {
      // unchanged
    } else if (roll < 85) {
      step_motion(rng, s, ticks);
    } else if (roll < 97) {
      const ReplicaState other = random_state(rng, id);
      switch (rng.below(6)) {
        case 0: s.flags = other.flags; break;
        case 1: s.payloads = other.payloads, s.payload_count = other.payload_count; break;
        case 2: s.yaw = other.yaw, s.pitch = other.pitch; break;
        case 3: s.scale = other.scale, s.has_scale = other.has_scale; break;
        case 4: s.kind = s.form == ReplicaForm::entity ? other.kind : s.kind; break;
        default: randomize_rotation(rng, s); break;
      }
    } else {
      s = random_state(rng, id);  // a new form, kind or shape under the same id
    }
    next.states.push_back(s);
  }
  return next;
}

}  // namespace tickwire::test
