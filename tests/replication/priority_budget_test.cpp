// Budget fitting: with a budget that fits about a tenth of the candidates, every relevant entity is
// still sent within a bound derived from the accumulator rule; required parents always precede
// their children in the same send; a scene frame is sent whole or not at all; the pose lane runs
// every tick and the world lane only on snapshot ticks; a tick allocates nothing after warm-up.
#include "tickwire/replication/budget/priority_budget.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

#include "allocation_counter.h"
#include "support.h"
#include "tickwire/core/rng.h"

namespace tickwire {
namespace {

constexpr uint16_t kViewerClient = 1;
constexpr uint16_t kOtherClient = 2;

// One world, one client: compose, measure (a size table stands in for the encoder), fit.
struct Rig {
  explicit Rig(uint32_t max_entities, PriorityConfig config = {}, float map_m = 200.0f)
      : world(make_config(max_entities, map_m)),
        composer(max_entities),
        set(max_entities),
        budget(world, config),
        state(max_entities),
        out(max_entities),
        size_of(max_entities, 16) {
    sizes.reserve(max_entities);
  }
  static InterestWorldConfig make_config(uint32_t max_entities, float map_m) {
    InterestWorldConfig c;
    c.grid = InterestGridConfig{0.0f, 0.0f, map_m, map_m, 20.0f, max_entities};
    c.max_always_relevant = 64;
    c.max_scene_frames = 64;
    return c;
  }
  void put(uint32_t e, float x, float z, uint32_t size_bytes, uint8_t flags = 0, float importance = 1.0f,
           uint16_t owner = kNoOwnerClient) {
    ASSERT_TRUE(world.insert(e, InterestEntity{x, z, owner, flags, importance}));
    size_of[e] = size_bytes;
  }
  FitStats tick(int64_t t, uint32_t budget_bytes) {
    composer.compose(world, viewer, set);
    sizes.clear();
    for (uint32_t e : set.entities()) sizes.push_back(size_of[e]);
    return budget.fit(world, viewer, set, sizes, Tick::from_value(t), budget_bytes, state, out);
  }
  bool sent(uint32_t e) const {
    return std::any_of(out.entries().begin(), out.entries().end(), [&](const SendEntry& s) { return s.entity == e; });
  }

