// The fitted residual's fixed tables and tracked spread, the unwrapped rotation fit, and added
// records coded against their neighbours: the tables are what every build computes (pinned), a
// spin past half a turn over the window is still followed, and a grid's first frame is cheap.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "../../src/replication/delta/delta_frame.h"
#include "../../src/replication/delta/fine_residual.h"
#include "replica_frame_support.h"
#include "support.h"
#include "tickwire/replication/delta/snapshot_delta_codec.h"
#include "tickwire/replication/frames/smallest_three.h"

namespace tickwire {
namespace {

using delta::kFineTable;

// Both ends must hold the same table bit for bit: GCC and clang fold it to this.
TEST(DeltaFineResidual, TheTableIsPinned) {
  uint64_t hash = 1469598103934665603ull;  // FNV-1a over every bound
  for (const auto& by_scale : kFineTable) {
    for (const auto& bounds : by_scale) {
      for (const uint16_t v : bounds) {
        hash ^= v;
        hash *= 1099511628211ull;
      }
    }
  }
  EXPECT_EQ(hash, 8557347826360024518ull) << "the fitted residual's table changed: a body format change";
}

TEST(DeltaFineResidual, EverySymbolStaysCodable) {
  for (const auto& by_scale : kFineTable) {
    for (const auto& bounds : by_scale) {
      EXPECT_EQ(bounds[0], 0u);
      for (std::size_t s = 1; s < delta::kCdfSymbols; ++s) EXPECT_GE(bounds[s] - bounds[s - 1], delta::kCdfFloor);
      EXPECT_GE(delta::kCdfTotal - bounds[delta::kCdfSymbols - 1], delta::kCdfFloor);
    }
  }
}

uint32_t width(const std::array<uint16_t, delta::kCdfSymbols>& b, int32_t residual) {
  const auto s = static_cast<std::size_t>(residual + delta::kFineReach);
  return (s + 1 < delta::kCdfSymbols ? b[s + 1] : delta::kCdfTotal) - b[s];
}

TEST(DeltaFineResidual, TheCentreLeansWithThePrediction) {
  // A narrow spread, a prediction on the unit: a miss of zero is nearly certain.
  EXPECT_GT(width(kFineTable[2][0], 0), delta::kCdfTotal * 9 / 10);
  // Leaning nearly half a unit, zero and -1 (the coded residual leans down) are about as likely.
  const auto& half = kFineTable[2][delta::kLeanBuckets - 1];
  EXPECT_NEAR(static_cast<double>(width(half, 0)) / width(half, -1), 1.2, 0.25);
  EXPECT_LT(width(half, 1), width(half, -1) / 10);
  // A wider spread gives the misses by two their share.
  EXPECT_GT(width(kFineTable[12][0], 2), width(kFineTable[4][0], 2) * 10);
}

TEST(DeltaFineResidual, TheSpreadFollowsTheMisses) {
  delta::FineScale scale;
  Rng rng(test::test_seed(0x5ca1e));
  // Misses of about two units: the bucket climbs past a spread of 1.5 units.
  for (int i = 0; i < 200; ++i) scale.update(static_cast<int64_t>(rng.below(5)) - 2, 0);
  EXPECT_GE(scale.bucket(), 10u);
  // Then on the unit every time: it falls to the narrowest buckets.
  for (int i = 0; i < 200; ++i) scale.update(0, 0);
  EXPECT_LE(scale.bucket(), 1u);
}

// A body spinning 2.5 turns a second about an axis that sweeps around (integrated in small
// steps): over a 24-tick window it turns more than a whole turn, where a rotation vector taken
// straight from the baseline folds; the unwrapped path is a smooth curve the fit follows.
TEST(DeltaFineResidual, TheRotationFitFollowsASpinPastHalfATurn) {
  ReplicaKinds kinds = ReplicaKinds::defaults();
  const int32_t max_step = 2400;
  kinds.set(4, ReplicaPrecision{0.02f, 9, static_cast<uint16_t>(max_step), true});
  constexpr double kHz = 60, kSpinRps = 2.5 * 2 * 3.141592653589793;
  constexpr int kSubsteps = 32, kWindow = 24, kAhead = 3;
  std::vector<std::array<double, 4>> poses;  // ticks -kWindow + 1 .. kAhead, oldest first
  std::array<double, 4> q{0, 0, 0, 1};
  for (int tick = -kWindow + 1; tick <= kAhead; ++tick) {
    poses.push_back(q);
    for (int k = 0; k < kSubsteps; ++k) {
      const double t = (tick + (k + 0.5) / kSubsteps) / kHz;
      double axis[3] = {std::sin(0.8 * t), 0.3, std::cos(0.8 * t)};
      const double n = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
      const double half = 0.5 * kSpinRps / (kHz * kSubsteps);
      const std::array<double, 4> turn{axis[0] / n * std::sin(half), axis[1] / n * std::sin(half),
                                       axis[2] / n * std::sin(half), std::cos(half)};
      q = {turn[3] * q[0] + turn[0] * q[3] + turn[1] * q[2] - turn[2] * q[1],
           turn[3] * q[1] - turn[0] * q[2] + turn[1] * q[3] + turn[2] * q[0],
           turn[3] * q[2] + turn[0] * q[1] - turn[1] * q[0] + turn[2] * q[3],
           turn[3] * q[3] - turn[0] * q[0] - turn[1] * q[1] - turn[2] * q[2]};
    }
  }
  std::vector<ReplicaState> states(kWindow);
  delta::RecordFit fit;
  std::vector<int32_t> taus;
  for (std::size_t k = 0; k < states.size(); ++k) {
    const std::array<double, 4>& p = poses[kWindow - 1 - k];  // newest first: the baseline, then back
    const wire::Quat wq{static_cast<float>(p[0]), static_cast<float>(p[1]), static_cast<float>(p[2]), static_cast<float>(p[3])};
    const SmallestThree s3 = pack_smallest_three(wq, max_step);
    states[k].kind = 4;
    states[k].has_rotation = true;
    states[k].rotation_largest = s3.largest;
    states[k].rotation = s3.steps;
    fit.states[k] = &states[k];
    taus.push_back(-static_cast<int32_t>(k));
  }
  fit.n = static_cast<uint32_t>(states.size());
  fit.own = delta::fit_weights(taus, kAhead);
  ASSERT_EQ(fit.own.n, fit.n);
  fit.weights = &fit.own;
  const delta::Quat30 got = delta::fit_rotation(fit, kinds);
  double dot = 0;
  for (std::size_t k = 0; k < 4; ++k) dot += static_cast<double>(got[k]) / (1 << 30) * poses.back()[k];
  const double angle = 2 * std::acos(std::min(1.0, std::fabs(dot)));
  EXPECT_LT(angle, 0.005) << "the fit misses by a few steps at most (a step turns about 0.0006 rad)";
}

// A 30 x 30 grid of like records added against nothing: each after the first two is predicted by
// its neighbours' step, so the frame costs a few bits a record and decodes exactly; records of
// other forms and kinds between them are coded against nothing as before.
TEST(DeltaFineResidual, AddedRecordsAreCodedAgainstTheirNeighbours) {
  const ReplicaKinds kinds = ReplicaKinds::defaults();
  ReplicaFrame grid;
  grid.tick = 1;
  for (uint32_t id = 0; id < 900; ++id) {
    ReplicaState s;
    s.id = id;
    s.kind = 2;
    s.position = {static_cast<int32_t>(id % 30) * 768, static_cast<int32_t>(id / 30) * 768, 256};
    s.has_rotation = true;
    s.rotation_largest = 3;
    grid.states.push_back(s);
  }
  std::vector<uint8_t> body;
  ASSERT_TRUE(encode_snapshot_delta(grid, DeltaRefs{}, kinds, body).ok());
  EXPECT_LT(body.size(), 900u * 4 / 8) << "under 4 bits a record (against nothing: about 50)";
  ReplicaFrame decoded;
  ASSERT_TRUE(decode_snapshot_delta(body, grid.tick, DeltaRefs{}, kinds, decoded).ok());
  EXPECT_EQ(decoded, grid);

  Rng rng(test::test_seed(0xadd));
  ReplicaFrame mixed;
  mixed.tick = 1;
  for (uint32_t id = 0; id < 120; ++id) mixed.states.push_back(test::random_state(rng, id * 3));
  ASSERT_TRUE(encode_snapshot_delta(mixed, DeltaRefs{}, kinds, body).ok());
  ASSERT_TRUE(decode_snapshot_delta(body, mixed.tick, DeltaRefs{}, kinds, decoded).ok());
  EXPECT_EQ(decoded, mixed);
}

}  // namespace
}  // namespace tickwire
