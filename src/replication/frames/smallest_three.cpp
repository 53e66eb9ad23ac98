// Float quaternions to and from the integer smallest-three form the replica state holds.
#include "tickwire/replication/frames/smallest_three.h"

#include <algorithm>
#include <cmath>

#include "tickwire/core/assert.h"

namespace tickwire {

namespace {
void check(int32_t max_step) {
  TW_ASSERT(max_step >= rotation_max_step(kMinRotationBits) && max_step <= kMaxRotationStep, "max step out of range");
}
}  // namespace

SmallestThree pack_smallest_three(const wire::Quat& q, int32_t max_step) {
  check(max_step);
  const double c[4] = {q.x, q.y, q.z, q.w};
  uint8_t largest = 0;
  for (uint8_t i = 1; i < 4; ++i) {
    if (std::fabs(c[i]) > std::fabs(c[largest])) largest = i;
  }
  const double sign = c[largest] < 0 ? -1.0 : 1.0;
  const double scale = static_cast<double>(max_step) * std::sqrt(2.0);
  SmallestThree out;
  out.largest = largest;
  for (uint8_t i = 0, k = 0; i < 4; ++i) {
    if (i == largest) continue;
    double v = std::nearbyint(c[i] * sign * scale);
    if (!(v >= -max_step)) v = -max_step;  // NaN lands here too
    if (v > max_step) v = max_step;
    out.steps[k++] = static_cast<int32_t>(v);
  }
  return out;
}

wire::Quat unpack_smallest_three(const SmallestThree& s, int32_t max_step) {
  check(max_step);
  const double scale = static_cast<double>(max_step) * std::sqrt(2.0);
  double c[4];
  double sum = 0;
  const uint8_t largest = s.largest & 3;
  for (uint8_t i = 0, k = 0; i < 4; ++i) {
    if (i == largest) continue;
    c[i] = s.steps[k++] / scale;
    sum += c[i] * c[i];
  }
  c[largest] = std::sqrt(std::max(0.0, 1.0 - sum));
  return wire::Quat{static_cast<float>(c[0]), static_cast<float>(c[1]), static_cast<float>(c[2]),
                    static_cast<float>(c[3])};
}

}  // namespace tickwire
