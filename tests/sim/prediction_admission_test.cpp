// Prediction admission through the whole system (seed 003): the reference game's room on the
// simulated network with its pawn stated as a dynamic rigidbody, a kinematic controller, or no
// controllable character, each movement asking for client prediction. A dynamic rigidbody and a
// missing controller are never predicted: the client steps no predictor, counts no correction,
// still sends every input, and draws its pawn where the server's snapshots put it (every frame,
// within a quantum of the server's pawn at the render tick). A kinematic pawn is predicted as
// before. A demotion is logged once and counted once per room, however many clients join.
#include <gtest/gtest.h>

#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "game_sim.h"
#include "support.h"
#include "test_simulation.h"
#include "tickwire/protocol/vec3_math.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

// Every warning logged through the default logger while it lives (declared before what logs).
class WarningLog {
 public:
  WarningLog() : sink_(std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(1024)), previous_(spdlog::default_logger()) {
    sink_->set_level(spdlog::level::warn);
    spdlog::set_default_logger(std::make_shared<spdlog::logger>("admission-test", sink_));
  }
  ~WarningLog() { spdlog::set_default_logger(previous_); }
  WarningLog(const WarningLog&) = delete;
  WarningLog& operator=(const WarningLog&) = delete;

  std::size_t count(const std::string& text) const {
    const std::vector<std::string> lines = sink_->last_formatted();
    return static_cast<std::size_t>(
        std::count_if(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(text) != std::string::npos; }));
  }

 private:
  std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> sink_;
  std::shared_ptr<spdlog::logger> previous_;
};

constexpr uint32_t kClients = 3;
constexpr double kJoinEveryS = 1.5;  // the clients join one after another
constexpr double kRunS = 9.0;
constexpr std::size_t kSettleTicks = 120;  // a pawn's first two seconds are not judged (prediction starting)

struct AdmissionRun {
  bool predicted = false;           // what every client's contract said
  uint64_t predicted_ticks = 0;     // over all clients
  uint64_t inputs_sent = 0;         // over all clients
  uint64_t corrections = 0;         // over all clients
  uint64_t predictors = 0;          // clients that built a predictor
  uint64_t frames_checked = 0;      // frames whose drawn pawn was compared with the server's
  double worst_error_m = 0;         // drawn pawn vs the server's pawn at the render tick
  double mean_lead_m = 0;           // drawn pawn ahead of the server's pawn at the render tick
  uint64_t own_pawn_listed = 0;     // frames that listed the own pawn among the remote entities
  float walked_m = 0;               // the least distance a pawn walked on the server
  std::map<std::string, uint64_t> reasons;  // the server's
  std::size_t demotion_warnings = 0;
};

// The server's pawn of each client at every tick (its feet, as its snapshot records them).
using PawnHistory = std::map<uint64_t, std::map<int64_t, protocol::Vec3>>;

// The server's pawn at a fractional render tick, lerped between the two ticks around it.
std::optional<protocol::Vec3> server_pawn_at(const std::map<int64_t, protocol::Vec3>& ticks, double render_tick) {
  const auto lo = static_cast<int64_t>(std::floor(render_tick));
  const auto a = ticks.find(lo);
  const auto b = ticks.find(lo + 1);
  if (a == ticks.end() || b == ticks.end()) return std::nullopt;
  const auto t = static_cast<float>(render_tick - static_cast<double>(lo));
  return a->second + (b->second - a->second) * t;
}

