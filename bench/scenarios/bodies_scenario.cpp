// Scenario (c): the seeded paths, the integrated spins, the registered kind.
#include "bodies_scenario.h"

#include <cmath>
#include <numbers>

#include "precision_check.h"

namespace tickwire::bench {
namespace {

double between(Rng& rng, double lo, double hi) { return lo + (hi - lo) * rng.unit(); }
double signed_between(Rng& rng, double lo, double hi) { return (rng.chance(0.5) ? 1 : -1) * between(rng, lo, hi); }

using Quat4 = std::array<double, 4>;  // x y z w

// a * b (Hamilton product).
Quat4 multiply(const Quat4& a, const Quat4& b) {
  return {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1], a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
          a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3], a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
}

Quat4 normalized(const Quat4& q) {
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  return {q[0] / n, q[1] / n, q[2] / n, q[3] / n};
}

}  // namespace

uint8_t BodiesScenario::rotation_bits_for_bound() {
  uint8_t bits = 9;
  while (bits < 15 && smallest_three_angle_bound_rad(bits) > kMaxAngleErrorRad) ++bits;
  return bits;
}

BodiesScenario::BodiesScenario(uint64_t seed, uint32_t ticks) : ticks_(ticks) {
  vocabulary_.kind(kBodyKind, "body",
                   KindPrecision{static_cast<float>(kPositionQuantumM), rotation_bits_for_bound(),
                                 rotation_steps_for_angle(kMaxAngleErrorRad), /*fit_history=*/true});
  Rng rng(seed ^ 0xb0d1e5ull);
  paths_.reserve(kBodies);
  rotations_.reserve(kBodies);
  for (uint32_t i = 0; i < kBodies; ++i) {
    paths_.push_back(make_path(rng));
    const Quat4 start{rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5};
    rotations_.push_back(normalized(start));
  }
}

// Planar speed lies in [v0 - v1, v0 + v1] = [2.0, 9.5] m/s; the z bob adds at most 0.6 m/s.
BodiesScenario::Path BodiesScenario::make_path(Rng& rng) {
  Path p{};
  p.centre[0] = between(rng, -150, 150);
  p.centre[1] = between(rng, -150, 150);
  p.centre[2] = between(rng, 4, 10);
  const double v0_mps = between(rng, 4.5, 7.0), v1_mps = between(rng, 0.5, 2.5);
  p.omega_rps[0] = signed_between(rng, 0.15, 0.5);
  p.omega_rps[1] = signed_between(rng, 0.6, 1.5);
  p.radius_m[0] = v0_mps / std::fabs(p.omega_rps[0]);
  p.radius_m[1] = v1_mps / std::fabs(p.omega_rps[1]);
  for (int k = 0; k < 2; ++k) {
    p.phase[k] = between(rng, 0, 2 * std::numbers::pi);
    p.bob_m[k] = between(rng, 0.1, 0.5);
    p.bob_rps[k] = between(rng, 0.2, 0.6);
    p.bob_phase[k] = between(rng, 0, 2 * std::numbers::pi);
  }
  p.spin_rps = between(rng, 0.5, 3.0);
  for (int k = 0; k < 3; ++k) {
    p.axis_rps[k] = between(rng, 0.05, 0.2);
    p.axis_phase[k] = between(rng, 0, 2 * std::numbers::pi);
  }
  return p;
}

double BodiesScenario::speed_mps(uint32_t index, double t_s) const {
  const Path& p = paths_[index];
  double v[3] = {0, 0, 0};
  for (int k = 0; k < 2; ++k) {
    const double angle = p.omega_rps[k] * t_s + p.phase[k];
    v[0] += -p.radius_m[k] * p.omega_rps[k] * std::sin(angle);
    v[1] += p.radius_m[k] * p.omega_rps[k] * std::cos(angle);
    v[2] += p.bob_m[k] * p.bob_rps[k] * std::cos(p.bob_rps[k] * t_s + p.bob_phase[k]);
  }
  return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

// One step of each spin: the axis a fixed direction plus a slow wobble, turned by the midpoint
// angular velocity over the tick (world frame, so it multiplies from the left).
void BodiesScenario::advance_rotations(uint32_t tick) {
  const double dt_s = 1.0 / kHz;
  for (; rotations_tick_ < tick; ++rotations_tick_) {
    const double mid_s = (rotations_tick_ + 0.5) * dt_s;
    for (uint32_t i = 0; i < kBodies; ++i) {
      const Path& p = paths_[i];
      double axis[3];
      for (int k = 0; k < 3; ++k) axis[k] = (k == 2 ? 1.0 : 0.0) + 0.5 * std::sin(p.axis_rps[k] * mid_s + p.axis_phase[k]);
      const double n = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
      const double half = 0.5 * p.spin_rps * dt_s;
      const Quat4 turn{axis[0] / n * std::sin(half), axis[1] / n * std::sin(half), axis[2] / n * std::sin(half), std::cos(half)};
      rotations_[i] = normalized(multiply(turn, rotations_[i]));
    }
  }
}

void BodiesScenario::truth_at(uint32_t tick, TruthFrame& out) {
  advance_rotations(tick);
  const double t_s = static_cast<double>(tick) / kHz;
  out.records.reserve(kBodies);
  for (uint32_t i = 0; i < kBodies; ++i) {
    const Path& p = paths_[i];
    double at[3] = {p.centre[0], p.centre[1], p.centre[2]};
    for (int k = 0; k < 2; ++k) {
      const double angle = p.omega_rps[k] * t_s + p.phase[k];
      at[0] += p.radius_m[k] * std::cos(angle);
      at[1] += p.radius_m[k] * std::sin(angle);
      at[2] += p.bob_m[k] * std::sin(p.bob_rps[k] * t_s + p.bob_phase[k]);
    }
    protocol::EntityRecord record;
    record.kind = kBodyKind;
    record.position = {static_cast<float>(at[0]), static_cast<float>(at[1]), static_cast<float>(at[2])};
    const Quat4& q = rotations_[i];
    record.rotation = protocol::Rotation{
        wire::Quat{static_cast<float>(q[0]), static_cast<float>(q[1]), static_cast<float>(q[2]), static_cast<float>(q[3])}};
    out.records.push_back(protocol::Record{i + 1, record});
  }
}

}  // namespace tickwire::bench