  InterestWorld world;
  InterestComposer composer;
  InterestSet set;
  PriorityBudget budget;
  ClientPriorityState state;
  SendList out;
  std::vector<uint32_t> size_of;
  std::vector<uint32_t> sizes;
  InterestViewer viewer{kViewerClient, 100.0f, 100.0f, 150.0f, kNoEntity};
};

float uniform(Rng& rng, float lo, float hi) { return lo + static_cast<float>(rng.unit()) * (hi - lo); }

// The starvation bound. Let e wait T ticks after a send (its accumulator is then >= T p_min) with
// every tick a candidate. Each tick, the units ordered before e took more than budget - s_max bytes
// (or e would have fit), and each of them had waited at least as long as e in priority. In the second
// half of the wait, [h, T] with h = ceil(T/2), an entity j can be sent ahead of e at most
// 1 + pmax_j / p_min times (between two such sends it must gather h p_min, at <= pmax_j a tick, in
// at most T - h <= h ticks). So (T/2)(budget - s_max) < S = sum_j s_j (1 + pmax_j / p_min), and the
// gap between two sends of any entity, T + 1, is at most 2 S / (budget - s_max) + 1.
TEST(PriorityBudget, EveryRelevantEntityIsSentWithinTheDerivedBound) {
  const uint64_t seed = test::test_seed(0x1e7e'b001);
  Rng rng(seed);
  constexpr uint32_t kEntities = 400;
  constexpr int64_t kTicks = 3000;
  PriorityConfig config;
  config.distance_weight = 2.0f;
  config.lanes.ticks_per_snapshot = 1;  // every candidate competes every tick
  Rig rig(kEntities, config);
  double total_bytes = 0;
  uint32_t s_max = 0;
  float p_min = 1e9f;
  double sum_s_pmax = 0;  // sum_j s_j * pmax_j
  for (uint32_t e = 0; e < kEntities; ++e) {
    const auto size = static_cast<uint32_t>(rng.between(8, 32));
    const float importance = uniform(rng, 1.0f, 2.0f);
    rig.put(e, uniform(rng, 0.0f, 200.0f), uniform(rng, 0.0f, 200.0f), size, 0, importance);
    total_bytes += size;
    s_max = std::max(s_max, size);
    p_min = std::min(p_min, importance);
    sum_s_pmax += size * static_cast<double>(importance + config.distance_weight);
  }
  const auto budget = static_cast<uint32_t>(total_bytes / 10);  // about a tenth of the candidates
  const double s_sum = total_bytes + sum_s_pmax / p_min;
  const double bound = 2.0 * s_sum / (budget - s_max) + 1.0;

  std::vector<int64_t> last_sent(kEntities, 0);  // tick 0 is the common start (accumulators at 0)
  int64_t worst_gap = 0;
  double sent_per_tick = 0;
  for (int64_t t = 1; t <= kTicks; ++t) {
    for (uint32_t e = 0; e < kEntities; ++e) {  // random walk, up to 2 m a tick, so priorities shift
      const float x = std::clamp(rig.world.x_m(e) + uniform(rng, -2.0f, 2.0f), 0.0f, 200.0f);
      const float z = std::clamp(rig.world.z_m(e) + uniform(rng, -2.0f, 2.0f), 0.0f, 200.0f);
      rig.world.move(e, x, z);
    }
    const FitStats stats = rig.tick(t, budget);
    ASSERT_EQ(stats.candidates, kEntities) << "every entity is within the radius";
    ASSERT_LE(stats.bytes, budget);
    ASSERT_EQ(stats.sent + stats.deferred, kEntities);
    sent_per_tick += stats.sent;
    for (const SendEntry& s : rig.out.entries()) {
      worst_gap = std::max(worst_gap, t - last_sent[s.entity]);
      last_sent[s.entity] = t;
    }
  }
  for (uint32_t e = 0; e < kEntities; ++e) worst_gap = std::max(worst_gap, kTicks + 1 - last_sent[e]);
  std::printf("budget %u bytes (%.1f%% of %.0f), %.1f sent/tick of %u; max staleness %lld ticks, bound %.1f\n", budget,
              100.0 * budget / total_bytes, total_bytes, sent_per_tick / kTicks, kEntities,
              static_cast<long long>(worst_gap), bound);
  EXPECT_LE(static_cast<double>(worst_gap), bound);
}

TEST(PriorityBudget, RequiredParentsGoFirstAndChildrenNeverWithoutThem) {
  const uint64_t seed = test::test_seed(0x1e7e'b002);
  Rng rng(seed);
  constexpr uint32_t kEntities = 300;
  Rig rig(kEntities);
  for (uint32_t e = 0; e < kEntities; ++e) {
    const bool foreign_private = rng.chance(0.05);
    rig.put(e, uniform(rng, 0.0f, 200.0f), uniform(rng, 0.0f, 200.0f), static_cast<uint32_t>(rng.between(8, 60)),
            foreign_private ? kInterestOwnerPrivate : uint8_t{0}, uniform(rng, 0.5f, 3.0f),
            foreign_private ? kOtherClient : kNoOwnerClient);
  }
  for (uint32_t e = 1; e < kEntities; ++e) {  // parents at lower indices: a forest, several levels deep
    if (rng.chance(0.4)) rig.world.set_parent(e, static_cast<uint32_t>(rng.below(e)));
  }
  // What a correct fit may send: entities whose whole chain is visible and within the depth cap.
  std::vector<bool> sendable(kEntities, false);
  for (uint32_t e = 0; e < kEntities; ++e) {
    uint32_t depth = 0;
    bool ok = (rig.world.flags(e) & kInterestOwnerPrivate) == 0;
    for (uint32_t up = rig.world.parent(e); up != kNoEntity && ok; up = rig.world.parent(up)) {
      ok = (rig.world.flags(up) & kInterestOwnerPrivate) == 0 && ++depth <= InterestWorld::kMaxParentDepth;
    }
    sendable[e] = ok;
  }
  std::vector<bool> ever_sent(kEntities, false);
  uint64_t orphaned = 0;
  uint64_t pulled = 0;
  for (int64_t t = 1; t <= 600; ++t) {
    const FitStats stats = rig.tick(t, 600);
    orphaned += stats.orphaned;
    pulled += stats.pulled;
    std::map<uint32_t, std::size_t> position;
    for (std::size_t i = 0; i < rig.out.size(); ++i) position[rig.out.entries()[i].entity] = i;
    ASSERT_EQ(position.size(), rig.out.size()) << "an entity sent twice in one tick";
    for (std::size_t i = 0; i < rig.out.size(); ++i) {
      const uint32_t e = rig.out.entries()[i].entity;
      ASSERT_TRUE(sendable[e]) << "entity " << e << " sent without its parent chain";
      const uint32_t p = rig.world.parent(e);
      if (p == kNoEntity) continue;
      ASSERT_TRUE(position.count(p)) << "child " << e << " sent without parent " << p << " at tick " << t;
      ASSERT_LT(position[p], i) << "child " << e << " sent before parent " << p;
    }
    for (const SendEntry& s : rig.out.entries()) ever_sent[s.entity] = true;
  }
  for (uint32_t e = 0; e < kEntities; ++e) {
    if ((rig.world.flags(e) & kInterestOwnerPrivate) != 0) continue;  // not even in the set
    EXPECT_EQ(ever_sent[e], sendable[e]) << "entity " << e;
  }
  EXPECT_GT(orphaned, 0u) << "the run should include children of invisible parents";
  EXPECT_GT(pulled, 0u) << "the run should include parents pulled in by their children";
}

// Members of each frame, for checking sends against.
std::vector<std::vector<uint32_t>> frames_of(const InterestWorld& w) {
  std::vector<std::vector<uint32_t>> frames(w.max_scene_frames() + 1);
  for (uint32_t f = 1; f <= w.max_scene_frames(); ++f) {
    frames[f].assign(w.scene_frame_members(f).begin(), w.scene_frame_members(f).end());
  }
  return frames;
}

TEST(PriorityBudget, ASceneFrameIsSentWholeOrNotAtAll) {
  const uint64_t seed = test::test_seed(0x1e7e'b003);
  Rng rng(seed);
  constexpr uint32_t kEntities = 240;
  constexpr uint32_t kBudget = 500;
  Rig rig(kEntities, PriorityConfig{}, 400.0f);  // some members beyond the 150 m radius
  for (uint32_t e = 0; e < kEntities; ++e) {
    rig.put(e, uniform(rng, 0.0f, 400.0f), uniform(rng, 0.0f, 400.0f), static_cast<uint32_t>(rng.between(10, 40)));
  }
  // Frames 1..20 of 2-10 consecutive entities; frame 21 is larger than the whole budget.
  uint32_t next = 0;
  for (uint32_t f = 1; f <= 20; ++f) {
    const auto members = static_cast<uint32_t>(rng.between(2, 10));
    for (uint32_t i = 0; i < members; ++i) rig.world.set_scene_frame(next++, f);
  }
  for (uint32_t i = 0; i < 30; ++i) {
    rig.world.move(next, 100.0f, 100.0f);
    rig.size_of[next] = 40;  // 30 x 40 bytes: well over the budget
    rig.world.set_scene_frame(next++, 21);
  }
  rig.world.set_parent(next, 0);  // a child outside any frame, whose parent is in frame 1
  const auto frames = frames_of(rig.world);
  std::vector<bool> frame_sent(frames.size(), false);
  std::vector<bool> frame_seen(frames.size(), false);
  uint64_t refused = 0;
  uint64_t oversize = 0;
  for (int64_t t = 1; t <= 400; ++t) {
    const FitStats stats = rig.tick(t, kBudget);
    ASSERT_LE(stats.bytes, kBudget);
    refused += stats.frames_refused;
    oversize += stats.oversize;
    std::vector<bool> visible(kEntities, false);
    for (uint32_t e : rig.set.entities()) visible[e] = true;
    for (uint32_t f = 1; f < frames.size(); ++f) {
      uint32_t in_view = 0;
      uint32_t sent = 0;
      for (uint32_t m : frames[f]) {
        in_view += visible[m] ? 1u : 0u;
        sent += rig.sent(m) ? 1u : 0u;
      }
      ASSERT_TRUE(sent == 0 || sent == in_view) << "frame " << f << ": " << sent << " of " << in_view << " at tick " << t;
      frame_sent[f] = frame_sent[f] || sent > 0;
      frame_seen[f] = frame_seen[f] || in_view > 0;
    }
  }
  for (uint32_t f = 1; f <= 20; ++f) {
    EXPECT_TRUE(frame_sent[f] || !frame_seen[f]) << "frame " << f << " never went out";
  }
  EXPECT_FALSE(frame_sent[21]) << "the frame larger than the budget must never be split to fit";
  EXPECT_GT(oversize, 0u);
  EXPECT_GT(refused, 0u);
}

TEST(PriorityBudget, PoseLaneEveryTickWorldLaneOnSnapshotTicks) {
  PriorityConfig config;
  config.lanes = LaneSchedule{30.0f, 3};
  Rig rig(16, config);
  rig.put(0, 110.0f, 100.0f, 20);                      // near: pose
  rig.put(1, 170.0f, 100.0f, 20);                      // 70 m: world
  rig.put(2, 100.0f, 30.0f, 20, kInterestImportant);   // 70 m but important: pose
  rig.put(3, 100.0f, 170.0f, 20);                      // 70 m, world, parent of 4
  rig.put(4, 100.0f, 105.0f, 20);                      // near child: pulls 3 every tick, on its lane
  rig.world.set_parent(4, 3);
  std::map<uint32_t, std::vector<int64_t>> sent_at;
  for (int64_t t = 0; t < 30; ++t) {
    const FitStats stats = rig.tick(t, 10000);
    EXPECT_EQ(stats.deferred, 0u);
    EXPECT_EQ(stats.candidates, t % 3 == 0 ? 5u : 3u) << "tick " << t;
    for (const SendEntry& s : rig.out.entries()) {
      sent_at[s.entity].push_back(t);
      if (s.entity == 1 || (s.entity == 3 && !s.pulled)) {
        EXPECT_EQ(s.lane, SendLane::world);
      } else {
        EXPECT_EQ(s.lane, SendLane::pose) << "entity " << s.entity;
      }
    }
  }
  std::vector<int64_t> every, snapshots;
  for (int64_t t = 0; t < 30; ++t) every.push_back(t);
  for (int64_t t = 0; t < 30; t += 3) snapshots.push_back(t);
  EXPECT_EQ(sent_at[0], every);
  EXPECT_EQ(sent_at[2], every);
  EXPECT_EQ(sent_at[4], every);
  EXPECT_EQ(sent_at[3], every) << "a parent rides with its child";
  EXPECT_EQ(sent_at[1], snapshots);
  EXPECT_TRUE(LaneSchedule{}.is_snapshot_tick(Tick::from_value(-4)));
  EXPECT_TRUE((LaneSchedule{30.0f, 4}.is_snapshot_tick(Tick::from_value(-4))));
  EXPECT_FALSE((LaneSchedule{30.0f, 4}.is_snapshot_tick(Tick::from_value(-3))));
}

TEST(PriorityBudget, WaitingRaisesPriorityAndAReusedIndexStartsOver) {
  PriorityConfig config;
  config.distance_weight = 0.0f;
  Rig rig(8, config);
  rig.put(0, 100.0f, 100.0f, 50, 0, 4.0f);  // high priority, fills the budget alone
  rig.put(1, 101.0f, 100.0f, 50, 0, 1.0f);
  // Budget for one. Entity 1 gains 1 a tick while 0 holds 4: 1 ties at 4 on its fourth tick (ties
  // go to the lower index) and wins on its fifth.
  std::vector<uint32_t> order;
  for (int64_t t = 1; t <= 9; ++t) {
    rig.tick(t, 60);
    ASSERT_EQ(rig.out.size(), 1u);
    order.push_back(rig.out.entries()[0].entity);
  }
  EXPECT_EQ(order, (std::vector<uint32_t>{0, 0, 0, 0, 1, 0, 0, 0, 0}));
  EXPECT_FLOAT_EQ(rig.state.accumulated(1), 4.0f);  // waited four ticks since its send at tick 5
  EXPECT_FLOAT_EQ(rig.state.accumulated(0), 0.0f);
  rig.world.remove(1);
  ASSERT_TRUE(rig.world.insert(1, InterestEntity{101.0f, 100.0f, kNoOwnerClient, 0, 1.0f}));
  rig.tick(10, 0);  // nothing fits: both accumulate, the new incarnation of 1 from zero
  EXPECT_FLOAT_EQ(rig.state.accumulated(1), 1.0f);
  EXPECT_FLOAT_EQ(rig.state.accumulated(0), 4.0f);
}

TEST(PriorityBudget, AUnitLargerThanTheBudgetIsCountedNotSplit) {
  Rig rig(8);
  rig.put(0, 100.0f, 100.0f, 500, 0, 10.0f);
  rig.put(1, 101.0f, 100.0f, 30);
  const FitStats stats = rig.tick(1, 100);
  EXPECT_EQ(stats.oversize, 1u);
  EXPECT_EQ(stats.sent, 1u);
  EXPECT_TRUE(rig.sent(1));
  EXPECT_EQ(stats.deferred, 1u);
}

TEST(PriorityBudget, ATickAllocatesNothingAfterWarmUp) {
  const uint64_t seed = test::test_seed(0x1e7e'b004);
  Rng rng(seed);
  constexpr uint32_t kEntities = 500;
  constexpr uint16_t kClients = 8;
  Rig rig(kEntities, PriorityConfig{}, 400.0f);
  for (uint32_t e = 0; e < kEntities; ++e) {
    rig.put(e, uniform(rng, 0.0f, 400.0f), uniform(rng, 0.0f, 400.0f), static_cast<uint32_t>(rng.between(8, 40)),
            e < kClients ? kInterestImportant : uint8_t{0}, 1.0f, e < kClients ? static_cast<uint16_t>(e) : kNoOwnerClient);
    if (e >= kClients && e % 7 == 0) rig.world.set_parent(e, e - 1);
    if (e >= kClients && e % 11 == 0) rig.world.set_scene_frame(e, 1 + e % 5);
  }
  std::vector<ClientPriorityState> states(kClients, ClientPriorityState(kEntities));
  const auto run_tick = [&](int64_t t) {
    for (uint32_t e = 0; e < kEntities; ++e) {
      rig.world.move(e, std::clamp(rig.world.x_m(e) + uniform(rng, -1.0f, 1.0f), 0.0f, 400.0f),
                     std::clamp(rig.world.z_m(e) + uniform(rng, -1.0f, 1.0f), 0.0f, 400.0f));
    }
    for (uint16_t c = 0; c < kClients; ++c) {
      rig.viewer = InterestViewer{c, rig.world.x_m(c), rig.world.z_m(c), 100.0f, c};
      rig.composer.compose(rig.world, rig.viewer, rig.set);
      rig.sizes.clear();
      for (uint32_t e : rig.set.entities()) rig.sizes.push_back(rig.size_of[e]);
      rig.budget.fit(rig.world, rig.viewer, rig.set, rig.sizes, Tick::from_value(t), 400, states[c], rig.out);
    }
  };
  run_tick(0);
  const uint64_t before = test::allocation_count();
  for (int64_t t = 1; t <= 120; ++t) run_tick(t);
  if (test::allocation_counting()) {
    EXPECT_EQ(test::allocation_count(), before);
  }
}

}  // namespace
}  // namespace tickwire
