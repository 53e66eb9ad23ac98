// A rider on a lift over the simulated network (seed 000: doors and their riders predicted on the
// Quake 3 trajectory): a timer sends the lift up and down; the server carries the pawn standing on
// it, the client predicts the lift at the tick each un-acked input runs on (the replicated fraction
// plus that many ticks of its rate), so the ride logs no correction; only the news of a start (the
// timer's toggle, which no trajectory knows) may cost one, of at most a latency window of travel; and
// the rider is drawn on the platform as drawn (the rider shift).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <string>

#include "game_profiles.h"
#include "game_sim.h"
#include "support.h"
#include "tickwire/world/box_sweep.h"
#include "tickwire/world/rider_shift.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

// A 6 x 0.2 x 6 lift whose top starts at 0.2 m, rising 3 m at 1.5 m/s; a timer toggles it every 2.5
// s (2 s of travel, then 0.5 s at rest). The spawn point stands on it.
std::string lift_map() {
  return R"({"format": "tickwire-map", "version": 2, "name": "lift", "boxes": [{"tag": "floor", "material": "concrete",)"
         R"( "min": [-50, -1, -50], "max": [50, 0, 50]}], "spawns": [{"position": [0.5, 0.3, 0.5], "yaw_deg": 0}],)"
         R"( "objects": [{"key": "lift", "kind": "door", "position": [0, 0.1, 0], "components": [{"name": "mover",)"
         R"( "channels": [0, 0], "settings": {"axis": [0, 1, 0], "distance_m": 3, "speed_mps": 1.5}}, {"name": "collider",)"
         R"( "settings": {"half_extents": [3, 0.1, 3]}}]}, {"key": "clock", "kind": "timer", "position": [0, 0, 20],)"
         R"( "components": [{"name": "timer", "settings": {"interval_s": 2.5, "start_on": 1}}],)"
         R"( "outputs": {"onTimer": [{"target": "lift", "input": "toggle"}]}}]})";
}

GameSimConfig lift_config() {
  GameSimConfig config;
  config.map_text = lift_map();
  return config;
}

// One rider on the transatlantic profile standing still (the lift does the moving), predicting with
// `model` (the sim's honest model when null).
SimGameClient& add_rider(GameSim& sim, const PredictionModel* model = nullptr) {
  GameClientSetup setup;
  setup.up = setup.down = *link_profile("transatlantic");
  setup.input = [](uint32_t) { return protocol::InputCmd{}; };
  setup.model = model;
  return sim.add_client(setup);
}

TEST(LiftRider, ARideOfAHundredCyclesLogsNoCorrectionWhileRiding) {
  const uint64_t seed = test_seed(0x11f7);
  GameSim sim(seed, lift_config());
  SimGameClient& rider = add_rider(sim);
  sim.run_for(Duration::seconds(3));
  ASSERT_TRUE(rider.client.session().welcomed());
  const uint32_t lift = *sim.map.object_index("lift");

  // Server side: each tick, the rider's feet against the lift's top, and when the lift starts.
  std::deque<MonoTime> starts;  // when a leg began (the news), newest last
  double prev_rate = 0;
  float worst_offset = 0;
  int legs = 0;
  sim.watched.after_tick = [&](Tick) {
    const world::ObjectComponent& mover = sim.game.object_component(lift, 0);
    const double rate = mover.channels[1];
    if (rate != 0 && prev_rate == 0) {
      starts.push_back(sim.world.now);
      ++legs;
    }
    prev_rate = rate;
    const float top = 0.2f + 3.0f * mover.channels[0];
    worst_offset = std::max(worst_offset, std::fabs(sim.pawn_of(rider).feet.y - top - world::kContactSkinM));
  };
  // Client side: every correction, riding (no start within the last second) or at the news.
  uint64_t last = rider.client.predictor()->stats().corrections;
  uint64_t riding = 0, at_news = 0;
  float worst_news_m = 0;
  sim.after_frame = [&](SimGameClient& c) {
    const uint64_t now = c.client.predictor()->stats().corrections;
    if (now == last) return;
    const bool news = !starts.empty() && sim.world.now - starts.back() < Duration::seconds(1);
    (news ? at_news : riding) += now - last;
    last = now;
  };
  const uint64_t snaps_before = rider.client.predictor()->stats().snaps.total();
  sim.run_for(Duration::seconds(500));  // 200 legs: 100 cycles
  const auto& histogram = rider.client.predictor()->stats().correction_m;
  worst_news_m = static_cast<float>(histogram.max_m());
  std::printf("[ lift rider ] transatlantic, seed %llu: %d legs; corrections while riding %llu, at the %d starts %llu "
              "(largest %.3f m; a latency window of travel at 1.5 m/s: ~0.2 m); server feet off the top by at most "
              "%.6f m; snaps %llu\n",
              static_cast<unsigned long long>(seed), legs, static_cast<unsigned long long>(riding), legs,
              static_cast<unsigned long long>(at_news), worst_news_m, worst_offset,
              static_cast<unsigned long long>(rider.client.predictor()->stats().snaps.total() - snaps_before));
  EXPECT_GE(legs, 199);
  EXPECT_EQ(riding, 0u) << "the trajectory predicts every tick of a ride";
  EXPECT_LE(at_news, static_cast<uint64_t>(legs)) << "a start costs at most one correction";
  EXPECT_LT(worst_news_m, 0.3f) << "of at most a latency window of travel";
  EXPECT_LT(worst_offset, 0.001f) << "the rider's offset on the platform drifts under a millimetre";
  EXPECT_EQ(rider.client.predictor()->stats().snaps.total(), snaps_before);
}

