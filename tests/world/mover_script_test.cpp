// Long scripted runs of the mover: two identical 10,000-step runs are bit-identical at every step
// (server and client replay through the same code), and over a 10 s run no step moves the pawn
// further than max_speed_mps allows, while the run does reach each limit (run, terminal fall, noclip).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "mover_rig.h"
#include "support.h"
#include "tickwire/core/rng.h"

namespace tickwire::world {
namespace {

using test::kFloor;
using test::kTickS;

// A course with something to collide with at every turn: crates to land on, thin walls, a low
// ceiling, a tall pillar.
std::vector<Aabb> course() {
  std::vector<Aabb> boxes{kFloor};
  boxes.push_back({{2, 0, 2}, {3, 0.5f, 3}});
  boxes.push_back({{-4, 0, 1}, {-2, 1.0f, 5}});
  boxes.push_back({{-20, 0, 8}, {20, 3, 8.1f}});        // thin wall across +z
  boxes.push_back({{8, 0, -20}, {8.1f, 3, 20}});        // thin wall across +x
  boxes.push_back({{-8, 1.5f, -8}, {-4, 2.0f, -4}});    // 1.5 m ceiling
  boxes.push_back({{-1, 0, -12}, {1, 30, -10}});        // pillar
  boxes.push_back({{-30, 0, -30}, {30, 4, -29}});       // outer walls keep the pawn on the course
  boxes.push_back({{-30, 0, 29}, {30, 4, 30}});
  boxes.push_back({{-30, 0, -30}, {-29, 4, 30}});
  boxes.push_back({{29, 0, -30}, {30, 4, 30}});
  return boxes;
}

// Scripted input: each intent (look, move axes, buttons, crouch) held for 6 to 90 ticks.
class InputScript {
 public:
  explicit InputScript(uint64_t seed) : rng_(seed) {}

  protocol::InputCmd next() {
    if (hold_ticks_ == 0) {
      hold_ticks_ = static_cast<int>(rng_.between(6, 90));
      cmd_.yaw_deg = static_cast<float>(rng_.unit() * 360.0);
      cmd_.pitch_deg = static_cast<float>(rng_.unit() * 180.0 - 90.0);
      cmd_.move_x = static_cast<float>(rng_.between(-1, 1));
      cmd_.move_y = rng_.chance(0.3) ? static_cast<float>(rng_.unit() * 2.0 - 1.0) : 1.0f;
      cmd_.buttons = (rng_.chance(0.5) ? kButtonRun : 0u) | (rng_.chance(0.3) ? kButtonJump : 0u);
      if (rng_.chance(0.2)) cmd_.buttons |= kButtonCrouch;
    }
    --hold_ticks_;
    return cmd_;
  }

 private:
  Rng rng_;
  protocol::InputCmd cmd_;
  int hold_ticks_ = 0;
};

std::array<uint32_t, 14> state_bits(const PawnState& s) {
  auto b = [](float v) { return std::bit_cast<uint32_t>(v); };
  const uint32_t flags = (s.grounded ? 1u : 0u) | (s.crouched ? 2u : 0u) | (s.noclip ? 4u : 0u) |
                         (s.frozen ? 8u : 0u) | (static_cast<uint32_t>(s.placement_epoch.value) << 8);
  return {b(s.feet.x),         b(s.feet.y),         b(s.feet.z),   b(s.velocity_mps.x), b(s.velocity_mps.y),
          b(s.velocity_mps.z), b(s.yaw_deg),        b(s.pitch_deg), b(s.stance_height_m), b(s.eye_height_m),
          flags,               0u,                  0u,            0u};
}

// What the server does between steps in the script (identically on both runs): flip the server-owned
// flags, and after each second of noclip flight (which leaves the course) teleport the pawn back.
void apply_server(test::MoverRig& rig, int step) {
  const int flight_phase = step % 2000;
  rig.pawn.noclip = flight_phase >= 1700 && flight_phase < 1760;
  rig.pawn.frozen = (step % 3000) >= 2900;
  if (flight_phase == 1760) rig.place({0, 0, 0}, rig.pawn.yaw_deg);
}

struct RunTrace {
  std::vector<std::array<uint32_t, 14>> states;
  int jumps = 0, crouched_ticks = 0, blocked_ticks = 0;
  float travelled_m = 0;
};

RunTrace scripted_run(uint64_t seed, int steps) {
  MoverSettings settings;
  settings.noclip_speed_mps = 400.0f;
  test::MoverRig rig(settings);
  rig.boxes = course();
  rig.place({0, 0, 0});
  InputScript script(seed);
  RunTrace trace;
  trace.states.reserve(static_cast<size_t>(steps));
  for (int i = 0; i < steps; ++i) {
    apply_server(rig, i);
    const PawnState before = rig.pawn;
    const protocol::InputCmd cmd = script.next();
    rig.run(cmd, 1);
    trace.states.push_back(state_bits(rig.pawn));
    if (before.grounded && rig.pawn.velocity_mps.y > 0.0f) ++trace.jumps;
    if (rig.pawn.crouched) ++trace.crouched_ticks;
    if (cmd.move_y == 1.0f && !rig.pawn.noclip && !rig.pawn.frozen &&
        (rig.pawn.velocity_mps.x == 0.0f || rig.pawn.velocity_mps.z == 0.0f))
      ++trace.blocked_ticks;
    const Vec3 d = rig.pawn.feet - before.feet;
    trace.travelled_m += d.length();
  }
  return trace;
}

TEST(MoverScript, TwoIdenticalRunsAreBitIdenticalOver10000Steps) {
  const uint64_t seed = tickwire::test::test_seed(7001);
  constexpr int kSteps = 10000;
  const RunTrace a = scripted_run(seed, kSteps);
  const RunTrace b = scripted_run(seed, kSteps);
  ASSERT_EQ(a.states.size(), static_cast<size_t>(kSteps));
  for (int i = 0; i < kSteps; ++i) ASSERT_EQ(a.states[static_cast<size_t>(i)], b.states[static_cast<size_t>(i)]) << "step " << i;
  std::printf("[ run ] travelled %.1f m, %d jumps, %d crouched ticks, %d blocked ticks\n",
              static_cast<double>(a.travelled_m), a.jumps, a.crouched_ticks, a.blocked_ticks);
  // The run exercised the mover rather than standing still.
  EXPECT_GT(a.travelled_m, 1000.0f);
  EXPECT_GT(a.jumps, 20);
  EXPECT_GT(a.crouched_ticks, 500);
  EXPECT_GT(a.blocked_ticks, 100);
  // A different script gives a different run (the comparison can fail).
  const RunTrace c = scripted_run(seed + 1, 200);
  EXPECT_NE(c.states.back(), a.states[199]);
}

// The spacing of floats at the largest coordinate of `v`.
float resolution_m(const Vec3& v) {
  const float largest = std::max({std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)});
  return std::nextafter(largest, INFINITY) - largest;
}

// Per step: horizontal and vertical distance against max_speed_mps x dt of the state stepped from.
struct BoundCheck {
  float worst_horizontal_ratio = 0, worst_vertical_ratio = 0;

