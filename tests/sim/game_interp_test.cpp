// Remote interpolation through the whole game. A host that delivers in 83 ms bursts (5 ticks at a
// time, nothing lost), on the link or in the server's own oversleeping loop: no render-clock snap
// and no held frame. Lost snapshots: every frame whose render time falls in a gap lerps across it,
// exactly on the walker's true path, and a frame is held only when the snapshots it needed were
// really lost (a lossless twin on the same latency had them at that instant).
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "game_profiles.h"
#include "tickwire/protocol/vec3_math.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

TEST(GameInterp, BurstHostLinkNeverSnapsNorHolds) {
  const uint64_t seed = test_seed(0xb0a7);
  const ProfileRun run = run_profile("burst-host", seed, 4, Duration::seconds(15));
  ASSERT_EQ(run.welcomed, 4u);
  EXPECT_GE(run.all.max_burst, 4u);  // the bursts really came in clumps
  expect_no_held_or_snapped(run);
}

// The server's own host oversleeps to 83 ms: each wake runs the due ticks (at most the catch-up cap
// per update, the rest at once after) and sends their snapshots back to back; the link itself is
// the burst-host profile's latency and jitter without its delivery windows.
TEST(GameInterp, BurstingServerHostNeverSnapsNorHolds) {
  const uint64_t seed = test_seed(0xb0a8);
  LinkModel link = *link_profile("burst-host");
  link.stall_ms = link.stall_every_ms = 0.0;
  GameSimConfig config;
  config.server_wake_every = Duration::milliseconds(83);
  GameSim sim(seed, config);
  GameClientSetup setup;
  setup.up = setup.down = link;
  for (int i = 0; i < 4; ++i) sim.add_client(setup);
  sim.run_for(Duration::seconds(15));
  ProfileRun run;
  run.all = sim.print_reports("[ game ] server-host-bursts");
  for (const auto& c : sim.clients) run.clients.push_back(*c->client.quality_report());
  run.invariants = sim.invariants;
  EXPECT_GE(run.all.max_burst, 4u);
  expect_no_held_or_snapped(run);
}

struct LossRig {
  explicit LossRig(uint64_t seed, double loss) : sim(seed, flat_config()) {
    GameClientSetup steady;
    steady.up = steady.down = steady_link(30.0);
    steady.frame_jitter = 0.0;  // twin and lossy frame at the same instants
    steady.input = walk_forward();
    twin = &sim.add_client(steady);
    GameClientSetup lossy = steady;
    lossy.down.loss = loss;
    lossy.input = walk_forward();
    observer = &sim.add_client(lossy);
    GameClientSetup walking = steady;
    walking.input = walk_forward();
    walker = &sim.add_client(walking);
    sim.watched.after_tick = [this](Tick tick) {
      if (walker->client.session().welcomed()) truth[tick.value()] = sim.pawn_of(*walker).feet.to_wire();
    };
    sim.after_frame = [this](SimGameClient& c) { check_frame(c); };
  }

  static GameSimConfig flat_config() {
    GameSimConfig config;
    config.map_text = flat_map_json();
    return config;
  }

  // The walker's true feet at a fractional tick (linear between the server's ticks).
  std::optional<protocol::Vec3> truth_at(double tick) const {
    const auto t0 = static_cast<int64_t>(std::floor(tick));
    auto a = truth.find(t0), b = truth.find(t0 + 1);
    if (a == truth.end() || b == truth.end()) return std::nullopt;
    return a->second + (b->second - a->second) * static_cast<float>(tick - static_cast<double>(t0));
  }

