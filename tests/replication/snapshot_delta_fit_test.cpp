// The SnapshotDelta fit over held frames: its integer weights reproduce polynomials up to the
// degree the frames' span allows, rotation vectors survive the integer log and exponential, bodies
// fitted over a history decode to their frame exactly (through moves, jumps, adds and removes),
// and a body naming a frame the decoder's history lacks is refused, never misapplied.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "../../src/replication/delta/delta_frame.h"
#include "replica_frame_support.h"
#include "support.h"
#include "tickwire/replication/frames/held_frames.h"
#include "tickwire/replication/delta/snapshot_delta_codec.h"

namespace tickwire {
namespace {

double weighted(const delta::FitWeights& w, const std::vector<int32_t>& taus, int power) {
  double sum = 0;
  for (std::size_t i = 0; i < taus.size(); ++i) sum += static_cast<double>(w.w[i]) * std::pow(taus[i], power);
  return sum / static_cast<double>(int64_t{1} << delta::kFitWeightBits);
}

TEST(SnapshotDeltaFit, WeightsReproduceACubicOverAWideWindow) {
  std::vector<int32_t> taus{0};
  for (int32_t back = 1; back <= 24; ++back) {
    if (back % 7 != 0) taus.push_back(-back);  // a few frames lost
  }
  const delta::FitWeights w = delta::fit_weights(taus, 3);
  ASSERT_EQ(w.n, taus.size());
  for (int power = 0; power <= 3; ++power) {
    EXPECT_NEAR(weighted(w, taus, power), std::pow(3.0, power), 1e-3 * std::pow(3.0, power) + 1e-4) << "power " << power;
  }
  // A short window fits a line only: a quadratic is not reproduced there.
  const std::vector<int32_t> near{0, -1, -3};
  const delta::FitWeights line = delta::fit_weights(near, 2);
  EXPECT_NEAR(weighted(line, near, 1), 2.0, 1e-4);
  EXPECT_GT(std::fabs(weighted(line, near, 2) - 4.0), 0.5);
  EXPECT_EQ(delta::fit_weights(std::vector<int32_t>{0}, 3).n, 0u) << "one point: no fit";
  EXPECT_EQ(delta::fit_weights(taus, 33).n, 0u) << "too far ahead: no fit";
}

TEST(SnapshotDeltaFit, RotationVectorsSurviveLogAndExp) {
  Rng rng(test::test_seed(31));
  for (int round = 0; round < 200; ++round) {
    const double angle = rng.unit() * 3.1;
    double axis[3] = {rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5};
    const double norm = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    delta::RotationVector r{};
    for (std::size_t k = 0; k < 3; ++k) r[k] = std::llround(axis[k] / norm * angle * (1 << 28));
    const delta::Quat30 q = delta::rotation_exp(r);
    EXPECT_NEAR(static_cast<double>(q[3]) / (1 << 30), std::cos(angle / 2), 1e-7);
    const delta::RotationVector back = delta::rotation_log(q);
    for (std::size_t k = 0; k < 3; ++k) EXPECT_NEAR(static_cast<double>(back[k] - r[k]), 0.0, 64.0) << "round " << round;
  }
}

// The protocol's kinds and map objects, each registered as moving smoothly enough to fit.
ReplicaKinds fitting_kinds() {
  ReplicaKinds kinds = ReplicaKinds::defaults();
  for (uint8_t kind = 1; kind <= 6; ++kind) {
    ReplicaPrecision p = kinds.of(kind);
    p.fit_history = true;
    kinds.set(kind, p);
  }
  ReplicaPrecision objects = kinds.objects();
  objects.fit_history = true;
  kinds.set_objects(objects);
  return kinds;
}

struct Chain {
  ReplicaKinds kinds = fitting_kinds();
  HeldFrames held;
  std::vector<ReplicaFrame> frames;
};

TEST(SnapshotDeltaFit, BodiesFittedOverHeldFramesDecodeExactly) {
  const uint64_t seed = test::test_seed(0xf17);
  Rng rng(seed);
  Chain chain;
  chain.kinds.set(4, ReplicaPrecision{0.02f, 9, rotation_steps_for_angle(0.001), true});
  ReplicaFrame first;
  first.tick = 1;
  for (uint32_t id = 0; id < 60; ++id) first.states.push_back(test::random_state(rng, id));
  chain.frames.push_back(first);
  chain.held.keep(first);
  uint32_t fitted = 0;
  for (int t = 0; t < 80; ++t) {
    const ReplicaFrame current = test::successor(rng, chain.frames.back(), 1, 70);
    const std::size_t n = chain.frames.size();
    const ReplicaFrame& baseline = chain.frames[n - 1 - rng.below(std::min<std::size_t>(n, 4))];
    const ReplicaFrame* older = n > 4 ? &chain.frames[n - 5] : nullptr;
    const DeltaRefs refs{&baseline, older, &chain.held};
    std::vector<uint8_t> body;
    const auto stats = encode_snapshot_delta(current, refs, chain.kinds, body);
    ASSERT_TRUE(stats.ok());
    fitted += stats->fit_frames != 0;
    ReplicaFrame decoded;
    DeltaRefusal refusal{};
    ASSERT_TRUE(decode_snapshot_delta(body, current.tick, refs, chain.kinds, decoded, &refusal).ok())
        << "tick " << current.tick << ": " << reason_name(refusal);
    ASSERT_EQ(decoded, current) << "tick " << current.tick;
    std::vector<uint8_t> again;
    ASSERT_TRUE(encode_snapshot_delta(current, refs, chain.kinds, again).ok());
    ASSERT_EQ(again, body) << "encoding is deterministic";
    // Without the history the body cannot be decoded: refused, not misapplied.
    if (stats->fit_frames != 0) {
      EXPECT_FALSE(decode_snapshot_delta(body, current.tick, DeltaRefs{&baseline, older, nullptr}, chain.kinds, decoded, &refusal).ok());
      EXPECT_EQ(refusal, DeltaRefusal::missing_history);
    }
    chain.frames.push_back(current);
    chain.held.keep(current);
  }
  EXPECT_GT(fitted, 60u) << "most bodies fit over the held frames";
}

// Eight frames of random records a tick apart, in `frames` and held by `all` (and by `some` but
// the fourth); returns the frame after them.
ReplicaFrame eight_frames(Rng& rng, std::vector<ReplicaFrame>& frames, HeldFrames& all, HeldFrames* some = nullptr) {
  ReplicaFrame f;
  f.tick = 1;
  for (uint32_t id = 0; id < 20; ++id) f.states.push_back(test::random_state(rng, id));
  for (int t = 0; t < 8; ++t) {
    frames.push_back(f);
    all.keep(f);
    if (some != nullptr && t != 3) some->keep(f);
    f = test::successor(rng, f, 1, 25);
  }
  return f;
}

TEST(SnapshotDeltaFit, ABodyNamingAFrameTheHistoryLacksIsRefused) {
  Rng rng(test::test_seed(5));
  ReplicaKinds kinds = fitting_kinds();
  HeldFrames server_view, client;  // the client lost one frame the server believes it holds
  std::vector<ReplicaFrame> frames;
  const ReplicaFrame f = eight_frames(rng, frames, server_view, &client);
  std::vector<uint8_t> body;
  const auto stats = encode_snapshot_delta(f, DeltaRefs{&frames.back(), nullptr, &server_view}, kinds, body);
  ASSERT_TRUE(stats.ok());
  ASSERT_NE(stats->fit_frames, 0u);
  ReplicaFrame decoded;
  DeltaRefusal refusal{};
  EXPECT_FALSE(decode_snapshot_delta(body, f.tick, DeltaRefs{&frames.back(), nullptr, &client}, kinds, decoded, &refusal).ok());
  EXPECT_EQ(refusal, DeltaRefusal::missing_history);
  EXPECT_TRUE(decode_snapshot_delta(body, f.tick, DeltaRefs{&frames.back(), nullptr, &server_view}, kinds, decoded).ok());
  EXPECT_EQ(decoded, f);
}

// Kinds that did not say they move smoothly are never fitted: the body spends no bit naming frames.
TEST(SnapshotDeltaFit, OnlyKindsRegisteredAsSmoothAreFitted) {
  Rng rng(test::test_seed(6));
  const ReplicaKinds plain = ReplicaKinds::defaults();
  HeldFrames held;
  std::vector<ReplicaFrame> frames;
  const ReplicaFrame f = eight_frames(rng, frames, held);
  std::vector<uint8_t> body;
  const auto stats = encode_snapshot_delta(f, DeltaRefs{&frames.back(), nullptr, &held}, plain, body);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->fit_frames, 0u);
  ReplicaFrame decoded;
  ASSERT_TRUE(decode_snapshot_delta(body, f.tick, DeltaRefs{&frames.back(), nullptr, &held}, plain, decoded).ok());
  EXPECT_TRUE(decoded.states == f.states);
  const auto fitted = encode_snapshot_delta(f, DeltaRefs{&frames.back(), nullptr, &held}, fitting_kinds(), body);
  ASSERT_TRUE(fitted.ok());
  EXPECT_NE(fitted->fit_frames, 0u) << "the same frames fit once their kinds say so";
}

}  // namespace
}  // namespace tickwire
