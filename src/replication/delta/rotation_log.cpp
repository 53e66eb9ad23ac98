// Integer logarithm and exponential of rotations (CORDIC, Q30), so a rotation fit can work on
// rotation vectors, where a steady spin is a straight line, and both ends compute the same bits
// on any CPU: shifts, adds and a constant table, no floating-point transcendental.
#include <algorithm>
#include <array>

#include "delta_prediction.h"

namespace tickwire::delta {
namespace {

constexpr int kCordicSteps = 31;
// atan(2^-i) in Q30, i = 0..30.
constexpr std::array<int64_t, kCordicSteps> kAtan{
    843314857, 497837829, 263043837, 133525159, 67021687, 33543516, 16775851, 8388437, 4194283, 2097149, 1048576,
    524288,    262144,    131072,    65536,     32768,    16384,    8192,     4096,    2048,    1024,    512,
    256,       128,       64,        32,        16,       8,        4,        2,       1};
constexpr int64_t kCordicGainInverse = 652032874;  // prod 1 / sqrt(1 + 2^-2i), Q30
constexpr int64_t kHalfPi = 1686629713;            // Q30
constexpr int64_t kPi = 3373259426;                // Q30
constexpr int64_t kMaxVector = 1686629713;         // 2 pi in Q28: a rotation vector's largest component

// atan2(y, x) for x, y >= 0 (Q30 in, Q30 radians out, in [0, pi/2]).
int64_t atan2_q30(int64_t y, int64_t x) {
  int64_t angle = 0;
  for (int i = 0; i < kCordicSteps; ++i) {
    const int64_t xs = x >> i, ys = y >> i;
    if (y > 0) {
      x += ys, y -= xs, angle += kAtan[static_cast<std::size_t>(i)];
    } else {
      x -= ys, y += xs, angle -= kAtan[static_cast<std::size_t>(i)];
    }
  }
  return angle;
}

// sin and cos of an angle in [-pi/2, pi/2] (Q30).
std::array<int64_t, 2> sin_cos_q30(int64_t angle) {
  int64_t x = kCordicGainInverse, y = 0;
  for (int i = 0; i < kCordicSteps; ++i) {
    const int64_t xs = x >> i, ys = y >> i;
    if (angle >= 0) {
      x -= ys, y += xs, angle -= kAtan[static_cast<std::size_t>(i)];
    } else {
      x += ys, y -= xs, angle += kAtan[static_cast<std::size_t>(i)];
    }
  }
  return {y, x};
}

}  // namespace

RotationVector rotation_log(const Quat30& q) {
  const int64_t sign = q[3] < 0 ? -1 : 1;
  const uint64_t squares = static_cast<uint64_t>(q[0] * q[0]) + static_cast<uint64_t>(q[1] * q[1]) +
                           static_cast<uint64_t>(q[2] * q[2]);
  const auto s = static_cast<int64_t>(isqrt64(squares));  // sin of the half angle, Q30
  RotationVector r{};
  if (s == 0) return r;
  const int64_t half = atan2_q30(s, sign * q[3]);
  for (std::size_t k = 0; k < 3; ++k) r[k] = (sign * q[k] * half / s) >> 1;  // 2 half v / s, Q28
  return r;
}

Quat30 rotation_exp(RotationVector r) {
  for (int64_t& c : r) c = std::clamp(c, -kMaxVector, kMaxVector);
  const uint64_t squares =
      static_cast<uint64_t>(r[0] * r[0]) + static_cast<uint64_t>(r[1] * r[1]) + static_cast<uint64_t>(r[2] * r[2]);
  const auto angle = static_cast<int64_t>(isqrt64(squares));  // Q28
  if (angle == 0) return Quat30{0, 0, 0, kQuatOne};
  const int64_t half = angle * 2;  // Q30: angle / 2 in Q30 is angle (Q28) * 2
  const bool past_right_angle = half > kHalfPi;
  std::array<int64_t, 2> sc = sin_cos_q30(past_right_angle ? kPi - half : half);
  if (past_right_angle) sc[1] = -sc[1];
  Quat30 q{};
  for (std::size_t k = 0; k < 3; ++k) q[k] = sc[0] * r[k] / angle;
  q[3] = sc[1];
  return q;
}

}  // namespace tickwire::delta
