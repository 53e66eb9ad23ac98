// Quantization shared by every mode: a float to an index on its QuantSpec grid and back, and
// the smallest-three quaternion (index of the largest component, then the other three).
#pragma once

#include <cstdint>

#include "tickwire/wire/types.h"

namespace tickwire::wire {

uint64_t quantize(double value, const QuantSpec& spec);  // clamps into [min, max]
double dequantize(uint64_t index, const QuantSpec& spec);

struct PackedQuat {
  uint32_t largest = 0;  // 0..3: x, y, z, w
  uint32_t a = 0, b = 0, c = 0;
};
PackedQuat pack_quat(const Quat& q, unsigned bits_per_component);
Quat unpack_quat(const PackedQuat& p, unsigned bits_per_component);

}  // namespace tickwire::wire