// The drawn rider shift: the pawn is predicted ahead of the render time, so unshifted it stands off
// the platform as drawn by the travel of that lead; shifted by the platform's drawn pose minus the
// pose it stood on, it is drawn on the drawn platform (within 1 cm) the whole ride.
TEST(LiftRider, TheDrawnRiderStaysOnTheDrawnPlatform) {
  GameSim sim(test_seed(0x11f9), lift_config());
  SimGameClient& rider = add_rider(sim);
  sim.run_for(Duration::seconds(3));
  const uint32_t lift = *sim.map.object_index("lift");
  const uint8_t mover_id = static_cast<uint8_t>(world::ComponentWireId::mover);
  const auto drawn_fraction = [&](uint32_t index) -> std::optional<double> {
    const std::optional<ObjectSample> sample = rider.client.object(index);
    const SectionSample* section = sample ? sample->section(mover_id) : nullptr;
    return section != nullptr ? std::optional<double>(section->channels[0]) : std::nullopt;
  };
  MonoTime last_start = sim.world.now;
  double prev_rate = 0;
  sim.watched.after_tick = [&](Tick) {
    const double rate = sim.game.object_component(lift, 0).channels[1];
    if (rate != 0 && prev_rate == 0) last_start = sim.world.now;
    prev_rate = rate;
  };
  float worst_shifted = 0, worst_unshifted = 0;
  uint64_t frames = 0;
  sim.after_frame = [&](SimGameClient& c) {
    if (sim.world.now - last_start < Duration::seconds(1)) return;  // a start's correction still easing
    const world::Vec3 shift = world::rider_shift(sim.solids, c.client.predictor()->predicted(),
                                                 sim.mover.settings().radius_m, c.client.prediction_context(),
                                                 c.client.frame_alpha(), drawn_fraction);
    const float top = 0.2f + 3.0f * static_cast<float>(drawn_fraction(lift).value_or(0.0));
    const float feet = c.facade->own_position().y;
    worst_unshifted = std::max(worst_unshifted, std::fabs(feet - top));
    worst_shifted = std::max(worst_shifted, std::fabs(feet + shift.y - top));
    ++frames;
  };
  sim.run_for(Duration::seconds(60));
  std::printf("[ lift rider ] drawn over %llu riding frames: the pawn off the drawn platform by at most %.4f m shifted, "
              "%.4f m unshifted\n",
              static_cast<unsigned long long>(frames), worst_shifted, worst_unshifted);
  EXPECT_GT(frames, 3000u);
  EXPECT_LT(worst_shifted, 0.01f);
  EXPECT_GT(worst_unshifted, 0.1f) << "the lead the shift takes away";
}

// The control: a client predicting against the lift as nothing (the statics only) is corrected on
// every leg, again and again while it rides.
TEST(LiftRider, WithoutTheTrajectoryTheRideIsCorrectedAllTheWay) {
  GameSim sim(test_seed(0x11f8), lift_config());
  const world::MoverPredictionModel blind(sim.mover, sim.statics);
  SimGameClient& rider = add_rider(sim, &blind);
  sim.run_for(Duration::seconds(23));
  const uint64_t corrections = rider.client.predictor()->stats().corrections;
  std::printf("[ lift rider ] predicting without the lift: %llu corrections in 23 s (8 legs)\n",
              static_cast<unsigned long long>(corrections));
  EXPECT_GT(corrections, 100u);
}

}  // namespace
}  // namespace tickwire
