// Quantized floats and smallest-three quaternions: the arithmetic behind the bit-level fields.
#include "tickwire/wire/quantize.h"

#include <algorithm>
#include <cmath>

#include "tickwire/core/assert.h"

namespace tickwire::wire {
namespace {
constexpr double kQuatComponentMax = 0.70710678118654752440;  // 1/sqrt(2)
}

PackedQuat pack_quat(const Quat& q, unsigned bits) {
  float c[4] = {q.x, q.y, q.z, q.w};
  uint32_t largest = 0;
  for (uint32_t i = 1; i < 4; ++i)
    if (std::fabs(c[i]) > std::fabs(c[largest])) largest = i;
  const float sign = c[largest] < 0 ? -1.0f : 1.0f;
  const QuantSpec spec{-kQuatComponentMax, kQuatComponentMax, 2 * kQuatComponentMax / ((1u << bits) - 1)};
  uint32_t packed[3];
  for (uint32_t i = 0, k = 0; i < 4; ++i) {
    if (i == largest) continue;
    packed[k++] = static_cast<uint32_t>(quantize(static_cast<double>(c[i] * sign), spec));
  }
  return PackedQuat{largest, packed[0], packed[1], packed[2]};
}

Quat unpack_quat(const PackedQuat& p, unsigned bits) {
  const QuantSpec spec{-kQuatComponentMax, kQuatComponentMax, 2 * kQuatComponentMax / ((1u << bits) - 1)};
  const uint32_t packed[3] = {p.a, p.b, p.c};
  float c[4];
  double sum = 0;
  for (uint32_t i = 0, k = 0; i < 4; ++i) {
    if (i == (p.largest & 3)) continue;
    const double v = dequantize(std::min<uint64_t>(packed[k++], spec.steps()), spec);
    c[i] = static_cast<float>(v);
    sum += v * v;
  }
  c[p.largest & 3] = static_cast<float>(std::sqrt(std::max(0.0, 1.0 - sum)));
  return Quat{c[0], c[1], c[2], c[3]};
}

}  // namespace tickwire::wire
