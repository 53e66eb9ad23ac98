// Forgiveness end to end over the reference mover: the predictor's claims judged by the gate on a
// server stepping the same pawn. A starving server that adopts our claims never makes the camera
// alternate between two positions; a claim in flight when the server teleports the pawn is refused
// at forgiveness 0 and the teleport stands; a client claiming 10x its speed never moves the pawn
// faster than the mover allows plus the radius.
#include <gtest/gtest.h>

#include <cstdio>

#include "prediction_rig.h"
#include "support.h"
#include "tickwire/core/rng.h"

namespace tickwire::world {
namespace {

using test::move_cmd;
using test::PredictionRig;
using test::PredictionRigConfig;

// From half a second in (the standing start done), how the drawn and raw feet moved along +z.
struct WalkTrace {
  std::size_t drawn_backwards = 0;  // frames the camera stepped back
  std::size_t raw_backwards = 0;    // frames an unsmoothed camera would have stepped back
  float slowest_frame_m = 1e9f;
  std::size_t server_backwards = 0;  // server ticks the authoritative pawn stepped back
};

WalkTrace trace_walk(const PredictionRig& rig) {
  WalkTrace t;
  for (std::size_t i = 1; i < rig.frames.size(); ++i) {
    if (rig.frames[i].at < MonoTime{} + Duration::milliseconds(500)) continue;
    const float drawn_step_m = rig.frames[i].drawn.z - rig.frames[i - 1].drawn.z;
    t.slowest_frame_m = std::min(t.slowest_frame_m, drawn_step_m);
    if (drawn_step_m < 0) ++t.drawn_backwards;
    if (rig.frames[i].raw.z < rig.frames[i - 1].raw.z) ++t.raw_backwards;
  }
  for (std::size_t i = 31; i < rig.server_positions.size(); ++i) {
    if (rig.server_positions[i].z < rig.server_positions[i - 1].z) ++t.server_backwards;
  }
  return t;
}

TEST(ForgivenessLoop, AStarvingServerWithAdoptedClaimsNeverMakesTheCameraAlternate) {
  const uint64_t seed = tickwire::test::test_seed(0xf0f0);
  Rng rng(seed);
  PredictionRigConfig config;
  config.forgiveness = 0.0;
  // The client's clock runs 2-20% slow for a 60 Hz server (far past what clock regulation would
  // let stand): every second, one to ten ticks find no input.
  config.client_tick = Duration::nanoseconds(rng.between(17000000, 20000000));
  config.up_delay = Duration::milliseconds(rng.between(30, 70));
  config.down_delay = Duration::milliseconds(rng.between(30, 70));
  PredictionRig rig(config);
  rig.place({0, 0, 0});
  rig.script = [](uint32_t) { return move_cmd(0.0f); };  // a straight walk along +z
  rig.run_for(Duration::seconds(20));

  ASSERT_GT(rig.starved_ticks, 20u);
  ASSERT_GT(rig.gate.adopted(), rig.claims_judged * 9 / 10);
  const PredictorStats& stats = rig.predictor.stats();
  EXPECT_EQ(stats.snaps.total(), 0u);
  EXPECT_GT(stats.skips[ReconcileSkip::starved_tick], 20u);
  EXPECT_LT(rig.max_absorbed_jump_m, 1e-3f);
  const WalkTrace t = trace_walk(rig);
  EXPECT_EQ(t.drawn_backwards, 0u) << "slowest frame " << t.slowest_frame_m << " m";
  EXPECT_EQ(t.server_backwards, 0u);  // and no one else sees the pawn jitter either
  std::printf("client tick %.3f ms, up %.0f ms, down %.0f ms: %llu starved ticks held back, %llu of %llu claims "
              "adopted, %llu corrections, drawn stepped back %zu times (slowest frame %.4f m), server %zu\n",
              config.client_tick.milliseconds_f(), config.up_delay.milliseconds_f(), config.down_delay.milliseconds_f(),
              static_cast<unsigned long long>(stats.skips[ReconcileSkip::starved_tick]),
              static_cast<unsigned long long>(rig.gate.adopted()), static_cast<unsigned long long>(rig.claims_judged),
              static_cast<unsigned long long>(stats.corrections), t.drawn_backwards, t.slowest_frame_m,
              t.server_backwards);
}

TEST(ForgivenessLoop, TheLiteralRuleEchoesEveryRoundTripAndTheCameraStillNeverStepsBack) {
  // The control for the defaults: every snapshot reconciled and replayed (no starved-tick hold, no
  // confirmed prediction kept). One stall of the client's clock starves the server once; that
  // tick's motion comes back through our claims every round trip from then on, and every one of
  // those corrections, after adopted claims included, is eased: the camera never steps back.
  // Keeping confirmed predictions alone turns the echo into a single correction.
  for (bool keep_confirmed : {false, true}) {
    PredictionRigConfig config;
    config.forgiveness = 0.0;
    PredictorConfig predictor_config;
    predictor_config.hold_on_starved_ticks = false;
    predictor_config.keep_confirmed_prediction = keep_confirmed;
    PredictionRig rig(config, predictor_config);
    rig.place({0, 0, 0});
    rig.script = [](uint32_t) { return move_cmd(0.0f); };
    rig.run_for(Duration::seconds(1));
    rig.delay_client(Duration::milliseconds(30));
    rig.run_for(Duration::seconds(4));
    EXPECT_GE(rig.starved_ticks, 1u);
    const PredictorStats& stats = rig.predictor.stats();
    if (keep_confirmed) {
      EXPECT_EQ(stats.corrections, rig.starved_ticks);
    } else {
      EXPECT_GT(stats.corrections, 10 * rig.starved_ticks);
    }
    EXPECT_EQ(stats.snaps.total(), 0u);
    EXPECT_LT(rig.max_absorbed_jump_m, 1e-3f);
    const WalkTrace t = trace_walk(rig);
    EXPECT_EQ(t.drawn_backwards, 0u) << "slowest frame " << t.slowest_frame_m << " m";
    if (!keep_confirmed) {
      EXPECT_GT(t.raw_backwards, 10u);  // unsmoothed, the camera would alternate
    }
    std::printf("%s: %llu starved ticks, %llu corrections (p99 %.4f m) in 4 s; the raw camera stepped back %zu "
                "times, the drawn one %zu\n",
                keep_confirmed ? "keeping confirmed predictions" : "literal rule",
                static_cast<unsigned long long>(rig.starved_ticks), static_cast<unsigned long long>(stats.corrections),
                stats.correction_m.quantile_m(0.99), t.raw_backwards, t.drawn_backwards);
  }
}

// Walks +z; at tick 90 the server places the pawn `offset_x_m` to the side. Returns the rig after 3 s.
void teleport_during_walk(PredictionRig& rig, float offset_x_m) {
  rig.place({0, 0, 0});
  rig.script = [](uint32_t) { return move_cmd(0.0f); };
  rig.on_server_tick = [&rig, offset_x_m](int64_t tick, PawnState& pawn) {
    if (tick == 90) rig.placer.place(pawn, {{offset_x_m, 0, pawn.feet.z}, {}, 0, 0, false}, rig.config.settings);
  };
  rig.run_for(Duration::seconds(3));
}

TEST(ForgivenessLoop, AStaleClaimAfterATeleportIsRefusedAtForgivenessZero) {
  for (float offset_x_m : {0.3f, 20.0f}) {  // inside the 0.5 m radius (only the epoch refuses it), and far
    PredictionRigConfig config;
    config.forgiveness = 0.0;
    PredictionRig rig(config);
    teleport_during_walk(rig, offset_x_m);
    // Every claim simulated before the placement was in flight for ~50 ms: refused by its epoch.
    EXPECT_GE(rig.gate.refusals()[ClaimRefusal::stale_epoch], 3u) << offset_x_m;
    EXPECT_LE(rig.gate.refusals()[ClaimRefusal::stale_epoch], 12u) << offset_x_m;
    EXPECT_EQ(rig.gate.refusals().total(), rig.gate.refusals()[ClaimRefusal::stale_epoch]) << offset_x_m;
    // The teleport stands: from tick 90 on, the server's pawn never returns to the old line.
    for (std::size_t tick = 90; tick < rig.server_positions.size(); ++tick) {
      ASSERT_FLOAT_EQ(rig.server_positions[tick].x, offset_x_m) << "tick " << tick;
    }
    EXPECT_EQ(rig.predictor.stats().snaps[SnapReason::placement_epoch], 1u);
    EXPECT_EQ(rig.predictor.predicted().placement_epoch, 2);  // spawn, then the teleport
    EXPECT_GT(rig.gate.adopted(), 150u);  // claims under the new epoch are adopted again
    std::printf("teleport %.1f m at forgiveness 0: %llu stale claims refused, %llu adopted\n", offset_x_m,
                static_cast<unsigned long long>(rig.gate.refusals()[ClaimRefusal::stale_epoch]),
                static_cast<unsigned long long>(rig.gate.adopted()));
  }
}

TEST(ForgivenessLoop, WithoutTheEpochAStaleClaimWouldHaveUndoneTheTeleport) {
  // The control for the test above: a peer whose claims always name epoch 2 (the one the teleport
  // makes). Its claims from the old line, in flight over the teleport, pass the epoch check and
  // undo the placement: the failure the epoch byte exists to prevent.
  PredictionRigConfig config;
  config.forgiveness = 0.0;
  PredictionRig rig(config);
  rig.make_claim = [&rig] {
    auto claim = rig.predictor.claim();
    if (claim) claim->placement_epoch = 2;
    return claim;
  };
  teleport_during_walk(rig, 0.3f);
  EXPECT_FLOAT_EQ(rig.server_positions[90].x, 0.3f);
  EXPECT_FLOAT_EQ(rig.server_positions[95].x, 0.0f);  // undone: back on the old line
}

TEST(ForgivenessLoop, ASpeedHackNeverOutrunsTheMoverPlusTheRadius) {
  for (float factor : {10.0f, 3.0f}) {  // 10x is past the radius at once; 3x is inside it, and spends the allowance
    PredictionRigConfig config;
    config.forgiveness = 0.01;  // the least that bounds a claim: at 0 the gate adopts unconditionally
    PredictionRig rig(config);
    rig.place({0, 0, 0});
    rig.script = [](uint32_t) { return move_cmd(0.0f, 1.0f, kButtonRun); };  // running: the mover's limit, 7 m/s
    // The cheat claims `factor` times each tick's predicted move, with an honest-looking velocity.
    rig.make_claim = [&rig, factor] {
      auto claim = rig.predictor.claim();
      if (!claim) return claim;
      const protocol::Vec3 step = rig.predictor.predicted().position - rig.predictor.previous().position;
      claim->position = rig.predictor.previous().position + step * factor;
      return claim;
    };
    constexpr int kSeconds = 5;
    rig.run_for(Duration::seconds(kSeconds));
    const MoverSpeedLimit limit = max_speed_mps(rig.config.settings, rig.server_pawn);
    const float tick_limit_m = limit.horizontal_mps * static_cast<float>(test::kServerTickS);
    const float radius_m = rig.gate.radius_m();
    float path_m = 0, worst_tick_m = 0;
    for (std::size_t i = 1; i < rig.server_positions.size(); ++i) {
      const float moved_m = protocol::horizontal_length(rig.server_positions[i] - rig.server_positions[i - 1]);
      path_m += moved_m;
      worst_tick_m = std::max(worst_tick_m, moved_m);
    }
    const float limit_path_m = limit.horizontal_mps * static_cast<float>(rig.server_positions.size() - 1) *
                               static_cast<float>(test::kServerTickS);
    EXPECT_LE(worst_tick_m, tick_limit_m + radius_m + 1e-3f) << factor;
    EXPECT_LE(path_m, limit_path_m + radius_m + 1e-2f) << factor;
    EXPECT_GT(rig.gate.refusals()[ClaimRefusal::position_beyond_radius] +
                  rig.gate.refusals()[ClaimRefusal::speed_beyond_mover],
              100u)
        << factor;
    std::printf("%.0fx hack for %d s: pawn path %.2f m (mover limit %.2f m + radius %.2f m), "
                "worst tick %.3f m, %llu adopted, %llu past the radius, %llu past the speed allowance\n",
                factor, kSeconds, path_m, limit_path_m, radius_m, worst_tick_m,
                static_cast<unsigned long long>(rig.gate.adopted()),
                static_cast<unsigned long long>(rig.gate.refusals()[ClaimRefusal::position_beyond_radius]),
                static_cast<unsigned long long>(rig.gate.refusals()[ClaimRefusal::speed_beyond_mover]));
  }
}

}  // namespace
}  // namespace tickwire::world
