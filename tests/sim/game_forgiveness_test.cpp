// Forgiveness through the whole game: real clients send claims over the network, the real room
// hands them to the reference game's ForgivenessGate, and ClaimAccepted comes back in the owner
// detail. Claims inside the tolerance are adopted (and reported accepted), beyond it corrected; a
// claim from before a teleport is refused at forgiveness 0 and the teleport stands; a client
// claiming 10x its speed never moves its pawn faster than the mover allows plus the tolerance.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <vector>

#include "game_sim.h"
#include "support.h"
#include "tickwire/protocol/vec3_math.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

GameSimConfig flat(double forgiveness) {
  GameSimConfig config;
  config.map_text = flat_map_json();
  config.forgiveness = forgiveness;
  return config;
}

// A client whose own simulation drifts sideways by `drift_m` every tick (a different build, a
// modified mover): its claims say where that put the pawn.
class DriftingModel final : public PredictionModel {
 public:
  DriftingModel(const PredictionModel& honest, float drift_m) : honest_(honest), drift_m_(drift_m) {}
  PredictedState step(const PredictedState& state, const protocol::InputCmd& cmd, double dt_s) const override {
    PredictedState next = honest_.step(state, cmd, dt_s);
    next.position.x += drift_m_;
    return next;
  }

 private:
  const PredictionModel& honest_;
  float drift_m_;
};

// A speed hack: each tick moves the pawn `factor` times as far horizontally as the mover does.
class SpeedHackModel final : public PredictionModel {
 public:
  SpeedHackModel(const PredictionModel& honest, float factor) : honest_(honest), factor_(factor) {}
  PredictedState step(const PredictedState& state, const protocol::InputCmd& cmd, double dt_s) const override {
    PredictedState next = honest_.step(state, cmd, dt_s);
    next.position.x = state.position.x + (next.position.x - state.position.x) * factor_;
    next.position.z = state.position.z + (next.position.z - state.position.z) * factor_;
    return next;
  }

 private:
  const PredictionModel& honest_;
  float factor_;
};

InputSource stand_still() {
  return [](uint32_t) { return protocol::InputCmd{}; };
}

// At forgiveness 0.25 (a 0.375 m radius): a client drifting 2 cm a tick is adopted every time (and
// told so), its pawn drifting with it on the server; one drifting 1 m a tick is corrected every
// time (and told so), its pawn staying where the server's mover put it.
TEST(GameForgiveness, ClaimsInsideToleranceAreAcceptedAndBeyondItCorrected) {
  const uint64_t seed = test_seed(0xf0f0);
  GameSim sim(seed, flat(0.25));
  const DriftingModel slight(sim.honest_model, 0.02f);
  const DriftingModel wild(sim.honest_model, 1.0f);
  GameClientSetup setup;
  setup.up = setup.down = steady_link(40.0, 5.0);
  setup.input = stand_still();
  setup.model = &slight;
  SimGameClient& inside = sim.add_client(setup);
  setup.model = &wild;
  SimGameClient& beyond = sim.add_client(setup);
  std::optional<float> start_in_x, start_out_x;  // where each pawn stood when first stepped
  sim.watched.after_tick = [&](Tick) {
    if (!start_in_x && inside.client.session().welcomed()) start_in_x = sim.pawn_of(inside).feet.x;
    if (!start_out_x && beyond.client.session().welcomed()) start_out_x = sim.pawn_of(beyond).feet.x;
  };
  sim.run_for(Duration::seconds(10));
  ASSERT_TRUE(sim.all_welcomed());
  const GameClientCounters& in = inside.client.counters();
  const GameClientCounters& out = beyond.client.counters();
  std::printf("[ game ] forgiveness 0.25: drifting 2 cm/tick: %llu accepted, %llu corrected; 1 m/tick: %llu accepted, "
              "%llu corrected; gate: %llu adopted, %llu refused beyond the radius\n",
              static_cast<unsigned long long>(in.claims_accepted), static_cast<unsigned long long>(in.claims_corrected),
              static_cast<unsigned long long>(out.claims_accepted), static_cast<unsigned long long>(out.claims_corrected),
              static_cast<unsigned long long>(sim.game.gate().adopted()),
              static_cast<unsigned long long>(sim.game.gate().refusals()[ClaimRefusal::position_beyond_radius]));
  EXPECT_GT(in.claims_accepted, 400u);
  EXPECT_EQ(in.claims_corrected, 0u);
  EXPECT_EQ(out.claims_accepted, 0u);
  EXPECT_GT(out.claims_corrected, 400u);
  // The telemetry is the gate's own verdicts (less the last few still on their way at the end).
  EXPECT_GE(sim.game.gate().adopted(), in.claims_accepted);
  EXPECT_LE(sim.game.gate().adopted(), in.claims_accepted + 10);
  // The adopted drift moved the server's pawn; the refused one did not.
  ASSERT_TRUE(start_in_x && start_out_x);
  EXPECT_GT(std::fabs(sim.pawn_of(inside).feet.x - *start_in_x), 5.0f);
  EXPECT_LT(std::fabs(sim.pawn_of(beyond).feet.x - *start_out_x), 1e-3f);
  // And both clients' reports carry the counts.
  EXPECT_EQ(inside.client.quality_report()->claims_accepted, in.claims_accepted);
  EXPECT_EQ(beyond.client.quality_report()->claims_corrected, out.claims_corrected);
}

