// Scenario (d), the interest and budget part: 256 clients and 2,000 entities random-walking at up
// to 5 m/s on a 1 km x 1 km map, each client's pawn among them, 100 m interest radius, 60 Hz, 600
// ticks on one thread. Timed per tick: the grid update, every client's interest composition, and
// every client's budget fit. Motion itself is the game's cost and is not timed; record sizes come
// from a seeded per-entity table (the encoder's measurement is the snapshot bench's business).
// Prints mean and p99 ms per tick and ns per (client x visible entity), in this thread's CPU time
// (the cost on one core, whatever else the machine runs) and, as wall_mean_ms, in wall time.
// Asserts nothing.
#include <benchmark/benchmark.h>
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "tickwire/clock/system_clock.h"
#include "tickwire/core/rng.h"
#include "tickwire/replication/interest/interest_set.h"
#include "tickwire/replication/budget/priority_budget.h"

namespace interest_bench {

using namespace tickwire;

constexpr uint32_t kClients = 256;
constexpr uint32_t kEntities = 2000;
constexpr uint32_t kGlobalEntities = 4;  // always relevant (game state, weather...)
constexpr float kMapM = 1000.0f;
constexpr float kRadiusM = 100.0f;
constexpr float kMaxSpeedMps = 5.0f;
constexpr float kWalkJitterMps = 0.2f;  // the most a velocity component changes in one tick
constexpr float kTickHz = 60.0f;
constexpr int64_t kTicks = 600;
constexpr uint32_t kTicksPerSnapshot = 3;  // world lane at 20 Hz
constexpr float kPoseRadiusM = 30.0f;
constexpr uint32_t kBudgetBytes = 1200;   // one packet per client per tick
constexpr int64_t kMinRecordBytes = 8;    // seeded per-entity record sizes, a delta-coded record's range
constexpr int64_t kMaxRecordBytes = 40;

struct Walker {
  float vx = 0.0f;
  float vz = 0.0f;
};

struct Scenario {
  explicit Scenario(float cell_size_m)
      : world(config(cell_size_m)), composer(kEntities), budget(world, priority()), out(kEntities), rng(0xd00d) {
    states.reserve(kClients);
    sets.reserve(kClients);
    for (uint32_t c = 0; c < kClients; ++c) {
      states.emplace_back(kEntities);
      sets.emplace_back(kEntities);
    }
    walkers.resize(kEntities);
    size_of.resize(kEntities);
    sizes.reserve(kEntities);
    for (uint32_t e = 0; e < kEntities; ++e) {
      const bool pawn = e < kClients;
      const bool global = e >= kClients && e < kClients + kGlobalEntities;
      const uint8_t flags = pawn ? kInterestImportant : global ? kInterestAlwaysRelevant : uint8_t{0};
      const InterestEntity attrs{static_cast<float>(rng.unit()) * kMapM, static_cast<float>(rng.unit()) * kMapM,
                                 pawn ? static_cast<uint16_t>(e) : kNoOwnerClient, flags, pawn ? 2.0f : 1.0f};
      if (!world.insert(e, attrs)) std::abort();
      size_of[e] = static_cast<uint32_t>(rng.between(kMinRecordBytes, kMaxRecordBytes));
    }
  }
  static InterestWorldConfig config(float cell_size_m) {
    InterestWorldConfig c;
    c.grid = InterestGridConfig{0.0f, 0.0f, kMapM, kMapM, cell_size_m, kEntities};
    c.max_always_relevant = 16;
    c.max_scene_frames = 16;
    return c;
  }
  static PriorityConfig priority() {
    PriorityConfig p;
    p.lanes = LaneSchedule{kPoseRadiusM, kTicksPerSnapshot};
    return p;
  }

  // The game's motion (not timed): a random walk, speed capped, reflected at the map's edges.
  void walk() {
    constexpr float dt = 1.0f / kTickHz;
    for (uint32_t e = 0; e < kEntities; ++e) {
      Walker& w = walkers[e];
      w.vx += static_cast<float>(rng.unit() * 2.0 - 1.0) * kWalkJitterMps;
      w.vz += static_cast<float>(rng.unit() * 2.0 - 1.0) * kWalkJitterMps;
      const float speed = std::sqrt(w.vx * w.vx + w.vz * w.vz);
      if (speed > kMaxSpeedMps) {
        w.vx *= kMaxSpeedMps / speed;
        w.vz *= kMaxSpeedMps / speed;
      }
      const float x = world.x_m(e) + w.vx * dt;
      const float z = world.z_m(e) + w.vz * dt;
      if (x < 0.0f || x > kMapM) w.vx = -w.vx;
      if (z < 0.0f || z > kMapM) w.vz = -w.vz;
      next_x[e] = std::clamp(x, 0.0f, kMapM);
      next_z[e] = std::clamp(z, 0.0f, kMapM);
    }
  }