  void check(const MoverSettings& settings, const PawnState& from, const PawnState& to, int step) {
    const MoverSpeedLimit limit = max_speed_mps(settings, from);
    const Vec3 d = to.feet - from.feet;
    const float horizontal_m = std::sqrt(d.x * d.x + d.z * d.z);
    const float vertical_m = std::fabs(d.y);
    // Float rounding: a few parts in 10^7 of the step, and the position's own resolution (a
    // difference of two coordinates hundreds of metres out is only good to their last bit).
    const float slack_m = 4.0f * (resolution_m(from.feet) + resolution_m(to.feet));
    const float relative = 1.0f + 1e-6f;
    ASSERT_LE(horizontal_m, limit.horizontal_mps * kTickS * relative + slack_m) << "step " << step;
    ASSERT_LE(vertical_m, limit.vertical_mps * kTickS * relative + slack_m) << "step " << step;
    if (limit.horizontal_mps > 0.0f)
      worst_horizontal_ratio = std::max(worst_horizontal_ratio, horizontal_m / (limit.horizontal_mps * kTickS));
    if (limit.vertical_mps > 0.0f)
      worst_vertical_ratio = std::max(worst_vertical_ratio, vertical_m / (limit.vertical_mps * kTickS));
  }
};

TEST(MoverScript, MaxSpeedBoundsEveryStepOfATenSecondRun) {
  const uint64_t seed = tickwire::test::test_seed(7002);
  MoverSettings settings;
  settings.noclip_speed_mps = 400.0f;
  test::MoverRig rig(settings);
  rig.boxes = course();
  rig.place({0, 200, 0});  // a 200 m drop reaches the 55 m/s terminal speed
  InputScript script(seed);
  BoundCheck bound;
  for (int i = 0; i < 600; ++i) {
    rig.pawn.noclip = i >= 500 && i < 530;  // half a second of 400 m/s flight, then a fall
    if (i >= 420 && i < 480) rig.pawn.velocity_mps.x = 40.0f;  // something shoved it: still clamped
    const PawnState before = rig.pawn;
    protocol::InputCmd cmd = script.next();
    if (i >= 380 && i < 500) cmd.buttons |= kButtonRun;  // reach run speed
    if (i >= 500) cmd.move_y = 1.0f;
    rig.run(cmd, 1);
    bound.check(settings, before, rig.pawn, i);
    if (HasFatalFailure()) return;
  }
  std::printf("[ bound ] worst step / limit: horizontal %.6f, vertical %.6f\n",
              static_cast<double>(bound.worst_horizontal_ratio), static_cast<double>(bound.worst_vertical_ratio));
  // The limits are reached, not merely respected (run speed, terminal fall, noclip flight).
  EXPECT_GT(bound.worst_horizontal_ratio, 0.99f);
  EXPECT_GT(bound.worst_vertical_ratio, 0.99f);
}

}  // namespace
}  // namespace tickwire::world
