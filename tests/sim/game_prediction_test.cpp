// The own pawn's prediction through the whole game: the real room steps it with the reference
// mover, the real client predicts and reconciles it, and every frame's drawn camera is checked.
// A starving server with adopted claims: the camera walks a straight line monotonically. A teleport
// and a respawn snap the offsets; leaving noclip at 400 m/s is eased, not snapped; a crouch the
// server authored (a ceiling the client learnt late) eases the eye down.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "game_sim.h"
#include "tickwire/world/pawn_buttons.h"
#include "tickwire/world/reference_vocabulary.h"
#include "support.h"
#include "tickwire/protocol/vec3_math.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

GameSimConfig flat(double forgiveness = 1.0, bool slab = false) {
  GameSimConfig config;
  config.map_text = flat_map_json(slab);
  config.forgiveness = forgiveness;
  return config;
}

struct DrawnFrame {
  MonoTime at;
  protocol::Vec3 feet;
  float eye_m = 0;
  uint64_t snaps = 0;  // the predictor's snaps so far
};

// Records every frame of `c` once its prediction started.
void record_frames(GameSim& sim, SimGameClient& watched, std::vector<DrawnFrame>& frames) {
  sim.after_frame = [&sim, &watched, &frames](SimGameClient& c) {
    if (&c != &watched || c.client.predictor() == nullptr || !c.client.predictor()->started()) return;
    frames.push_back(DrawnFrame{sim.world.now, c.client.drawn_position(), c.client.drawn_value(world::kValueEyeHeight),
                                c.client.predictor()->stats().snaps.total()});
  };
}

// Inputs reach the server in bursts (the up link delivers only at the end of a 100 ms window every
// second), so the server starves every second; the room's forgiveness adopts the claims. The drawn
// camera must walk the straight line forward, never back (never alternating between two places).
TEST(GamePrediction, StarvingServerWithAdoptedClaimsDrawsAMonotonicWalk) {
  const uint64_t seed = test_seed(0x5a7e);
  GameSim sim(seed, flat(0.25));
  GameClientSetup setup;
  setup.up = steady_link(30.0);
  setup.up.stall_ms = 150.0;
  setup.up.stall_every_ms = 1000.0;
  setup.down = steady_link(30.0);
  setup.input = walk_forward();
  SimGameClient& walker = sim.add_client(setup);
  std::vector<DrawnFrame> frames;
  record_frames(sim, walker, frames);
  sim.run_for(Duration::seconds(20));
  const QualityReport r = *walker.client.quality_report();
  std::fputs(format_quality_report("[ game ] starving+claims", r).c_str(), stdout);
  ASSERT_GT(frames.size(), 2000u);
  uint64_t backward = 0;
  float worst_back_m = 0, worst_sideways_m = 0;
  for (std::size_t i = 1; i < frames.size(); ++i) {
    const float dz = frames[i].feet.z - frames[i - 1].feet.z;
    if (dz < -1e-4f) {
      ++backward;
      worst_back_m = std::max(worst_back_m, -dz);
    }
    worst_sideways_m = std::max(worst_sideways_m, std::fabs(frames[i].feet.x - frames[0].feet.x));
  }
  std::printf("[ game ] starving+claims: %zu frames, %llu backward (worst %.4f m), sideways %.5f m, z %.1f -> %.1f m\n",
              frames.size(), static_cast<unsigned long long>(backward), worst_back_m, worst_sideways_m,
              frames.front().feet.z, frames.back().feet.z);
  EXPECT_GT(r.starved_readings, 20u);  // the server really starved, again and again
  EXPECT_GT(r.claims_accepted, 600u);  // and adopted the claims
  EXPECT_EQ(backward, 0u);
  EXPECT_LT(worst_sideways_m, 1e-3f);
  EXPECT_GT(frames.back().feet.z - frames.front().feet.z, 60.0f);  // it really walked
  EXPECT_EQ(sim.invariants.total(), 0u);
}

