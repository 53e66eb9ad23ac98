// The residual of a fitted prediction, coded from a model rather than learnt afresh: a fit knows its
// value to a fraction of a unit, and its misses are near-normal, so one scalar per axis (their spread,
// tracked as the body goes) picks a distribution from a fixed table; a table per context learnt
// from nothing cost more than the residuals themselves in a body of a few hundred records.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "delta_cdf.h"

namespace tickwire::delta {

// Residuals -kFineReach..kFineReach are symbols 0..2 kFineReach; the last symbol is an escape, the
// residual then coded whole by the context's integer model.
inline constexpr int32_t kFineReach = 7;
inline constexpr unsigned kFineEscape = kCdfSymbols - 1;
static_assert(2 * kFineReach + 1 == kFineEscape, "the residuals fill every symbol but the escape");
// How far the fitted value leans from the integer it rounds to, in sixteenths of a unit (0..7):
// the residual's centre moves that way.
inline constexpr std::size_t kLeanBuckets = 8;
inline constexpr unsigned kLeanBucketQ8 = 16;  // 1/256 units per bucket
// The spread of the fit's misses (the continuous error's standard deviation, in units), in steps
// of a quarter octave from kFineSigmaFirst: 0.1 .. 2.8 units.
inline constexpr std::size_t kScaleBuckets = 16;

using FineTable = std::array<std::array<std::array<uint16_t, kCdfSymbols>, kLeanBuckets>, kScaleBuckets>;

namespace fine_detail {

// Compile-time only (the table must be the same bits for every build: constant folding is exact
// IEEE arithmetic, with no contraction): exp by its series, erf by a series of positive terms.
constexpr double exp_of(double a) {  // 0 <= a <= 40
  double term = 1, sum = 1;
  for (int n = 1; n < 400 && term > sum * 1e-18; ++n) {
    term *= a / n;
    sum += term;
  }
  return sum;
}

// The normal distribution function at x >= 0.
constexpr double normal_cdf_series(double x) {
  const double y = x / 1.4142135623730951;
  // erf(y) = 2/sqrt(pi) e^-y^2 sum_n (2y^2)^n y / (2n+1)!!
  double term = y, sum = y;
  for (int n = 1; n < 400 && term > sum * 1e-18; ++n) {
    term *= 2 * y * y / (2 * n + 1);
    sum += term;
  }
  return 0.5 * (1 + 1.1283791670955126 * sum / exp_of(y * y));
}

// The distribution function tabulated on [0, 8] in 1/32 steps (one constant evaluation of its own,
// so the table below stays within a compiler's constant-evaluation budget), read by interpolation.
inline constexpr int kCdfGridPerUnit = 32;
inline constexpr int kCdfGridReach = 8;
using NormalGrid = std::array<double, kCdfGridReach * kCdfGridPerUnit + 1>;
constexpr NormalGrid normal_grid() {
  NormalGrid g{};
  for (std::size_t i = 0; i < g.size(); ++i) g[i] = normal_cdf_series(static_cast<double>(i) / kCdfGridPerUnit);
  return g;
}
inline constexpr NormalGrid kNormalGrid = normal_grid();

constexpr double normal_cdf(double x) {
  const double a = (x < 0 ? -x : x) * kCdfGridPerUnit;
  if (a >= kCdfGridReach * kCdfGridPerUnit) return x < 0 ? 0.0 : 1.0;
  const auto i = static_cast<std::size_t>(a);
  const double v = kNormalGrid[i] + (kNormalGrid[i + 1] - kNormalGrid[i]) * (a - static_cast<double>(i));
  return x < 0 ? 1 - v : v;
}

constexpr double scale_sigma(std::size_t bucket) {
  double sigma = 0.1;
  for (std::size_t k = 0; k < bucket; ++k) sigma *= 1.2483305489016119;  // 2^(5/16): 16 buckets to 2.8
  return sigma;
}

// Symbol weights for residuals centred at -lean (the coded residual leans down: see FinePrediction).
// A twentieth of the misses are taken to spread 2.5 times wider (a record that turns harder than
// its neighbours): in the bodies scene a pure normal cost about 0.06 bit a record more.
inline constexpr double kWideShare = 0.05;
inline constexpr double kWideFactor = 2.5;

constexpr double cell_chance(double centre, double sigma, int32_t r) {
  return normal_cdf((r + 0.5 - centre) / sigma) - normal_cdf((r - 0.5 - centre) / sigma);
}

constexpr std::array<uint64_t, kCdfSymbols> fine_weights(std::size_t scale, std::size_t lean) {
  const double sigma = scale_sigma(scale);
  const double centre = -(static_cast<double>(lean) + 0.5) / static_cast<double>(kLeanBuckets * 2);
  std::array<uint64_t, kCdfSymbols> w{};
  double inside = 0;
  for (int32_t r = -kFineReach; r <= kFineReach; ++r) {
    double p = (1 - kWideShare) * cell_chance(centre, sigma, r) + kWideShare * cell_chance(centre, sigma * kWideFactor, r);
    p = p > 0 ? p : 0;
    inside += p;
    w[static_cast<std::size_t>(r + kFineReach)] = static_cast<uint64_t>(p * 1e12);
  }
  // The escape keeps at least one chance in 4096 (a fit that misses by a jump).
  const double outside = 1.0 - inside;
  w[kFineEscape] = static_cast<uint64_t>((outside > 1.0 / 4096 ? outside : 1.0 / 4096) * 1e12);
  return w;
}

constexpr FineTable fine_table() {
  FineTable t{};
  for (std::size_t s = 0; s < kScaleBuckets; ++s) {
    for (std::size_t l = 0; l < kLeanBuckets; ++l) t[s][l] = cdf_bounds(fine_weights(s, l));
  }
  return t;
}

// The bucket edges in the squared-spread domain (Q8 units^2): geometric midpoints between buckets.
constexpr std::array<uint32_t, kScaleBuckets - 1> scale_edges() {
  std::array<uint32_t, kScaleBuckets - 1> e{};
  for (std::size_t k = 0; k + 1 < kScaleBuckets; ++k) {
    const double mid = scale_sigma(k) * 1.1172839405059824;  // 2^(5/32): halfway, geometrically
    e[k] = static_cast<uint32_t>(mid * mid * 256.0);
  }
  return e;
}

}  // namespace fine_detail

inline constexpr FineTable kFineTable = fine_detail::fine_table();
inline constexpr std::array<uint32_t, kScaleBuckets - 1> kFineScaleEdges = fine_detail::scale_edges();

// The spread of one axis's misses, tracked over the body: a running mean of the squared distance
// of each residual from its centre (Q8 units^2, the unit's rounding included), moved 1/16 of the way
// per value, each distance capped so one jump cannot swamp it.
struct FineScale {
  static constexpr uint32_t kStartQ8 = 85;  // 0.33 units^2: a miss of half a unit, plus rounding
  static constexpr int32_t kCapQ4 = 8 * 16;  // distances past 8 units count as 8
  static constexpr unsigned kShift = 4;
  static constexpr uint32_t kRoundingQ8 = 21;  // 1/12 unit^2: what rounding to a unit adds

  uint32_t mean_square_q8 = kStartQ8;

  // The table's scale bucket for the current spread (less what rounding adds).
  std::size_t bucket() const {
    const uint32_t v = mean_square_q8 > kRoundingQ8 ? mean_square_q8 - kRoundingQ8 : 0;
    std::size_t b = 0;
    for (const uint32_t edge : kFineScaleEdges) b += v >= edge ? 1u : 0u;
    return b;
  }
  // `residual` as coded; `lean_q8` the fitted value's lean (0..128) that put its centre at -lean.
  void update(int64_t residual, uint32_t lean_q8) {
    int64_t d_q4 = residual * 16 + static_cast<int64_t>(lean_q8 >> 4);  // distance from the centre, 1/16 units
    if (d_q4 < 0) d_q4 = -d_q4;
    if (d_q4 > kCapQ4) d_q4 = kCapQ4;
    const auto square_q8 = static_cast<int32_t>(d_q4 * d_q4);  // (1/16)^2 = 1/256: Q8
    const auto mean = static_cast<int32_t>(mean_square_q8);
    mean_square_q8 = static_cast<uint32_t>(mean + ((square_q8 - mean) >> kShift));
  }
};

}  // namespace tickwire::delta
