// ReplicaState and ReplicaFrame: one tick's replicated state as both ends hold it after decoding,
// quantized (positions in quanta of the kind's resolution, rotations as smallest-three integers,
// angles in 12-bit steps), so a delta coded against it reproduces it exactly on the other side.
// A frame is what a client holds for a tick; it is a delta baseline for later ticks.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "tickwire/protocol/snapshot.h"

namespace tickwire {

enum class ReplicaForm : uint8_t { entity = 1, object = 2 };

// A kind payload (entity form: wire_id 0) or one component section (object form: its wire id).
// Channels travel as exact float bits; only `channel_count` of them are meaningful.
// The bytes first, then the channels: 20 bytes, no padding (a frame holds four per record, and
// same_extras compares them as bytes).
struct ReplicaPayload {
  uint8_t wire_id = 0;
  uint8_t channel_count = 0;
  uint8_t bits = 0;
  uint8_t reserved = 0;  // always 0: fills what would be a padding byte
  std::array<float, 4> channels{};
  friend bool operator==(const ReplicaPayload&, const ReplicaPayload&) = default;
};

// Two positions (or rotation steps) equal, in one branch (std::array's == calls memcmp).
inline bool same_steps(const std::array<int32_t, 3>& a, const std::array<int32_t, 3>& b) {
  return ((a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2])) == 0;
}

// Laid out in two runs without padding (136 bytes): the motion (id, position, rotation, look)
// that a moving record changes every tick, then everything else, which same_extras compares as one
// run of bytes. Every frame a client is sent holds a copy of each record, and the builder and the
// encoder stream those frames.
struct ReplicaState {
  uint32_t id = 0;  // the record's entity id: frames are sorted by it, unique
  std::array<int32_t, 3> position{};  // quanta of the kind's resolution
  std::array<int32_t, 3> rotation{};  // the other three, signed steps at the kind's rotation bits
  uint16_t yaw = 0, pitch = 0;        // entity form: 12-bit look steps
  uint8_t rotation_largest = 0;       // smallest-three: the dropped component's index
  // The extras, from here to the end.
  ReplicaForm form = ReplicaForm::entity;
  uint8_t kind = 0;  // entity form: the kind's id (GameVocabulary); object form: 0
  uint8_t flags = 0;
  bool has_transform = true;  // object form may omit the transform section
  bool has_rotation = false;
  bool has_scale = false;
  uint8_t payload_count = 0;  // entity form: 1; object form: the sections, at most 4
  uint32_t object_index = 0;  // object form
  std::array<float, 3> scale{1, 1, 1};
  std::array<ReplicaPayload, 4> payloads{};

  // Every field equal, floats by their bits (-0 is not +0, a NaN equals itself): the delta
  // encoder's "kept" decision rests on this, and the decoder reproduces bits, not values. Asked
  // in the order that finds a moving record's difference first: position and look, then rotation,
  // the extras last as one run of bytes.
  friend bool operator==(const ReplicaState& a, const ReplicaState& b);
};
// operator== and same_extras read the fields as two runs of bytes: a new field must keep them
// free of padding (and change this size).
static_assert(sizeof(ReplicaState) == 136, "ReplicaState changed: check its operator== and same_extras");
static_assert(offsetof(ReplicaState, form) == 33 && offsetof(ReplicaState, object_index) == 40 &&
                  offsetof(ReplicaState, payloads) == 56 && sizeof(ReplicaPayload) == 20,
              "the extras must stay one run without padding");

// Everything but the motion (id, position, rotation, look) the same, bit for bit (floats by their
// bits): the bytes from `form` to the end, compared as 8-byte words (the last one overlapping its
// neighbour) without a call: the encoder asks this of every changed record.
inline bool same_extras(const ReplicaState& a, const ReplicaState& b) {
  constexpr std::size_t kFrom = offsetof(ReplicaState, form);
  constexpr std::size_t kBytes = sizeof(ReplicaState) - kFrom;
  static_assert(kBytes >= 8, "the extras span at least one word");
  const auto* pa = reinterpret_cast<const unsigned char*>(&a) + kFrom;
  const auto* pb = reinterpret_cast<const unsigned char*>(&b) + kFrom;
  const auto word_diff = [&](std::size_t at) {
    uint64_t x = 0, y = 0;
    std::memcpy(&x, pa + at, sizeof x);
    std::memcpy(&y, pb + at, sizeof y);
    return x ^ y;
  };
  uint64_t diff = word_diff(kBytes - 8);
  for (std::size_t at = 0; at + 8 <= kBytes; at += 8) diff |= word_diff(at);
  return diff == 0;
}

inline bool operator==(const ReplicaState& a, const ReplicaState& b) {
  return same_steps(a.position, b.position) && a.yaw == b.yaw && a.pitch == b.pitch &&
         same_steps(a.rotation, b.rotation) && a.id == b.id && a.rotation_largest == b.rotation_largest &&
         same_extras(a, b);
}

// Starts fetching a state's cache lines (null: nothing). Always inlined: as a call of its own,
// GCC's mod-ref analysis finds a function of prefetches free of effects and deletes the call (GCC
// 12 -O1 and up), prefetching nothing.
[[gnu::always_inline]] inline void prefetch_state(const ReplicaState* state) {
  if (state == nullptr) return;
  const char* bytes = reinterpret_cast<const char*>(state);
  for (std::size_t line = 0; line < sizeof(ReplicaState); line += 64) __builtin_prefetch(bytes + line);
  __builtin_prefetch(bytes + sizeof(ReplicaState) - 1);  // the line the state ends in, when it straddles one more
}

// Owner details equal bit for bit (floats compared by their bit patterns: the client reconciles
// against them exactly).
bool same_owner_detail(const protocol::OwnerDetail& a, const protocol::OwnerDetail& b);

struct ReplicaFrame {
  uint32_t tick = 0;
  std::optional<protocol::OwnerDetail> owner;  // the owning client's truth, exact
  std::vector<ReplicaState> states;            // ascending id
  protocol::WorldSettings world;               // the room's settings at the tick
  friend bool operator==(const ReplicaFrame& a, const ReplicaFrame& b) {
    return a.tick == b.tick && a.world == b.world && a.owner.has_value() == b.owner.has_value() &&
           (!a.owner || same_owner_detail(*a.owner, *b.owner)) && a.states == b.states;
  }
};

}  // namespace tickwire
