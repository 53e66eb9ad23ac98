// The least-squares fit over held frames: weights by orthonormal polynomials over the frames' tick
// offsets (Q24 integers, so every end computes the same ones), positions fitted directly and
// rotations as rotation vectors from the baseline's, each carried on to the body's tick.
#include "history_fit.h"

#include <algorithm>
#include <cstdlib>

namespace tickwire::delta {
namespace {

constexpr int64_t kOne = int64_t{1} << kFitWeightBits;
constexpr int kTickScaleShift = kFitWeightBits - 5;   // offsets in units of 32 ticks
constexpr int32_t kMaxFitAhead = 32;
constexpr int64_t kMaxTargetValue = int64_t{1} << 30;  // |phi(ahead)|: extrapolation stays tame
constexpr int64_t kMinNorm = kOne >> 12;               // a degenerate polynomial: stop there
constexpr int64_t kMaxFitStep = int64_t{1} << 24;      // quanta from the baseline: past it, no fit
constexpr int kRotationSumShift = 4;                   // rotation vectors are summed in Q24
constexpr int64_t kMaxWeight = int64_t{1} << 28;       // 16: past it a fit amplifies noise, not signal
// A rotation path's components stay within 32 rad (Q28), so 31 weighted terms fit 63 bits; a spin
// that turns further within the window is past what its frames can show.
constexpr int64_t kMaxPathQ28 = int64_t{32} << 28;

int fit_degree(std::span<const int32_t> taus) {
  int32_t span = 0;
  for (int32_t tau : taus) span = std::max(span, -tau);
  const int degree = span >= 12 ? 3 : (span >= 6 ? 2 : 1);
  return std::min(degree, static_cast<int>(taus.size()) - 1);
}

Quat30 conjugate(const Quat30& q) { return {-q[0], -q[1], -q[2], q[3]}; }

}  // namespace

// Forsythe's three-term recurrence builds polynomials orthonormal over the points; the fit's value
// at the target is then sum_k phi_k(target) phi_k(point i) y_i, whose factors are the weights.
FitWeights fit_weights(std::span<const int32_t> taus, int32_t ahead) {
  FitWeights out;
  const std::size_t n = taus.size();
  if (n < 2 || n > kMaxFitFrames || ahead < 1 || ahead > kMaxFitAhead) return out;
  const int degree = fit_degree(taus);
  std::array<int64_t, kMaxFitFrames> u{};
  for (std::size_t i = 0; i < n; ++i) u[i] = int64_t{taus[i]} * (int64_t{1} << kTickScaleShift);
  const int64_t u_target = int64_t{ahead} * (int64_t{1} << kTickScaleShift);
  std::array<std::array<int64_t, kMaxFitFrames>, 4> phi{};
  std::array<int64_t, 4> phi_target{};
  const int64_t c = static_cast<int64_t>(isqrt64(static_cast<uint64_t>(kOne * kOne) / n));
  for (std::size_t i = 0; i < n; ++i) phi[0][i] = c;
  phi_target[0] = c;
  int used = 0;
  int64_t beta = 0;
  for (int k = 0; k < degree; ++k) {
    int64_t a = 0;
    for (std::size_t i = 0; i < n; ++i) a += (u[i] * ((phi[k][i] * phi[k][i]) >> kFitWeightBits)) >> kFitWeightBits;
    std::array<int64_t, kMaxFitFrames> v{};
    uint64_t norm2 = 0;
    for (std::size_t i = 0; i < n; ++i) {
      v[i] = ((u[i] - a) * phi[k][i]) >> kFitWeightBits;
      if (k > 0) v[i] -= (beta * phi[k - 1][i]) >> kFitWeightBits;
      norm2 += static_cast<uint64_t>(v[i] * v[i]);
    }
    int64_t v_target = ((u_target - a) * phi_target[k]) >> kFitWeightBits;
    if (k > 0) v_target -= (beta * phi_target[k - 1]) >> kFitWeightBits;
    const auto norm = static_cast<int64_t>(isqrt64(norm2));
    if (norm < kMinNorm) break;
    const int64_t next_target = v_target * kOne / norm;
    if (std::llabs(next_target) > kMaxTargetValue) break;
    for (std::size_t i = 0; i < n; ++i) phi[k + 1][i] = v[i] * kOne / norm;
    phi_target[k + 1] = next_target;
    beta = norm;
    used = k + 1;
  }
  out.n = static_cast<uint32_t>(n);
  for (std::size_t i = 0; i < n; ++i) {
    int64_t w = 0;
    for (int k = 0; k <= used; ++k) w += (phi_target[k] * phi[k][i]) >> kFitWeightBits;
    if (std::llabs(w) > kMaxWeight) return FitWeights{};
    out.w[i] = w;
  }
  return out;
}

void FitWindow::reset(int32_t ahead) {
  count_ = 0;
  ahead_ = ahead;
  all_for_ = UINT32_MAX;
}

void FitWindow::add(const FrameView& frame, int32_t tau) {
  if (count_ + 1 >= kMaxFitFrames) return;
  cursors_[count_] = FrameCursor(frame);
  taus_[++count_] = tau;
}

bool FitWindow::gather(const ReplicaState& base, RecordFit& out) {
  out.n = 1;
  out.states[0] = &base;
  out.taus[0] = 0;
  for (uint32_t j = 0; j < count_; ++j) {
    const ReplicaState* s = cursors_[j].find(base.id, base);
    if (s == nullptr || s->kind != base.kind || s->has_rotation != base.has_rotation) continue;
    out.states[out.n] = s;
    out.taus[out.n] = taus_[j + 1];
    ++out.n;
  }
  if (out.n < 2) return false;
  if (out.n == count_ + 1) {
    if (all_for_ != count_) {
      all_ = fit_weights(std::span<const int32_t>(taus_.data(), count_ + 1), ahead_);
      all_for_ = count_;
    }
    out.weights = &all_;
  } else {
    out.own = fit_weights(std::span<const int32_t>(out.taus.data(), out.n), ahead_);
    out.weights = &out.own;
  }
  return out.weights->n == out.n;
}

int64_t fit_position_q8(const RecordFit& fit, std::size_t axis) {
  const int64_t base = fit.states[0]->position[axis];
  int64_t sum = 0;
  for (uint32_t i = 1; i < fit.n; ++i) {
    const int64_t d = int64_t{fit.states[i]->position[axis]} - base;
    if (std::llabs(d) > kMaxFitStep) return base * (int64_t{1} << kFitFractionBits);
    sum += fit.weights->w[i] * d;
  }
  return base * (int64_t{1} << kFitFractionBits) + div_round(sum, int64_t{1} << (kFitWeightBits - kFitFractionBits));
}

Quat30 fit_rotation(const RecordFit& fit, const ReplicaKinds& kinds) {
  const ReplicaState& b = *fit.states[0];
  const Quat30 base = quat30_of(b.rotation_largest, b.rotation, max_step_of(b, kinds));
  // The path back from the baseline, unwrapped: each frame's rotation from the next newer one is
  // small, and their running sum follows the spin however far it turns (a rotation vector taken
  // straight from the baseline's bends wherever the axis moves, and folds past half a turn).
  std::array<int64_t, 3> sum{}, path{};
  Quat30 newer_back = conjugate(base);
  for (uint32_t i = 1; i < fit.n; ++i) {
    const ReplicaState& s = *fit.states[i];
    const Quat30 q = quat30_of(s.rotation_largest, s.rotation, max_step_of(s, kinds));
    const RotationVector r = rotation_log(quat_multiply(q, newer_back));
    newer_back = conjugate(q);
    for (std::size_t k = 0; k < 3; ++k) {
      path[k] = std::clamp(path[k] + r[k], -kMaxPathQ28, kMaxPathQ28);
      sum[k] += fit.weights->w[i] * (path[k] >> kRotationSumShift);
    }
  }
  RotationVector fitted{};
  for (std::size_t k = 0; k < 3; ++k) fitted[k] = div_round(sum[k], int64_t{1} << (kFitWeightBits - kRotationSumShift));
  return quat_multiply(rotation_exp(fitted), base);
}

}  // namespace tickwire::delta
