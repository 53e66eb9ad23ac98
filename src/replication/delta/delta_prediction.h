// Prediction from two references, in integers so both ends compute the same value on any CPU:
// linear extrapolation of a quantity from the older frame through the baseline to the body's
// tick, and rotations carried on at the angular velocity the two references imply.
#pragma once

#include <array>
#include <cstdint>

namespace tickwire::delta {

// Rounds n / d to the nearest integer, halves away from zero (d > 0).
constexpr int64_t div_round(int64_t n, int64_t d) { return n >= 0 ? (n + d / 2) / d : -((-n + d / 2) / d); }

// ahead: ticks from the baseline to the body's tick; span: from the older frame to the baseline.
// `multiple`: ahead / span when span divides ahead (the common case of evenly spaced acks), so
// the prediction needs no 64-bit division per value; 0 otherwise.
struct Extrapolation {
  bool active = false;
  int64_t ahead = 0;
  int64_t span = 1;
  int64_t multiple = 0;

  static Extrapolation over(int64_t ahead, int64_t span) {
    return Extrapolation{true, ahead, span, ahead % span == 0 ? ahead / span : 0};
  }
  // Values are below 2^40 in magnitude; the result stays below 2^49 (ahead, span <= 255).
  int64_t predict(int64_t base, int64_t older) const {
    if (!active) return base;
    if (multiple != 0) return base + (base - older) * multiple;  // exact: what the division gives
    return base + div_round((base - older) * ahead, span);
  }
};

// Quaternions with unit length 2^30, components x, y, z, w.
using Quat30 = std::array<int64_t, 4>;
inline constexpr int64_t kQuatOne = int64_t{1} << 30;

// A rotation vector (axis times angle), radians in Q28.
using RotationVector = std::array<int64_t, 3>;
// The rotation vector of a unit quaternion (either sign), and back (components clamped to 2 pi).
RotationVector rotation_log(const Quat30& q);
Quat30 rotation_exp(RotationVector r);

// The integer square root (floor), exact.
uint64_t isqrt64(uint64_t x);
// a * b (Hamilton product), components clamped to the unit.
Quat30 quat_multiply(const Quat30& a, const Quat30& b);
// The rest component of a unit quaternion whose other three squares sum to `squares` (Q60).
int64_t completing_component(uint64_t squares);
// The rotation `delta` (w >= 0) raised to the power ahead/span (0 <= ahead/span <= 8).
Quat30 rotation_power(const Quat30& delta, int64_t ahead, int64_t span);
// The full quaternion of a smallest-three value at max step M (steps clamped to +-M).
Quat30 quat30_of(uint8_t largest, const std::array<int32_t, 3>& steps, int32_t max_step);
// Carries `base` on by the rotation from `older` to `base`, scaled by ahead/span.
Quat30 extrapolate_rotation(const Quat30& base, const Quat30& older, const Extrapolation& ex);
// The component of largest magnitude (lowest index on ties).
uint8_t largest_component(const Quat30& q);
// q's smallest-three steps when `largest` is the dropped component (made non-negative).
std::array<int32_t, 3> steps_of(const Quat30& q, uint8_t largest, int32_t max_step);
// The same steps with 8 bits below the step (clamped to +-256 M).
std::array<int64_t, 3> steps_q8_of(const Quat30& q, uint8_t largest, int32_t max_step);

}  // namespace tickwire::delta
