// Quantization shared by every mode: a float to an index on its QuantSpec grid and back, and
// the smallest-three quaternion (index of the largest component, then the other three).
#pragma once

#include <cstdint>

#include "tickwire/wire/types.h"

namespace tickwire::wire {

// The index of value on spec's grid, clamped into [min, max] (NaN lands on min).
inline uint64_t quantize(double value, const QuantSpec& spec) {
  if (!(value >= spec.min)) value = spec.min;
  if (value > spec.max) value = spec.max;
  const auto index = static_cast<uint64_t>((value - spec.min) / spec.resolution + 0.5);
  const uint64_t steps = spec.steps();
  return index < steps ? index : steps;
}
inline double dequantize(uint64_t index, const QuantSpec& spec) {
  return spec.min + static_cast<double>(index) * spec.resolution;
}

struct PackedQuat {
  uint32_t largest = 0;  // 0..3: x, y, z, w
  uint32_t a = 0, b = 0, c = 0;
};
PackedQuat pack_quat(const Quat& q, unsigned bits_per_component);
Quat unpack_quat(const PackedQuat& p, unsigned bits_per_component);

}  // namespace tickwire::wire