AdmissionRun run_admission(uint64_t seed, PawnBody body) {
  WarningLog warnings;
  GameSimConfig config;
  config.map_text = flat_map_json();
  config.prediction = PredictionPolicy{body, MovementAuthority::client_predicted};
  GameSim sim(seed, config);
  GameClientSetup setup;
  setup.up = setup.down = steady_link(50.0, 4.0);  // lossless: every tick's sample arrives
  setup.input = walk_forward();

  PawnHistory history;
  sim.watched.after_tick = [&](Tick tick) {
    for (const auto& c : sim.clients) {
      if (c->client.session().welcomed()) history[c->pawn().raw()][tick.value()] = sim.pawn_of(*c).feet.to_wire();
    }
  };
  AdmissionRun run;
  double lead_sum_m = 0;
  sim.after_frame = [&](SimGameClient& c) {
    if (!c.client.session().welcomed()) return;
    const EntityNetHandle own = c.pawn().handle();
    for (const DrawnEntity& e : c.facade->remote_entities()) run.own_pawn_listed += e.entity_id == own.raw();
    const auto& ticks = history[c.pawn().raw()];
    if (ticks.size() < kSettleTicks) return;
    // The server's pawn at the time the own pawn is drawn from: its own sample's render tick when
    // drawn from snapshots, the standard render tick when predicted.
    double render_tick = c.client.interpolator()->render_tick();
    if (!c.client.own_pawn_predicted()) {
      const InterpSample sample = c.client.own_pawn_sample();
      if (sample.state != SampleState::interpolated) return;
      render_tick = sample.render_tick;
    }
    const auto server = server_pawn_at(ticks, render_tick);
    if (!server) return;
    const protocol::Vec3 drawn = c.facade->own_position();
    if (!c.client.own_pawn_predicted()) {
      run.worst_error_m = std::max(run.worst_error_m, static_cast<double>(protocol::length(drawn - *server)));
    }
    lead_sum_m += drawn.z - server->z;
    ++run.frames_checked;
  };

  for (uint32_t i = 0; i < kClients; ++i) {
    sim.add_client(setup);
    sim.run_for(Duration::from_seconds(kJoinEveryS));
  }
  sim.run_for(Duration::from_seconds(kRunS - kJoinEveryS * kClients));

  run.walked_m = 1e9f;
  for (const auto& c : sim.clients) {
    const ClientStats stats = c->facade->stats();
    EXPECT_TRUE(stats.welcomed);
    run.predicted = stats.own_pawn_predicted;
    run.predicted_ticks += stats.predicted_ticks;
    run.inputs_sent += stats.inputs_sent;
    run.corrections += stats.corrections;
    run.predictors += c->client.predictor() != nullptr;
    const auto& ticks = history[c->pawn().raw()];
    run.walked_m = ticks.empty() ? 0.0f : std::min(run.walked_m, ticks.rbegin()->second.z - ticks.begin()->second.z);
  }
  run.mean_lead_m = run.frames_checked == 0 ? 0.0 : lead_sum_m / static_cast<double>(run.frames_checked);
  for (const ReasonCount& r : sim.facade->stats().reasons) run.reasons[r.name] = r.count;
  run.demotion_warnings = warnings.count("prediction demoted");
  EXPECT_EQ(sim.invariants.total(), 0u);
  std::printf("[ admission ] %s: predicted %d, %llu predicted ticks, %llu inputs sent, %llu corrections, "
              "%llu frames checked (worst %.4f m off the server's pawn, mean lead %.3f m), walked %.1f m, "
              "%zu demotion warnings\n",
              std::string(pawn_body_name(body)).c_str(), run.predicted ? 1 : 0,
              static_cast<unsigned long long>(run.predicted_ticks), static_cast<unsigned long long>(run.inputs_sent),
              static_cast<unsigned long long>(run.corrections), static_cast<unsigned long long>(run.frames_checked),
              run.worst_error_m, run.mean_lead_m, run.walked_m, run.demotion_warnings);
  return run;
}

uint64_t reason(const AdmissionRun& run, const std::string& name) {
  const auto it = run.reasons.find(name);
  return it == run.reasons.end() ? 0 : it->second;
}

// What every unpredicted run shows: no predictor, no step, no correction; inputs still went up and
// moved the pawn; the drawn pawn is the server's at the render tick, never listed twice.
void expect_drawn_from_snapshots(const AdmissionRun& run) {
  EXPECT_FALSE(run.predicted);
  EXPECT_EQ(run.predictors, 0u);
  EXPECT_EQ(run.predicted_ticks, 0u);
  EXPECT_EQ(run.corrections, 0u);
  EXPECT_GT(run.inputs_sent, kClients * 300u) << "inputs are still sent";
  EXPECT_GT(run.walked_m, 10.0f) << "and the server walks the pawn by them";
  EXPECT_GT(run.frames_checked, 2000u);
  EXPECT_LT(run.worst_error_m, 0.01) << "the drawn pawn is the server's at the render tick, interpolated";
  EXPECT_LT(std::fabs(run.mean_lead_m), 0.01) << "it neither leads nor trails the snapshots";
  EXPECT_EQ(run.own_pawn_listed, 0u) << "own_position draws it; the remote entities do not list it again";
}