// The server teleports the walking pawn 5 m sideways at tick 300 and respawns it at its spawn
// point at tick 600: each placement snaps the offsets (the camera jumps the whole way in one
// frame, nothing eases across it), and nothing else is corrected.
TEST(GamePrediction, TeleportAndRespawnSnapTheOffsets) {
  const uint64_t seed = test_seed(0x7e1e);
  GameSim sim(seed, flat());
  GameClientSetup setup;
  setup.up = setup.down = steady_link(40.0, 5.0);
  setup.input = walk_forward();
  SimGameClient& walker = sim.add_client(setup);
  std::vector<DrawnFrame> frames;
  record_frames(sim, walker, frames);
  int64_t placements = 0;
  sim.watched.after_tick = [&](Tick tick) {
    if (!walker.client.session().welcomed()) return;
    const world::PawnState& pawn = sim.pawn_of(walker);
    if (placements == 0 && tick.value() >= 300) {
      sim.game.place_pawn(walker.pawn(), world::Placement{pawn.feet + world::Vec3{5, 0, 0}, pawn.velocity_mps, 0, 0, false});
      ++placements;
    } else if (placements == 1 && tick.value() >= 600) {
      sim.game.place_pawn(walker.pawn(), world::Placement{sim.map.spawn_points()[0].position, {}, 0, 0, false});
      ++placements;
    }
  };
  sim.run_for(Duration::seconds(14));
  const PredictorStats& stats = walker.client.predictor()->stats();
  ASSERT_EQ(placements, 2);
  EXPECT_EQ(stats.snaps[SnapReason::placement_epoch], 2u);
  EXPECT_EQ(stats.snaps[SnapReason::ring_overflow], 0u);
  EXPECT_EQ(stats.corrections, 0u);
  // The frames the snaps happened on: the camera jumped the whole way at once.
  std::vector<float> jumps;
  for (std::size_t i = 1; i < frames.size(); ++i) {
    if (frames[i].snaps != frames[i - 1].snaps) jumps.push_back(protocol::length(frames[i].feet - frames[i - 1].feet));
  }
  ASSERT_EQ(jumps.size(), 2u);
  std::printf("[ game ] teleport: camera jumped %.2f m at the teleport, %.2f m at the respawn, 2 snaps\n", jumps[0], jumps[1]);
  EXPECT_GT(jumps[0], 4.9f);   // 5 m sideways (plus a frame of walking)
  EXPECT_GT(jumps[1], 30.0f);  // back to the spawn point from far down the line
  EXPECT_EQ(walker.client.predictor()->offset_m(), protocol::Vec3{});
}

// noclip at 400 m/s: the server grants flight at tick 120 and takes it away at tick 180. Each
// change reaches the client a round trip late, so its prediction is tens of metres off twice; both
// corrections are eased (no snap: no placement happened), each frame moving the camera no more than
// a quarter of the correction plus a frame of flight.
TEST(GamePrediction, Noclip400MispredictIsEasedNotSnapped) {
  const uint64_t seed = test_seed(0x400);
  GameSimConfig config = flat();
  config.mover.noclip_speed_mps = 400.0f;
  GameSim sim(seed, config);
  GameClientSetup setup;
  setup.up = setup.down = steady_link(50.0, 5.0);
  setup.input = walk_forward();
  SimGameClient& flyer = sim.add_client(setup);
  std::vector<DrawnFrame> frames;
  record_frames(sim, flyer, frames);
  sim.watched.after_tick = [&](Tick tick) {
    if (!flyer.client.session().welcomed()) return;
    if (tick.value() == 120) sim.game.set_noclip(flyer.pawn(), true);
    if (tick.value() == 180) sim.game.set_noclip(flyer.pawn(), false);
  };
  sim.run_for(Duration::seconds(6));
  const PredictorStats& stats = flyer.client.predictor()->stats();
  float worst_step_m = 0;
  for (std::size_t i = 1; i < frames.size(); ++i) {
    worst_step_m = std::max(worst_step_m, protocol::length(frames[i].feet - frames[i - 1].feet));
  }
  const double frame_flight_m = 400.0 * 1.2 / 144.0;  // the longest jittered frame at full flight
  std::printf("[ game ] noclip 400: %llu corrections, largest %.1f m, eased (largest frame step %.2f m), %llu snaps\n",
              static_cast<unsigned long long>(stats.corrections), stats.correction_m.max_m(), worst_step_m,
              static_cast<unsigned long long>(stats.snaps.total()));
  EXPECT_EQ(stats.snaps.total(), 0u);
  EXPECT_GE(stats.corrections, 2u);
  EXPECT_GT(stats.correction_m.max_m(), 20.0);
  EXPECT_LT(worst_step_m, 0.25 * stats.correction_m.max_m() + frame_flight_m);
  EXPECT_FALSE((flyer.client.predictor()->predicted().flags & world::kFlagNoclip) != 0);
  EXPECT_EQ(flyer.client.predictor()->offset_m(), protocol::Vec3{});
}