  InterestWorld world;
  InterestComposer composer;
  std::vector<InterestSet> sets;  // one per client, composed in one pass, fitted in the next
  PriorityBudget budget;
  SendList out;
  Rng rng;
  std::vector<ClientPriorityState> states;
  std::vector<Walker> walkers;
  std::vector<uint32_t> size_of;
  std::vector<uint32_t> sizes;
  std::vector<float> next_x = std::vector<float>(kEntities);
  std::vector<float> next_z = std::vector<float>(kEntities);
};

struct TickCost {
  double wall_ms = 0;
  double grid_ms = 0;
  double compose_ms = 0;
  double fit_ms = 0;
  uint64_t visible = 0;
  uint64_t sent = 0;
  uint64_t deferred = 0;
  uint64_t bytes = 0;
};

InterestViewer viewer_of(const Scenario& s, uint32_t client) {
  return InterestViewer{static_cast<uint16_t>(client), s.world.x_m(client), s.world.z_m(client), kRadiusM, client};
}

// CPU time of this thread: what the tick costs one core, unaffected by other processes' share.
double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

TickCost run_tick(Scenario& s, int64_t tick) {
  TickCost cost;
  const MonoTime wall0 = mono_now();
  const double t0 = thread_cpu_ms();
  for (uint32_t e = 0; e < kEntities; ++e) s.world.move(e, s.next_x[e], s.next_z[e]);
  s.world.compact();
  const double t1 = thread_cpu_ms();
  for (uint32_t c = 0; c < kClients; ++c) s.composer.compose(s.world, viewer_of(s, c), s.sets[c]);
  const double t2 = thread_cpu_ms();
  for (uint32_t c = 0; c < kClients; ++c) {
    const InterestSet& set = s.sets[c];
    s.sizes.clear();  // the encoder's measured sizes, in set order
    for (uint32_t e : set.entities()) s.sizes.push_back(s.size_of[e]);
    const FitStats stats =
        s.budget.fit(s.world, viewer_of(s, c), set, s.sizes, Tick::from_value(tick), kBudgetBytes, s.states[c], s.out);
    benchmark::DoNotOptimize(s.out.entries().data());
    cost.visible += set.size();
    cost.sent += stats.sent;
    cost.deferred += stats.deferred;
    cost.bytes += stats.bytes;
  }
  const double t3 = thread_cpu_ms();
  cost.wall_ms = (mono_now() - wall0).milliseconds_f();
  cost.grid_ms = t1 - t0;
  cost.compose_ms = t2 - t1;
  cost.fit_ms = t3 - t2;
  return cost;
}

// One iteration is one 60 Hz tick of the whole server (all 256 clients); range(0) is the cell size.
void BM_InterestScenarioD(benchmark::State& state) {
  Scenario s(static_cast<float>(state.range(0)));
  std::vector<double> tick_ms;
  tick_ms.reserve(kTicks);
  TickCost sum;
  double snapshot_ticks_ms = 0;  // world lane open: every visible entity is a candidate
  int64_t snapshot_ticks = 0;
  int64_t tick = 0;
  for (auto _ : state) {
    s.walk();
    const bool snapshot_tick = s.budget.config().lanes.is_snapshot_tick(Tick::from_value(tick));
    const TickCost c = run_tick(s, tick++);
    const double total_ms = c.grid_ms + c.compose_ms + c.fit_ms;
    state.SetIterationTime(total_ms * 1e-3);
    tick_ms.push_back(total_ms);
    snapshot_ticks_ms += snapshot_tick ? total_ms : 0.0;
    snapshot_ticks += snapshot_tick ? 1 : 0;
    sum.wall_ms += c.wall_ms;
    sum.grid_ms += c.grid_ms;
    sum.compose_ms += c.compose_ms;
    sum.fit_ms += c.fit_ms;
    sum.visible += c.visible;
    sum.sent += c.sent;
    sum.deferred += c.deferred;
    sum.bytes += c.bytes;
  }
  const auto ticks = static_cast<double>(tick_ms.size());
  const double total_ms = sum.grid_ms + sum.compose_ms + sum.fit_ms;
  std::sort(tick_ms.begin(), tick_ms.end());
  const double pairs = static_cast<double>(sum.visible);
  state.counters["mean_ms"] = total_ms / ticks;
  state.counters["p99_ms"] = tick_ms[tick_ms.size() * 99 / 100];
  state.counters["snapshot_tick_ms"] = snapshot_ticks_ms / static_cast<double>(std::max<int64_t>(1, snapshot_ticks));
  state.counters["pose_tick_ms"] = (total_ms - snapshot_ticks_ms) / static_cast<double>(std::max<int64_t>(1, static_cast<int64_t>(ticks) - snapshot_ticks));
  state.counters["wall_mean_ms"] = sum.wall_ms / ticks;
  state.counters["grid_ms"] = sum.grid_ms / ticks;
  state.counters["compose_ms"] = sum.compose_ms / ticks;
  state.counters["fit_ms"] = sum.fit_ms / ticks;
  state.counters["ns_per_client_visible"] = total_ms * 1e6 / pairs;
  state.counters["visible_per_client"] = pairs / (ticks * kClients);
  state.counters["sent_per_client"] = static_cast<double>(sum.sent) / (ticks * kClients);
  state.counters["deferred_per_client"] = static_cast<double>(sum.deferred) / (ticks * kClients);
  state.counters["bytes_per_client"] = static_cast<double>(sum.bytes) / (ticks * kClients);
}
BENCHMARK(BM_InterestScenarioD)
    ->ArgName("cell_m")
    ->Arg(25)
    ->Arg(10)
    ->Arg(50)
    ->Arg(100)
    ->Iterations(kTicks)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace interest_bench

BENCHMARK_MAIN();
