// The reference game's prediction model and the predictor over the real mover: the model steps
// bit for bit as the CharacterMover does; a client replaying the mover reproduces the server
// exactly over a seeded course run; leaving noclip flight at 400 m/s is an honest mispredict that
// is eased, never snapped; a crouch the server authored (a ceiling the client learnt late) eases
// the eye height down instead of dropping the camera.
#include "tickwire/world/mover_prediction_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "prediction_rig.h"
#include "support.h"
#include "tickwire/core/rng.h"

namespace tickwire::world {
namespace {

using test::kFloor;
using test::move_cmd;
using test::PredictionRig;
using test::PredictionRigConfig;

std::vector<Aabb> crates() {
  return {kFloor,
          {{2, 0, 2}, {3, 0.5f, 3}},
          {{-4, 0, 1}, {-2, 1.0f, 5}},
          {{-8, 1.5f, -8}, {-4, 2.0f, -4}},  // a 1.5 m ceiling
          {{-30, 0, -30}, {30, 4, -29}},
          {{-30, 0, 29}, {30, 4, 30}},
          {{-30, 0, -30}, {-29, 4, 30}},
          {{29, 0, -30}, {30, 4, 30}}};
}

// Scripted input: each intent held for 6 to 60 ticks; run, jump, crouch at random.
protocol::InputCmd scripted(Rng& rng, protocol::InputCmd& held, int& hold_ticks) {
  if (hold_ticks-- <= 0) {
    hold_ticks = static_cast<int>(rng.between(6, 60));
    held.yaw_deg = static_cast<float>(rng.unit() * 360.0);
    held.pitch_deg = static_cast<float>(rng.unit() * 180.0 - 90.0);
    held.move_x = static_cast<float>(rng.unit() * 2.0 - 1.0);
    held.move_y = static_cast<float>(rng.unit() * 2.0 - 1.0);
    held.buttons = (rng.chance(0.5) ? kButtonRun : 0u) | (rng.chance(0.3) ? kButtonJump : 0u);
    if (rng.chance(0.2)) held.buttons |= kButtonCrouch;
  }
  return held;
}

TEST(MoverPredictionModel, StepsBitForBitAsTheMover) {
  const uint64_t seed = tickwire::test::test_seed(0x30de);
  Rng rng(seed);
  MoverSettings settings;
  CharacterMover mover(settings);
  const std::vector<Aabb> boxes = crates();
  MoverPredictionModel model(mover, boxes);
  PawnState pawn;
  PawnPlacer().place(pawn, {{0, 0.5f, 0}, {}, 0, 0, false}, settings);
  protocol::InputCmd held;
  int hold = 0;
  for (int i = 0; i < 3000; ++i) {
    const protocol::InputCmd cmd = as_sent(scripted(rng, held, hold));
    if (i == 1000) pawn.noclip = true;
    if (i == 1500) pawn.noclip = false;
    if (i == 2000) pawn.frozen = true;
    if (i == 2100) pawn.frozen = false;
    const PredictedState predicted = model.step(predicted_from_pawn(pawn), cmd, test::kServerTickS);
    pawn = mover.step(pawn, cmd, static_cast<float>(test::kServerTickS), boxes);
    ASSERT_EQ(predicted, predicted_from_pawn(pawn)) << "step " << i;
    PawnState back = pawn_from_predicted(predicted);
    back.yaw_deg = pawn.yaw_deg;
    back.pitch_deg = pawn.pitch_deg;
    ASSERT_EQ(std::memcmp(&back.feet, &pawn.feet, sizeof(Vec3)), 0);
    ASSERT_EQ(back.noclip, pawn.noclip);
    ASSERT_EQ(back.frozen, pawn.frozen);
    ASSERT_EQ(back.crouched, pawn.crouched);
    ASSERT_EQ(back.grounded, pawn.grounded);
    ASSERT_EQ(back.placement_epoch, pawn.placement_epoch);
  }
}

TEST(MoverPrediction, AReplayOfTheMoverReproducesTheServerExactly) {
  const uint64_t seed = tickwire::test::test_seed(0x30df);
  // Replaying every snapshot through the mover, and keeping confirmed predictions (each confirm is
  // the server's pawn equal, bit for bit, to what we predicted for that input): both exact.
  for (bool keep_confirmed : {false, true}) {
    Rng rng(seed);
    PredictorConfig predictor_config;
    predictor_config.keep_confirmed_prediction = keep_confirmed;
    PredictionRig rig(PredictionRigConfig{}, predictor_config);
    rig.server_boxes = crates();
    rig.set_client_boxes(crates());
    // On the floor and at rest: the idle ticks the server runs before our first input arrives do
    // not move it (from mid-air they would: an honest start-up correction, not this test's subject).
    rig.place({0, 0, 0});
    protocol::InputCmd held;
    int hold = 0;
    rig.script = [&](uint32_t) { return scripted(rng, held, hold); };
    rig.run_for(Duration::seconds(20));
    const PredictorStats& stats = rig.predictor.stats();
    EXPECT_EQ(stats.corrections, 0u);
    EXPECT_EQ(stats.value_corrections, 0u);
    EXPECT_EQ(stats.residues_dropped, 0u);
    EXPECT_EQ(stats.snaps.total(), 0u);
    EXPECT_EQ(rig.starved_ticks, 0u);
    EXPECT_GT(stats.reconciles, 1100u);
    if (keep_confirmed) {
      EXPECT_GT(stats.confirmed, stats.reconciles - 10);
    } else {
      EXPECT_GT(stats.replayed, 5 * stats.reconciles);
    }
    for (const test::RigFrame& f : rig.frames) ASSERT_EQ(f.drawn, f.raw);  // the offset never left zero
    std::printf("20 s over the course (%s): %llu reconciles, %llu confirmed, %llu inputs replayed, 0 corrections\n",
                keep_confirmed ? "keeping confirmed" : "replaying all", static_cast<unsigned long long>(stats.reconciles),
                static_cast<unsigned long long>(stats.confirmed), static_cast<unsigned long long>(stats.replayed));
  }
}

TEST(MoverPrediction, LeavingNoclipAt400IsEasedNotSnapped) {
  PredictionRigConfig config;
  config.settings.noclip_speed_mps = 400.0f;
  PredictionRig rig(config);
  rig.server_pawn.noclip = true;  // granted before the session starts
  rig.place({0, 50, 0});
  rig.script = [](uint32_t) { return move_cmd(0.0f); };
  rig.on_server_tick = [](int64_t tick, PawnState& pawn) {
    if (tick == 60) pawn.noclip = false;  // the server takes flight away
  };
  rig.run_for(Duration::seconds(2));
  const PredictorStats& stats = rig.predictor.stats();
  EXPECT_EQ(stats.snaps.total(), 0u);
  EXPECT_GE(stats.corrections, 1u);
  // A round trip of inputs flown at 400 m/s that the server walked instead: tens of metres.
  EXPECT_GT(stats.correction_m.max_m(), 20.0);
  EXPECT_LT(rig.max_absorbed_jump_m, 1e-3f);  // at the reconcile, the camera did not move
  EXPECT_FALSE((rig.predictor.predicted().flags & kFlagNoclip) != 0);
  // Eased: from the correction on, no frame moves the camera by more than a quarter of it.
  float worst_frame_m = 0;
  for (std::size_t i = 1; i < rig.frames.size(); ++i) {
    worst_frame_m = std::max(worst_frame_m, protocol::length(rig.frames[i].drawn - rig.frames[i - 1].drawn));
  }
  EXPECT_LT(worst_frame_m, 0.25 * stats.correction_m.max_m() + 400.0 / 240.0);
  EXPECT_EQ(rig.predictor.offset_m(), protocol::Vec3{});  // long gone after 2 s
  std::printf("noclip 400 -> walk: correction %.2f m eased (largest frame step %.2f m), 0 snaps\n",
              stats.correction_m.max_m(), worst_frame_m);
}

TEST(MoverPrediction, AServerAuthoredCrouchEasesTheEye) {
  PredictionRig rig(PredictionRigConfig{});
  rig.place({0, 0, 0});
  // The player crouches, then lets go at tick 50, the tick a slab comes down over the pawn on the
  // server (1.2 m up: no room to stand). The server takes the let-go three ticks later, under the
  // slab, and stays down; the client stood up on its own and hears of the slab three ticks later.
  const Aabb slab{{-2, 1.2f, -2}, {2, 1.5f, 2}};
  rig.script = [](uint32_t sequence) {
    protocol::InputCmd cmd = test::idle_cmd();
    if (sequence < 50) cmd.buttons |= kButtonCrouch;
    return cmd;
  };
  rig.on_server_tick = [&](int64_t tick, PawnState&) {
    if (tick == 50) rig.server_boxes.push_back(slab);
  };
  rig.on_client_learns = [&](int64_t sent_tick) {
    if (sent_tick >= 50 && rig.client_boxes.size() == 1) rig.set_client_boxes({kFloor, slab});
  };
  rig.run_for(Duration::seconds(2));
  EXPECT_TRUE(rig.server_pawn.crouched);
  EXPECT_TRUE((rig.predictor.predicted().flags & kFlagCrouched) != 0);
  const PredictorStats& stats = rig.predictor.stats();
  EXPECT_EQ(stats.value_corrections, 1u);
  EXPECT_EQ(stats.snaps.total(), 0u);
  EXPECT_LT(rig.max_absorbed_jump_m, 1e-3f);
  // The eye rose when the client stood up on its own; from its peak it eases back down: never up,
  // never more than a quarter of the 0.8 m correction in one frame, and it ends crouched.
  const float standing_eye_m = rig.config.settings.standing_eye_m;
  std::size_t peak = 0;
  for (std::size_t i = 0; i < rig.frames.size(); ++i) {
    if (rig.frames[i].drawn_eye_m >= standing_eye_m - 1e-4f) peak = i;
  }
  ASSERT_GT(peak, 0u);
  float worst_step_m = 0;
  for (std::size_t i = peak + 1; i < rig.frames.size(); ++i) {
    const float step_m = rig.frames[i - 1].drawn_eye_m - rig.frames[i].drawn_eye_m;
    ASSERT_GE(step_m, 0.0f) << "frame " << i;
    worst_step_m = std::max(worst_step_m, step_m);
  }
  EXPECT_LT(worst_step_m, 0.25f * (standing_eye_m - rig.config.settings.crouched_eye_m));
  EXPECT_FLOAT_EQ(rig.frames.back().drawn_eye_m, rig.config.settings.crouched_eye_m);
  std::printf("server-authored crouch: eye eased down, largest frame step %.3f m\n", worst_step_m);
}

}  // namespace
}  // namespace tickwire::world
