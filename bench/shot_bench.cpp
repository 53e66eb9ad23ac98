// What lag compensation costs the server (docs/session.md, "Shots"): recording the rewind history at
// the end of every tick (N pawns and the reference map's 8 movers, a 250 ms history at 60 Hz, the
// contract's default), reading it back at a render time between two ticks (once per shot), and one
// whole shot of the reference game on its own map among N pawns (the eye re-check, the rewind and
// the trace against the map, the objects, the props, the voxels, the pool and the rewound bodies).
// Prints figures as counters; asserts nothing.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "tickwire/core/assert.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/reference_contract.h"
#include "tickwire/world/reference_game.h"
#include "tickwire/world/reference_map.h"
#include "tickwire/world/rewind_history.h"

namespace shot_bench {

using namespace tickwire;
using namespace tickwire::world;

constexpr uint32_t kHz = 60;
constexpr uint32_t kMovers = 8;
constexpr uint32_t kHistoryTicks = 17;  // ceil(250 ms x 60 Hz) + 2

// N pawns and the movers as one tick leaves them: each body a little further along x than last tick.
std::vector<RewoundBox> bodies(uint32_t pawns, int64_t tick) {
  std::vector<RewoundBox> out;
  const float dx = 0.1f * static_cast<float>(tick % 100);
  for (uint32_t i = 0; i < pawns; ++i) {
    const Vec3 feet{static_cast<float>(i % 16) * 3 + dx, 0, static_cast<float>(i / 16) * 3};
    out.push_back({RewoundBox::Kind::pawn, i + 1, Aabb{feet - Vec3{0.4f, 0, 0.4f}, feet + Vec3{0.4f, 1.8f, 0.4f}}});
  }
  for (uint32_t m = 0; m < kMovers; ++m) {
    const Vec3 at{static_cast<float>(m) * 5, dx, -10};
    out.push_back({RewoundBox::Kind::mover, 100 + m, Aabb{at - Vec3{1, 1.5f, 0.1f}, at + Vec3{1, 1.5f, 0.1f}}});
  }
  return out;
}

// One tick's record (what step_world pays once per tick).
void BM_RewindRecord(benchmark::State& state) {
  const auto pawns = static_cast<uint32_t>(state.range(0));
  RewindHistory history(kHistoryTicks);
  std::vector<std::vector<RewoundBox>> ticks;
  for (int64_t t = 0; t < 64; ++t) ticks.push_back(bodies(pawns, t));
  int64_t tick = 0;
  for (auto _ : state) {
    history.record(Tick::from_value(tick + 1), ticks[static_cast<std::size_t>(tick % 64)]);
    ++tick;
  }
  state.counters["bodies"] = static_cast<double>(pawns + kMovers);  // the time is one tick's record
}
BENCHMARK(BM_RewindRecord)->Arg(16)->Arg(64)->Arg(256)->Arg(1000);

// One shot's read: every body at a render time 100 ms back, between two ticks.
void BM_RewindRead(benchmark::State& state) {
  const auto pawns = static_cast<uint32_t>(state.range(0));
  RewindHistory history(kHistoryTicks);
  for (int64_t t = 1; t <= kHistoryTicks; ++t) history.record(Tick::from_value(t), bodies(pawns, t));
  std::vector<RewoundBox> out;
  const double render = static_cast<double>(kHistoryTicks) - 6.5;
  for (auto _ : state) {
    out.clear();
    benchmark::DoNotOptimize(history.at(render, out));
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["bodies"] = static_cast<double>(out.size());
}
BENCHMARK(BM_RewindRead)->Arg(16)->Arg(64)->Arg(256)->Arg(1000);

// One whole shot among N pawns standing in rows on the reference map, the shooter at a row's end
// aiming along it 100 ms back (the first pawn in line is struck).
void BM_ReferenceShot(benchmark::State& state) {
  const auto pawns = static_cast<uint32_t>(state.range(0));
  auto loaded = load_map(reference_map_text());
  TW_ASSERT(loaded.ok(), "the reference map loads");
  const Map map = std::move(loaded).value();
  ReferenceGame game(map);
  game.begin(reference_contract("shots", kHz, "bench"));
  std::vector<EntityRef> refs;
  for (uint32_t i = 0; i < pawns; ++i) {
    const EntityRef pawn = EntityRef::make(EntityNetHandle::make(0, i + 1), 1);
    game.spawn_pawn(pawn, static_cast<OwnerId>(i + 1), Tick::from_value(0));  // owners are 1..254
    game.place_pawn(pawn, Placement{Vec3{-15.0f + static_cast<float>(i % 16) * 2, 0, -15.0f + static_cast<float>(i / 16) * 2},
                                    {}, 90, 0, false});
    refs.push_back(pawn);
  }
  for (int64_t t = 1; t <= kHistoryTicks; ++t) game.step_world(Tick::from_value(t), 1.0 / kHz);
  const PawnState& shooter = *game.pawn(refs[0]);
  FireShot shot;
  shot.eye = (shooter.feet + Vec3{0, shooter.eye_height_m, 0}).to_wire();
  const Vec3 aim{1, -0.2f, 0};
  shot.aim = (aim * (1.0f / aim.length())).to_wire();
  shot.render_tick = static_cast<double>(kHistoryTicks) - 6.5;
  std::vector<protocol::HitEvent> hits;
  for (auto _ : state) {
    ++shot.shot;
    game.fire(refs[0], shot, Tick::from_value(kHistoryTicks));
    hits.clear();
    game.take_hits(hits);
    benchmark::DoNotOptimize(hits.data());
  }
  state.counters["pawns"] = static_cast<double>(pawns);
  state.counters["events"] = static_cast<double>(hits.size());
}
BENCHMARK(BM_ReferenceShot)->Arg(16)->Arg(64)->Arg(200);

}  // namespace shot_bench

BENCHMARK_MAIN();
