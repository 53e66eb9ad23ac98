// The bandwidth scenarios, short, for correctness only (the byte goals are the bench's): decoded
// frames equal the server's and lie within precision under loss; the TWCUBES1 reader refuses
// malformed files; the physics trace repeats bit for bit; the bodies keep their promised speeds.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include "bandwidth_bench.h"
#include "bandwidth_harness.h"
#include "bodies_scenario.h"
#include "props_scenario.h"
#include "cube_physics.h"
#include "cube_trace.h"
#include "cubes_scenario.h"
#include "precision_check.h"
#include "support.h"
#include "tickwire/core/bytes.h"

namespace tickwire::bench {
namespace {

void expect_correct(const BandwidthResult& r) {
  SCOPED_TRACE(r.scenario);
  EXPECT_EQ(r.encode_errors, 0u);
  EXPECT_EQ(r.decode_errors, 0u);
  EXPECT_EQ(r.mismatches, 0u) << "a decoded frame differs from the server's";
  EXPECT_EQ(r.precision.failures, 0u) << r.precision.first_failure;
  EXPECT_GT(r.precision.values_checked, 0u);
  EXPECT_EQ(r.delivered + r.lost, r.ticks);
  EXPECT_GT(r.delivered, 0u);
  // Acks come back after the round trip: most ticks are coded against an acknowledged snapshot.
  EXPECT_GT(r.ticks_vs_snapshot, r.ticks / 2);
  EXPECT_LE(r.mean_baseline_age_ticks, 32.0);
}

TEST(BandwidthScenarios, EachDecodesExactlyAndWithinPrecisionUnderLoss) {
  const uint64_t seed = test::test_seed(6);
  for (const char* which : {"lights", "cubes", "bodies", "props"}) {
    BenchRequest request;
    request.which = which;
    request.ticks = 90;
    request.seed = seed;
    const BenchRun run = run_bandwidth_benches(request);
    ASSERT_TRUE(run.error.empty()) << run.error;
    ASSERT_EQ(run.results.size(), 1u);
    expect_correct(run.results[0]);
  }
}

TEST(BandwidthScenarios, HeavyLossStillDecodesExactly) {
  const uint64_t seed = test::test_seed(61);
  BodiesScenario scenario(seed, 90);
  HarnessOptions options;
  options.seed = seed;
  options.snapshot_loss = 0.5;
  const BandwidthResult r = run_bandwidth_scenario(scenario, options);
  EXPECT_GT(r.lost, 20u);
  EXPECT_EQ(r.decode_errors, 0u);
  EXPECT_EQ(r.mismatches, 0u);
  EXPECT_EQ(r.precision.failures, 0u) << r.precision.first_failure;
}

TEST(PropsScenario, TheBotsShoveCratesAndTheMovingOnesCostTheirPoses) {
  const uint64_t seed = test::test_seed(62);
  PropsScenario scenario(seed, 600);
  HarnessOptions options;
  options.seed = seed;
  const BandwidthResult r = run_bandwidth_scenario(scenario, options);
  expect_correct(r);
  EXPECT_GT(scenario.pushes(), 100u) << "the wandering pawns shove crates";
  EXPECT_GT(r.moving_updates, 100u) << "shoved crates move on the wire";
  EXPECT_GT(r.resting_updates, r.moving_updates) << "most crates stand still";
  EXPECT_GT(r.bits_per_moving_update, r.bits_per_resting_update);
}

TEST(BandwidthScenarios, UnknownScenarioIsRefused) {
  BenchRequest request;
  request.which = "teapots";
  const BenchRun run = run_bandwidth_benches(request);
  EXPECT_FALSE(run.error.empty());
  EXPECT_TRUE(run.results.empty());
  EXPECT_FALSE(run.correct());
}

TEST(BodiesScenario, SpeedsStayWithinTwoToTenMetresPerSecond) {
  const BodiesScenario scenario(test::test_seed(7));
  for (uint32_t body = 0; body < BodiesScenario::kBodies; ++body) {
    for (double t_s = 0; t_s <= 60; t_s += 0.5) {
      const double v = scenario.speed_mps(body, t_s);
      ASSERT_GE(v, 2.0) << "body " << body << " t " << t_s;
      ASSERT_LE(v, 10.0) << "body " << body << " t " << t_s;
    }
  }
}

TEST(BodiesScenario, RotationBitsMeetTheAngleBound) {
  const uint8_t bits = BodiesScenario::rotation_bits_for_bound();
  EXPECT_LE(smallest_three_angle_bound_rad(bits), BodiesScenario::kMaxAngleErrorRad);
  EXPECT_GT(smallest_three_angle_bound_rad(bits - 1), BodiesScenario::kMaxAngleErrorRad);
}

TEST(PrecisionCheck, AngleBetweenRotationsIgnoresSign) {
  const wire::Quat a{0, 0, std::sin(0.05f), std::cos(0.05f)};
  const wire::Quat minus_a{-a.x, -a.y, -a.z, -a.w};
  EXPECT_NEAR(rotation_angle_rad(a, minus_a), 0.0, 1e-3);
  EXPECT_NEAR(rotation_angle_rad(a, wire::Quat{}), 0.1, 1e-5);
}

TEST(CubePhysics, TheSameSeedGivesTheSameTraceBitForBit) {
  const CubeTrace a = simulate_cube_scene(CubeSceneConfig{3, 40, 60, CubeSceneConfig::kDefaultSpacingM});
  const CubeTrace b = simulate_cube_scene(CubeSceneConfig{3, 40, 60, CubeSceneConfig::kDefaultSpacingM});
  ASSERT_EQ(a.cubes, 901u);
  ASSERT_EQ(a.frames(), 40u);
  EXPECT_TRUE(serialize_cube_trace(a) == serialize_cube_trace(b));
  // The player moves; the scene is inside its bounds.
  EXPECT_NE(a.at(0, 0), a.at(39, 0));
  for (const CubePose& p : a.poses) {
    ASSERT_GE(p.pz, 0.0f);
    ASSERT_LT(p.pz, 32.0f);
    ASSERT_LT(std::fabs(p.px), 256.0f);
  }
}

// The grid's spacing is a scene parameter (`--cube-spacing`): frame 0 stands the cubes that far
// apart, and a spacing the scene cannot hold is refused by the bench, not simulated.
TEST(CubePhysics, TheGridStandsAtTheRequestedSpacing) {
  const CubeTrace trace = simulate_cube_scene(CubeSceneConfig{3, 2, 60, 2.5f});
  ASSERT_EQ(trace.cubes, 901u);
  const CubePose& first = trace.at(0, 1);
  const CubePose& next = trace.at(0, 2);  // the same row, one column on
  EXPECT_NEAR(next.px - first.px, 2.5f, 0.01f);
  EXPECT_NEAR(next.py - first.py, 0.0f, 0.01f);
  BenchRequest request;
  request.which = "cubes";
  request.ticks = 2;
  request.cube_spacing_m = 0.5f;  // the 1 m cubes would overlap
  EXPECT_FALSE(run_bandwidth_benches(request).error.empty());
  request.cube_spacing_m = 2.0f;
  request.trace_path = "unused.twcubes";  // a replayed trace has its own spacing
  EXPECT_FALSE(run_bandwidth_benches(request).error.empty());
}

CubeTrace small_trace() {
  CubeTrace trace;
  trace.cubes = 2;
  trace.hz = 60;
  trace.poses = {{0, 0, 1, 0, 0, 0, 1}, {1, 2, 0.5f, 0, 0, 0.6f, 0.8f}, {0.1f, 0, 1, 0, 0, 0, 1}, {1, 2, 0.5f, 0, 0, 0.6f, 0.8f}};
  return trace;
}

TEST(CubeTrace, RoundTripsThroughItsFileFormat) {
  const CubeTrace trace = small_trace();
  const std::vector<uint8_t> bytes = serialize_cube_trace(trace);
  ASSERT_EQ(bytes.size(), CubeTrace::kHeaderBytes + 4 * CubeTrace::kPoseBytes);
  EXPECT_EQ(std::memcmp(bytes.data(), "TWCUBES1", 8), 0);
  EXPECT_EQ(load_le<uint32_t>(bytes.data() + 8), 2u);  // frames
  CubeTrace back;
  const TraceLoad load = parse_cube_trace(bytes, back);
  ASSERT_TRUE(load.ok) << load.error;
  EXPECT_EQ(back, trace);
}

TEST(CubeTrace, MalformedFilesAreRefusedWithAReason) {
  const std::vector<uint8_t> good = serialize_cube_trace(small_trace());
  CubeTrace out;
  auto refused = [&out](std::vector<uint8_t> bytes) {
    const TraceLoad load = parse_cube_trace(bytes, out);
    EXPECT_FALSE(load.error.empty());
    return !load.ok;
  };
  EXPECT_TRUE(refused({}));
  EXPECT_TRUE(refused(std::vector<uint8_t>(good.begin(), good.begin() + 10)));
  std::vector<uint8_t> magic = good;
  magic[7] = '2';
  EXPECT_TRUE(refused(magic));
  EXPECT_TRUE(refused(std::vector<uint8_t>(good.begin(), good.end() - 1)));  // truncated pose
  std::vector<uint8_t> longer = good;
  longer.push_back(0);
  EXPECT_TRUE(refused(longer));
  std::vector<uint8_t> many_frames = good;
  store_le<uint32_t>(many_frames.data() + 8, 0xFFFFFFFFu);  // never allocates for it
  EXPECT_TRUE(refused(many_frames));
  std::vector<uint8_t> many_cubes = good;
  store_le<uint32_t>(many_cubes.data() + 12, CubeTrace::kMaxCubes + 1);
  EXPECT_TRUE(refused(many_cubes));
  std::vector<uint8_t> no_cubes = good;
  store_le<uint32_t>(no_cubes.data() + 12, 0);
  EXPECT_TRUE(refused(no_cubes));
  std::vector<uint8_t> bad_hz = good;
  store_le<float>(bad_hz.data() + 16, std::numeric_limits<float>::quiet_NaN());
  EXPECT_TRUE(refused(bad_hz));
  std::vector<uint8_t> nan_pose = good;
  store_le<float>(nan_pose.data() + CubeTrace::kHeaderBytes + 4, std::numeric_limits<float>::infinity());
  EXPECT_TRUE(refused(nan_pose));
  std::vector<uint8_t> not_unit = good;
  store_le<float>(not_unit.data() + CubeTrace::kHeaderBytes + 6 * 4, 2.0f);  // qw of the first pose
  EXPECT_TRUE(refused(not_unit));
}

TEST(CubeTrace, AFileTraceReplaysThroughTheBench) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "tickwire_bench_trace_test.twcubes";
  const CubeTrace trace = simulate_cube_scene(CubeSceneConfig{5, 31, 60, CubeSceneConfig::kDefaultSpacingM});
  ASSERT_TRUE(write_cube_trace_file(path.string(), trace).ok);
  BenchRequest request;
  request.which = "cubes";
  request.trace_path = path.string();
  const BenchRun run = run_bandwidth_benches(request);
  std::filesystem::remove(path);
  ASSERT_TRUE(run.error.empty()) << run.error;
  ASSERT_EQ(run.results.size(), 1u);
  EXPECT_EQ(run.results[0].ticks, 30u);
  EXPECT_TRUE(run.results[0].correct()) << run.results[0].precision.first_failure;
}

TEST(CubeTrace, AMissingFileIsAnError) {
  BenchRequest request;
  request.which = "cubes";
  request.trace_path = "/nonexistent/trace.twcubes";
  const BenchRun run = run_bandwidth_benches(request);
  EXPECT_NE(run.error.find("/nonexistent/trace.twcubes"), std::string::npos) << run.error;
}

}  // namespace
}  // namespace tickwire::bench