  void check_frame(SimGameClient& c) {
    if (&c != observer) return;
    const RemoteInterpolator* interp = c.client.interpolator();
    const RemoteInterpolator* twin_interp = twin->client.interpolator();
    if (interp == nullptr || twin_interp == nullptr || interp->timeline().empty()) return;
    // A held frame: the twin, on the same latency without loss, had a newer snapshot right now.
    if (interp->counters().held_frames > held_seen) {
      held_seen = interp->counters().held_frames;
      ++held_checked;
      if (!(twin_interp->timeline().newest() > interp->timeline().newest())) ++held_without_loss;
    }
    // Gaps are judged once the walker walks at its full, steady speed.
    if (sim.world.now < MonoTime::from_seconds(3.0)) return;
    const double render = interp->render_tick();
    const Tick below = Tick::from_value(static_cast<int64_t>(std::floor(render)));
    if (render >= static_cast<double>(interp->timeline().newest().value()) || interp->timeline().at(below) != nullptr) {
      return;
    }
    // The render time falls in a gap of lost snapshots: it must lerp across it, on the true path.
    ++gap_frames;
    const InterpSample drawn = interp->sample(walker->pawn().handle());
    const auto truth_now = truth_at(drawn.render_tick);
    if (drawn.state != SampleState::interpolated || !truth_now) {
      ++gap_not_lerped;
      return;
    }
    worst_gap_error_m = std::max(worst_gap_error_m, protocol::length(drawn.sample.position_m - *truth_now));
  }

  GameSim sim;
  SimGameClient* twin = nullptr;
  SimGameClient* observer = nullptr;
  SimGameClient* walker = nullptr;
  std::map<int64_t, protocol::Vec3> truth;  // the walker's feet after each server tick
  uint64_t held_seen = 0, held_checked = 0, held_without_loss = 0;
  uint64_t gap_frames = 0, gap_not_lerped = 0;
  float worst_gap_error_m = 0;
};

// 8% loss: single gaps, lerped across. 30% loss: runs of lost snapshots longer than the delay,
// so some frames hold; each of those is a frame whose snapshots were really lost.
TEST(GameInterp, LostSnapshotsLerpAcrossTheGapAndHoldOnlyOnRealLoss) {
  const uint64_t seed = test_seed(0x1055);
  for (const double loss : {0.08, 0.30}) {
    LossRig rig(seed, loss);
    rig.sim.run_for(Duration::seconds(20));
    ASSERT_TRUE(rig.sim.all_welcomed());
    const QualityReport twin = *rig.twin->client.quality_report();
    const QualityReport lossy = *rig.observer->client.quality_report();
    const std::string name = "[ game ] " + std::to_string(static_cast<int>(loss * 100)) + "% snapshot loss";
    std::fputs(format_quality_report("[ game ] lossless twin", twin).c_str(), stdout);
    std::fputs(format_quality_report(name, lossy).c_str(), stdout);
    std::printf("%s: %llu frames in gaps (%llu not lerped, worst %.6f m off the true path), held %llu "
                "(%llu without a lost snapshot)\n",
                name.c_str(), static_cast<unsigned long long>(rig.gap_frames),
                static_cast<unsigned long long>(rig.gap_not_lerped), rig.worst_gap_error_m,
                static_cast<unsigned long long>(rig.held_checked), static_cast<unsigned long long>(rig.held_without_loss));
    EXPECT_EQ(rig.sim.invariants.total(), 0u);
    // Lossless: never a held frame nor a snap.
    EXPECT_EQ(twin.held_frames, 0u);
    EXPECT_EQ(twin.render_snaps, 0u);
    // Lossy: plenty of frames fell in gaps; every one lerped across on the walker's true path.
    EXPECT_GT(rig.gap_frames, 100u) << loss;
    EXPECT_EQ(rig.gap_not_lerped, 0u) << loss;
    EXPECT_LT(rig.worst_gap_error_m, 1e-3f) << loss;
    // Held frames only where snapshots were really lost.
    EXPECT_EQ(rig.held_checked, lossy.held_frames) << loss;
    EXPECT_EQ(rig.held_without_loss, 0u) << loss;
    if (loss > 0.2) {
      EXPECT_GT(lossy.held_frames, 0u) << "30% loss should lose runs longer than the delay";
    }
  }
}

}  // namespace
}  // namespace tickwire