// Forgiveness 0 adopts any claim within 0.5 m. The server teleports the walking pawn 0.3 m
// sideways: the claims already in flight describe the old line and would pass the radius, but they
// carry the old placement epoch and are refused; from the teleport on the pawn never returns to
// the old line, and the client's own claims (after it snapped) are adopted again.
TEST(GameForgiveness, AStaleEpochClaimAfterATeleportIsRefusedAtForgivenessZero) {
  const uint64_t seed = test_seed(0x5e0c);
  GameSim sim(seed, flat(0.0));
  GameClientSetup setup;
  setup.up = setup.down = steady_link(50.0, 5.0);
  setup.input = walk_forward();
  SimGameClient& walker = sim.add_client(setup);
  const float old_x = sim.map.spawn_points()[0].position.x, new_x = old_x + 0.3f;
  int64_t teleport_tick = -1;
  uint64_t off_the_new_line = 0, after_teleport = 0;
  sim.watched.after_tick = [&](Tick tick) {
    if (!walker.client.session().welcomed()) return;
    const world::PawnState& pawn = sim.pawn_of(walker);
    if (teleport_tick < 0 && tick.value() >= 300) {
      teleport_tick = tick.value();
      sim.game.place_pawn(walker.pawn(), world::Placement{{new_x, pawn.feet.y, pawn.feet.z}, pawn.velocity_mps, 0, 0, false});
      return;
    }
    if (teleport_tick < 0) return;
    ++after_teleport;
    if (std::fabs(sim.pawn_of(walker).feet.x - new_x) > 1e-4f) ++off_the_new_line;
  };
  const uint64_t accepted_before = [&] {
    sim.run_for(Duration::seconds(5));
    return walker.client.counters().claims_accepted;
  }();
  sim.run_for(Duration::seconds(5));
  const uint64_t stale = sim.game.gate().refusals()[ClaimRefusal::stale_epoch];
  std::printf("[ game ] teleport at forgiveness 0 (tick %lld): %llu stale claims refused, %llu server ticks after it, "
              "%llu off the new line; claims accepted %llu before, %llu in all, %llu corrected\n",
              static_cast<long long>(teleport_tick), static_cast<unsigned long long>(stale),
              static_cast<unsigned long long>(after_teleport), static_cast<unsigned long long>(off_the_new_line),
              static_cast<unsigned long long>(accepted_before),
              static_cast<unsigned long long>(walker.client.counters().claims_accepted),
              static_cast<unsigned long long>(walker.client.counters().claims_corrected));
  ASSERT_GE(teleport_tick, 0);
  EXPECT_GE(stale, 3u);  // a round trip of claims was in flight
  EXPECT_EQ(walker.client.counters().claims_corrected, stale);
  EXPECT_GT(after_teleport, 200u);
  EXPECT_EQ(off_the_new_line, 0u);  // the teleport was never undone
  EXPECT_EQ(walker.client.predictor()->stats().snaps[SnapReason::placement_epoch], 1u);
  EXPECT_GT(walker.client.counters().claims_accepted, accepted_before + 200);  // adopted again after it
}

// Forgiveness 0.01 (the most lenient that still bounds a claim: a 0.495 m radius; at 0 the gate
// adopts unconditionally, as a closed embedded host wants): a client claiming 10x the mover's
// horizontal motion every tick. Over every stretch of server ticks the pawn travels no further than
// the mover's limit for that time plus one radius.
TEST(GameForgiveness, ASpeedHackClaimStreamNeverOutrunsTheMoverPlusTolerance) {
  const uint64_t seed = test_seed(0x10c5);
  GameSim sim(seed, flat(0.01));
  const SpeedHackModel hack(sim.honest_model, 10.0f);
  GameClientSetup setup;
  setup.up = setup.down = steady_link(40.0, 5.0);
  setup.input = walk_forward();
  setup.model = &hack;
  SimGameClient& cheat = sim.add_client(setup);
  std::vector<protocol::Vec3> feet;  // the pawn after each server tick since the welcome
  float limit_mps = 0;
  sim.watched.after_tick = [&](Tick) {
    if (!cheat.client.session().welcomed() || sim.game.pawn(cheat.pawn()) == nullptr) return;
    const world::PawnState& pawn = sim.pawn_of(cheat);
    feet.push_back(pawn.feet.to_wire());
    limit_mps = std::max(limit_mps, world::max_speed_mps(sim.mover.settings(), pawn).horizontal_mps);
  };
  sim.run_for(Duration::seconds(10));
  ASSERT_GT(feet.size(), 500u);
  const double tick_s = sim.room.seconds_per_tick();
  const double radius_m = sim.game.gate().radius_m();
  double worst_excess_m = -1e9;
  for (std::size_t i = 0; i < feet.size(); ++i) {
    for (std::size_t j = i + 1; j < feet.size(); ++j) {
      const protocol::Vec3 d = feet[j] - feet[i];
      const double moved_m = std::hypot(d.x, d.z);
      const double allowed_m = limit_mps * static_cast<double>(j - i) * tick_s + radius_m;
      worst_excess_m = std::max(worst_excess_m, moved_m - allowed_m);
    }
  }
  const protocol::Vec3 total = feet.back() - feet.front();
  std::printf("[ game ] 10x speed hack at forgiveness 0.01: %.1f m in %.1f s (mover limit %.1f m/s, radius %.2f m); worst "
              "stretch %.4f m past limit x time + radius; claims %llu accepted, %llu corrected\n",
              std::hypot(total.x, total.z), static_cast<double>(feet.size()) * tick_s, limit_mps, radius_m, worst_excess_m,
              static_cast<unsigned long long>(cheat.client.counters().claims_accepted),
              static_cast<unsigned long long>(cheat.client.counters().claims_corrected));
  EXPECT_LE(worst_excess_m, 1e-3);
  EXPECT_GT(cheat.client.counters().claims_corrected, 100u);
}

}  // namespace
}  // namespace tickwire