TEST(PredictionAdmissionSim, ADynamicRigidbodyPawnIsNeverPredictedAndTheDemotionIsReportedOnce) {
  const AdmissionRun run = run_admission(test_seed(0xad31), PawnBody::dynamic_rigidbody);
  expect_drawn_from_snapshots(run);
  EXPECT_EQ(reason(run, "contract.prediction_demoted.dynamic_rigidbody"), 1u) << "once for the room, not per client";
  EXPECT_EQ(run.demotion_warnings, 1u) << "one warning for the room as " << kClients << " clients joined";
  EXPECT_EQ(reason(run, "prediction.refusal.claim_not_admitted"), 0u) << "an obedient client claims nothing";
}

TEST(PredictionAdmissionSim, NoControllableCharacterFailsClosed) {
  const AdmissionRun run = run_admission(test_seed(0xad32), PawnBody::none);
  expect_drawn_from_snapshots(run);
  EXPECT_EQ(reason(run, "contract.prediction_demoted.no_controllable_character"), 1u);
  EXPECT_EQ(run.demotion_warnings, 1u);
}

TEST(PredictionAdmissionSim, AKinematicControllerIsPredictedAsBefore) {
  const AdmissionRun run = run_admission(test_seed(0xad33), PawnBody::kinematic_controller);
  EXPECT_TRUE(run.predicted);
  EXPECT_EQ(run.predictors, kClients);
  EXPECT_GE(run.predicted_ticks, run.inputs_sent) << "every input sent was predicted first";
  EXPECT_GT(run.inputs_sent, kClients * 300u);
  // A steady link and the server's own mover: at most the first steps of a walk, raced against the
  // spawn the welcome announced, are corrected (a few centimetres, once per client).
  EXPECT_LE(run.corrections, kClients);
  EXPECT_GT(run.mean_lead_m, 0.2) << "the predicted pawn runs ahead of the snapshots";
  EXPECT_EQ(run.own_pawn_listed, 0u);
  EXPECT_EQ(run.demotion_warnings, 0u);
  for (const auto& [name, count] : run.reasons) EXPECT_EQ(name.find("prediction"), std::string::npos) << name;
}

// A client that claims anyway (hostile, or of another build) gains nothing: the room strips the
// claim before the game sees it, and counts it. A kinematic room's claims reach the game.
TEST(PredictionAdmissionRoom, AClaimAboutAPawnItsClientMayNotPredictIsStrippedAndCounted) {
  for (const PawnBody body : {PawnBody::dynamic_rigidbody, PawnBody::kinematic_controller}) {
    SCOPED_TRACE(std::string(pawn_body_name(body)));
    RoomPolicy policy = test_room_policy(60, 0.5);
    policy.prediction.pawn_body = body;
    const ContractResolution resolved = resolve_netcode_contract(policy);
    ASSERT_TRUE(resolved.ok());
    TestSimulation game;
    Room room(RoomConfig{*resolved.contract, MonoTime::from_ns(0)}, game);
    const std::optional<EntityRef> pawn = room.admit(1);
    ASSERT_TRUE(pawn.has_value());
    protocol::InputFrame frame;
    frame.inputs.resize(1);
    frame.inputs[0].buttons = 0;  // sequence 0's low byte, as the test game checks
    frame.claim = protocol::Claim{{1, 0, 0}, {}, {}, 0, 0};
    EXPECT_EQ(room.receive_input(1, frame), 1u);
    struct : TickObserver {
      void on_tick_completed(Tick) override {}
    } completed;
    (void)room.update(room.next_due(), completed);
    const bool admitted = body == PawnBody::kinematic_controller;
    EXPECT_EQ(game.pawns.at(pawn->raw()).applied.size(), 1u) << "the input itself is applied either way";
    EXPECT_EQ(game.pawns.at(pawn->raw()).claims, admitted ? 1u : 0u);
    EXPECT_EQ(room.prediction_refusals()[PredictionRefusal::claim_not_admitted], admitted ? 0u : 1u);
  }
}

}  // namespace
}  // namespace tickwire
