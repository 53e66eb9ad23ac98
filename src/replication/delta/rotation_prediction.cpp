// Integer quaternion arithmetic for the delta codec's rotation prediction: both ends rebuild the
// references' quaternions from their smallest-three steps and carry the baseline on at the
// angular velocity the two imply, with integer operations only, so predictions agree bit for bit.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "delta_prediction.h"

namespace tickwire::delta {
namespace {

int64_t clamp_unit(int64_t v) { return v < -kQuatOne ? -kQuatOne : (v > kQuatOne ? kQuatOne : v); }

// Q30 value of one step at max step M: 2^30 / (sqrt(2) M).
int64_t step_q30(int32_t max_step) {
  const auto m = static_cast<uint64_t>(max_step);
  return static_cast<int64_t>(isqrt64((uint64_t{1} << 59) / (m * m)));
}

int64_t q30_product(int64_t a, int64_t b) { return (a * b) >> 30; }

}  // namespace

uint64_t isqrt64(uint64_t x) {
  auto r = static_cast<uint64_t>(std::sqrt(static_cast<double>(x)));
  if (r > 0xFFFFFFFFull) r = 0xFFFFFFFFull;
  while (r > 0 && r * r > x) --r;
  while (r < 0xFFFFFFFFull && (r + 1) * (r + 1) <= x) ++r;
  return r;
}

Quat30 quat_multiply(const Quat30& a, const Quat30& b) {
  const int64_t ax = a[0], ay = a[1], az = a[2], aw = a[3];
  const int64_t bx = b[0], by = b[1], bz = b[2], bw = b[3];
  Quat30 r{(aw * bx + ax * bw + ay * bz - az * by) >> 30, (aw * by - ax * bz + ay * bw + az * bx) >> 30,
           (aw * bz + ax * by - ay * bx + az * bw) >> 30, (aw * bw - ax * bx - ay * by - az * bz) >> 30};
  for (int64_t& c : r) c = clamp_unit(c);
  return r;
}

int64_t completing_component(uint64_t squares) {
  constexpr uint64_t kOneSquared = uint64_t{1} << 60;
  return squares >= kOneSquared ? 0 : static_cast<int64_t>(isqrt64(kOneSquared - squares));
}

Quat30 quat30_of(uint8_t largest, const std::array<int32_t, 3>& steps, int32_t max_step) {
  const int64_t step = step_q30(max_step);
  Quat30 q{};
  uint64_t squares = 0;
  const uint8_t drop = largest & 3;
  for (uint8_t i = 0, k = 0; i < 4; ++i) {
    if (i == drop) continue;
    int64_t s = steps[k++];
    s = s < -max_step ? -max_step : (s > max_step ? max_step : s);
    q[i] = clamp_unit(s * step);
    squares += static_cast<uint64_t>(q[i] * q[i]);
  }
  q[drop] = completing_component(squares);
  return q;
}

Quat30 extrapolate_rotation(const Quat30& base, const Quat30& older, const Extrapolation& ex) {
  if (!ex.active || ex.ahead > 8 * ex.span) return base;
  int64_t dot = 0;
  for (int i = 0; i < 4; ++i) dot += q30_product(base[i], older[i]);
  const int64_t flip = dot < 0 ? -1 : 1;
  // delta = base * conjugate(older): the rotation over `span` ticks.
  Quat30 delta = quat_multiply(base, Quat30{-flip * older[0], -flip * older[1], -flip * older[2], flip * older[3]});
  if (delta[3] < 0) {
    for (int64_t& c : delta) c = -c;
  }
  return quat_multiply(rotation_power(delta, ex.ahead, ex.span), base);
}

Quat30 rotation_power(const Quat30& delta, int64_t ahead, int64_t span) {
  // sin(r x) from s = sin x, to third order: r s + r (1 - r^2) s^3 / 6, r = ahead / span.
  const int64_t s2 = q30_product(delta[0], delta[0]) + q30_product(delta[1], delta[1]) + q30_product(delta[2], delta[2]);
  const int64_t span2 = span * span;
  const int64_t correction = (span2 - ahead * ahead) * s2 / (6 * span2);
  int64_t factor = (kQuatOne + correction) * ahead / span;  // Q30, at most 8 * 1.17
  if (factor < 0) factor = 0;
  Quat30 step{};
  uint64_t squares = 0;
  for (int i = 0; i < 3; ++i) {
    step[i] = clamp_unit((delta[i] * (factor >> 4)) >> 26);
    squares += static_cast<uint64_t>(step[i] * step[i]);
  }
  step[3] = completing_component(squares);
  return step;
}

uint8_t largest_component(const Quat30& q) {
  uint8_t largest = 0;
  for (uint8_t i = 1; i < 4; ++i) {
    if (std::llabs(q[i]) > std::llabs(q[largest])) largest = i;
  }
  return largest;
}

std::array<int32_t, 3> steps_of(const Quat30& q, uint8_t largest, int32_t max_step) {
  const int64_t step = step_q30(max_step);
  const int64_t sign = q[largest & 3] < 0 ? -1 : 1;
  std::array<int32_t, 3> out{};
  for (uint8_t i = 0, k = 0; i < 4; ++i) {
    if (i == (largest & 3)) continue;
    int64_t s = div_round(sign * q[i], step);
    s = s < -max_step ? -max_step : (s > max_step ? max_step : s);
    out[k++] = static_cast<int32_t>(s);
  }
  return out;
}

}  // namespace tickwire::delta

namespace tickwire::delta {

std::array<int64_t, 3> steps_q8_of(const Quat30& q, uint8_t largest, int32_t max_step) {
  const int64_t step = step_q30(max_step);
  const int64_t sign = q[largest & 3] < 0 ? -1 : 1;
  const int64_t limit = int64_t{max_step} * 256;
  std::array<int64_t, 3> out{};
  for (uint8_t i = 0, k = 0; i < 4; ++i) {
    if (i == (largest & 3)) continue;
    out[k++] = std::clamp(div_round(sign * q[i] * 256, step), -limit, limit);
  }
  return out;
}

}  // namespace tickwire::delta
