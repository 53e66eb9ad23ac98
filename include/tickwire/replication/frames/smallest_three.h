// Integer smallest-three rotations at a kind's precision: the largest component is dropped (and
// made positive), the other three are signed steps of 1/(sqrt(2) * M), M = 2^(bits-1) - 1. The
// replica state holds these integers, so both ends code and predict rotations exactly.
#pragma once

#include <array>
#include <cstdint>

#include "tickwire/wire/types.h"

namespace tickwire {

inline constexpr uint8_t kMinRotationBits = 9;
inline constexpr uint8_t kMaxRotationBits = 15;
inline constexpr int32_t kMaxRotationStep = (1 << (kMaxRotationBits - 1)) - 1;  // any kind's M

struct SmallestThree {
  uint8_t largest = 3;  // 0..3: x, y, z, w
  std::array<int32_t, 3> steps{};
};

constexpr int32_t rotation_max_step(uint8_t rotation_bits) { return (1 << (rotation_bits - 1)) - 1; }

// At max step M (255..16383; rotation_max_step(bits) for a bit count).
SmallestThree pack_smallest_three(const wire::Quat& q, int32_t max_step);
wire::Quat unpack_smallest_three(const SmallestThree& s, int32_t max_step);

}  // namespace tickwire