// The player crouch-walks under a slab 1.2 m up and lets go of crouch there. The server keeps the
// pawn crouched (no room to stand); the client's copy of the map lacks the slab until ~150 ms after
// the let-go, so it stood up on its own. When it learns the slab, the replay puts the eye back down:
// one eye correction, eased (never a jump, never up again), ending crouched.
TEST(GamePrediction, AServerAuthoredCrouchEasesTheEye) {
  const uint64_t seed = test_seed(0xc20c);
  GameSim sim(seed, flat(1.0, /*slab=*/true));
  std::vector<world::Aabb> client_boxes;
  for (const world::Aabb& box : sim.map.boxes()) {
    if (box.min.y < 1.0f) client_boxes.push_back(box);  // everything but the slab
  }
  world::MoverPredictionModel late_model(sim.mover, client_boxes);
  constexpr uint32_t kLetGo = 240;
  GameClientSetup setup;
  setup.up = setup.down = steady_link(40.0);
  setup.model = &late_model;
  setup.input = [](uint32_t sequence) {
    protocol::InputCmd cmd;
    if (sequence < kLetGo) cmd.buttons |= world::kButtonCrouch;
    cmd.move_y = sequence < kLetGo ? 1.0f : 0.0f;
    return cmd;
  };
  SimGameClient& player = sim.add_client(setup);
  std::vector<DrawnFrame> frames;
  bool learnt = false;
  sim.after_frame = [&](SimGameClient& c) {
    const Predictor* p = c.client.predictor();
    if (p == nullptr || !p->started()) return;
    frames.push_back(DrawnFrame{sim.world.now, c.client.drawn_position(), c.client.drawn_value(world::kValueEyeHeight), p->stats().snaps.total()});
    if (!learnt && c.produced_at.size() > kLetGo && sim.world.now >= c.produced_at[kLetGo] + Duration::milliseconds(150)) {
      learnt = true;
      late_model.set_static_boxes(sim.map.boxes());
    }
  };
  sim.run_for(Duration::seconds(8));
  ASSERT_TRUE(learnt);
  const world::MoverSettings& settings = sim.mover.settings();
  EXPECT_TRUE(sim.pawn_of(player).crouched);
  EXPECT_GT(sim.pawn_of(player).feet.z, -397.0f + settings.radius_m);  // it is under the slab
  const PredictorStats& stats = player.client.predictor()->stats();
  EXPECT_GE(stats.value_corrections, 1u);
  EXPECT_EQ(stats.snaps.total(), 0u);
  std::size_t peak = 0;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (frames[i].eye_m >= settings.standing_eye_m - 1e-4f) peak = i;
  }
  ASSERT_GT(peak, 0u) << "the client stood up on its own first";
  float worst_step_m = 0;
  for (std::size_t i = peak + 1; i < frames.size(); ++i) {
    const float step_m = frames[i - 1].eye_m - frames[i].eye_m;
    ASSERT_GE(step_m, -1e-6f) << "the eye rose again at frame " << i;
    worst_step_m = std::max(worst_step_m, step_m);
  }
  std::printf("[ game ] server-authored crouch: %llu eye corrections, eye eased down (largest frame step %.3f m)\n",
              static_cast<unsigned long long>(stats.value_corrections), worst_step_m);
  EXPECT_LT(worst_step_m, 0.25f * (settings.standing_eye_m - settings.crouched_eye_m));
  EXPECT_FLOAT_EQ(frames.back().eye_m, settings.crouched_eye_m);
}

}  // namespace
}  // namespace tickwire
