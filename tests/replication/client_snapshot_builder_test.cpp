// The client snapshot builder's choices: interest composition (radius, always-relevant, the
// client's own private entities, others' private ones subtracted last); budget fitting over many
// ticks with a tight budget and delayed acks (every relevant entity's staleness under a derived
// bound, never a step back in time, never a blink); required parents always in the frame with their
// children and scene frames never half-held, also while parents are removed and snapshots lost.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <vector>

#include "client_snapshot_rig.h"
#include "support.h"
#include "tickwire/core/rng.h"
#include "tickwire/replication/budget/record_cost_estimate.h"
#include "tickwire/wire/codec.h"

namespace tickwire {
namespace {

using test::SnapshotRig;
using test::record_id_of;

constexpr uint16_t kViewer = 1;
constexpr uint16_t kOther = 2;

float uniform(Rng& rng, float lo, float hi) { return lo + static_cast<float>(rng.unit()) * (hi - lo); }

std::set<uint32_t> ids_of(const FrameView& f) {
  std::set<uint32_t> ids;
  for (std::size_t i = 0; i < f.size(); ++i) ids.insert(f[i].id);
  return ids;
}

TEST(ClientSnapshotBuilder, InterestIsRadiusPlusAlwaysRelevantMinusOthersPrivateLast) {
  SnapshotRig rig(16, ClientSnapshotBuilderConfig{});
  rig.put(0, 200, 200, kInterestImportant, kViewer);                             // the viewer's pawn
  rig.put(1, 220, 200);                                                          // within 50 m
  rig.put(2, 300, 300);                                                          // beyond
  rig.put(3, 390, 10, kInterestAlwaysRelevant);                                  // far, always relevant
  rig.put(4, 210, 210, kInterestOwnerPrivate, kOther);                           // near, another's private
  rig.put(5, 10, 390, kInterestAlwaysRelevant | kInterestOwnerPrivate, kOther);  // subtracted last
  rig.put(6, 205, 195, kInterestOwnerPrivate, kViewer);                          // near, the viewer's own
  rig.put(7, 10, 10, kInterestOwnerPrivate, kViewer);                            // own, but far
  rig.put(8, 390, 390, kInterestAlwaysRelevant | kInterestOwnerPrivate, kViewer);
  rig.put(9, 230, 230, 0, kOther);  // owned by another, not private: visible
  ClientReplicationState client(rig.client_config());
  rig.begin(1);
  ClientView view;
  view.client = kViewer;
  view.pawn = 0;
  view.radius_m = 50.0f;
  view.budget_bytes = 1100;
  view.owner = protocol::OwnerDetail{};
  const SentFrame& sent = rig.builder.compose(view, client);
  const std::set<uint32_t> expected{record_id_of(0), record_id_of(1), record_id_of(3),
                                    record_id_of(6), record_id_of(8), record_id_of(9)};
  EXPECT_EQ(ids_of(sent.view()), expected);
  EXPECT_TRUE(sent.owner.has_value());
  EXPECT_EQ(client.last.visible, expected.size());
  EXPECT_EQ(client.last.selected, expected.size()) << "an ample budget sends everything visible";

  // Another client: sees 4 and 5 (its own), not 6, 7, 8 (the first viewer's).
  ClientReplicationState other(rig.client_config());
  ClientView other_view = view;
  other_view.client = kOther;
  other_view.pawn = kNoEntity;
  other_view.x_m = 200.0f;
  other_view.z_m = 200.0f;
  const SentFrame& theirs = rig.builder.compose(other_view, other);
  const std::set<uint32_t> theirs_expected{record_id_of(0), record_id_of(1), record_id_of(3),
                                           record_id_of(4), record_id_of(5), record_id_of(9)};
  EXPECT_EQ(ids_of(theirs.view()), theirs_expected);
}

// The staleness bound, with acks exactly d ticks late and every record costing the same s bytes
// once the client has it (only channel 0 changes). A selection at tick u costs s in the frames of
// u .. u+d-1 (held until the baseline, frame u, holds it) and nothing after, so the bytes committed
// in a frame are s times the selections of its last d ticks, at most B. Let e wait T ticks since
// its last send (accumulator (t - t0) p_e). When e is refused, the frame had no room for one more s:
// its last d ticks held at least K = floor(B / s) selections, each ranked above e. In the second
// half of the wait, which holds floor(T / 2d) disjoint d-tick windows, an entity j can be ranked
// above e at most 1 + rho times (rho = p_max / p_min: between two of its sends it must regrow to
// e's accumulator, >= (T / 2) p_min, at <= p_max a tick). So K floor(T / 2d) <= (N - 1)(1 + rho),
// and T < W = 2d ((N - 1)(1 + rho) / K + 1). A held state is never older than the last send.
TEST(ClientSnapshotBuilder, StalenessStaysUnderTheDerivedBoundWithATightBudget) {
  const uint64_t seed = test::test_seed(0x5eed'0d01);
  Rng rng(seed);
  constexpr uint32_t kEntities = 60;
  constexpr int64_t kAckDelayTicks = 4;
  constexpr int64_t kTicks = 1200;
  ClientSnapshotBuilderConfig config;
  config.priority.distance_weight = 1.0f;
  config.priority.lanes = LaneSchedule{1000.0f, 1};  // everything on the pose lane, every tick
  config.reserve_bytes = 0;
  config.calibrate_estimates = false;  // the budget stays B in estimate units (compose() learns nothing anyway)
  SnapshotRig rig(kEntities + 1, config);
  const uint32_t pawn = kEntities;
  rig.put(pawn, 200, 200, 0, kViewer, 1.0f);
  float p_min = 1e9f, p_max = 0.0f;
  for (uint32_t e = 0; e < kEntities; ++e) {
    const float angle = uniform(rng, 0.0f, 6.2831853f);
    const float distance = uniform(rng, 5.0f, 90.0f);
    const float importance = rng.chance(0.5) ? 1.0f : 2.0f;
    rig.put(e, 200.0f + distance * std::cos(angle), 200.0f + distance * std::sin(angle), 0, kNoOwnerClient, importance);
    const float p = interest_priority(importance, distance, 100.0f, config.priority.distance_weight);
    p_min = std::min(p_min, p);
    p_max = std::max(p_max, p);
  }
  ClientReplicationState client(rig.client_config());
  ClientView view;
  view.client = kViewer;
  view.pawn = pawn;
  view.radius_m = 100.0f;
  const ReplicaState before = rig.state_of(0, 1);
  const uint32_t s = estimate_record_bytes(rig.state_of(0, 2), &before);
  const uint32_t overhead = static_cast<uint32_t>(1 + wire::measure(protocol::SnapshotDelta{}));
  view.budget_bytes = overhead + 20 * s + s / 2;  // about a third of what everything would take
  const uint32_t k = 20;
  const double rho = p_max / p_min;
  const double bound = 2.0 * kAckDelayTicks * ((kEntities) * (1.0 + rho) / k + 1.0);  // N - 1 others plus the pawn

  std::vector<int64_t> last_held(kEntities + 1, -1);
  int64_t steady_from = -1;  // the first tick whose baseline holds every entity
  int64_t worst = 0;
  for (int64_t t = 1; t <= kTicks; ++t) {
    for (uint32_t e = 0; e <= kEntities; ++e) rig.touch(e, t);  // everything changes every tick
    if (t > kAckDelayTicks) {
      ASSERT_TRUE(client.acknowledge(Tick::from_value(t - kAckDelayTicks)));
    }
    rig.begin(t);
    const SentFrame& sent = rig.builder.compose(view, client);
    ASSERT_LE(client.last.estimated_record_bytes, client.last.record_budget_bytes) << "tick " << t;
    ASSERT_EQ(client.last.reverted, 0u);
    for (uint32_t e = 0; e <= kEntities; ++e) {
      const int64_t held = SnapshotRig::held_tick(sent.view(), e);
      if (last_held[e] >= 0) {
        ASSERT_GE(held, last_held[e]) << "entity " << e << " stepped back or blinked out at tick " << t;
      }
      last_held[e] = held;
      if (steady_from >= 0 && t >= steady_from + static_cast<int64_t>(bound)) worst = std::max(worst, t - held);
    }
    const SentFrame* base = client.history.references(Tick::from_value(t + 1), 32).baseline;
    if (steady_from < 0 && base != nullptr && base->states.size() == kEntities + 1) steady_from = t + 1;
  }
  ASSERT_GE(steady_from, 0) << "the client never held every entity";
  std::printf("record %u bytes, budget %u (%u records), rho %.2f, ack delay %lld: max staleness %lld ticks, bound %.1f\n",
              s, client.last.record_budget_bytes, k, rho, static_cast<long long>(kAckDelayTicks),
              static_cast<long long>(worst), bound);
  EXPECT_LT(static_cast<double>(worst), bound);
  EXPECT_GT(worst, 0) << "the budget should have made something wait";
}

// Parents, scene frames and removals under a tight budget, moving entities (record sizes vary),
// snapshots lost at random (acks late and missing). Every frame: each held entity's parent chain is
// in it; the present members of a scene frame hold states of one tick; nothing steps back.
TEST(ClientSnapshotBuilder, ParentsAlwaysWithChildrenAndSceneFramesNeverHalfHeld) {
  const uint64_t seed = test::test_seed(0x5eed'0d02);
  Rng rng(seed);
  constexpr uint32_t kEntities = 160;
  constexpr int64_t kTicks = 900;
  ClientSnapshotBuilderConfig config;
  config.priority.lanes = LaneSchedule{40.0f, 3};  // world lane every third tick
  SnapshotRig rig(kEntities, config);
  rig.put(0, 200, 200, kInterestImportant, kViewer);
  for (uint32_t e = 1; e < kEntities; ++e) rig.put(e, uniform(rng, 80, 320), uniform(rng, 80, 320));
  for (uint32_t e = 2; e < kEntities; ++e) {  // a forest: parents at lower indices
    if (rng.chance(0.35)) rig.world.set_parent(e, 1 + static_cast<uint32_t>(rng.below(e - 1)));
  }
  for (uint32_t f = 1; f <= 12; ++f) {  // frames of 2-4 solo-or-not entities, changed together
    const uint32_t first = 10 * f;
    for (uint32_t m = 0; m < 2 + f % 3; ++m) rig.world.set_scene_frame(first + m, f);
  }
  ClientReplicationState client(rig.client_config());
  ClientView view;
  view.client = kViewer;
  view.pawn = 0;
  view.radius_m = 100.0f;
  view.budget_bytes = 420;
  std::map<int64_t, bool> delivered;  // frames the client got, acked 5 ticks later
  std::vector<int64_t> last_held(kEntities, -1);
  uint64_t orphans = 0, frames_refused = 0, removed_parents = 0, stepped_back = 0, reverted = 0;
  for (int64_t t = 1; t <= kTicks; ++t) {
    for (uint32_t e = 0; e < kEntities; ++e) {
      if (!rig.world.contains(e)) continue;
      const uint32_t frame = rig.world.scene_frame(e);
      const bool moves = frame == kNoSceneFrame ? rng.chance(0.5) : (t + frame) % 4 == 0;
      if (!moves) continue;
      rig.world.move(e, std::clamp(rig.world.x_m(e) + uniform(rng, -1, 1), 0.0f, 400.0f),
                     std::clamp(rig.world.z_m(e) + uniform(rng, -1, 1), 0.0f, 400.0f));
      rig.touch(e, t);
    }
    if (t % 150 == 0) {  // a parent goes away: its held children must leave the frame with it
      for (uint32_t e = 1; e < kEntities; ++e) {
        if (rig.world.contains(e) && rig.world.parent(e) != kNoEntity) {
          rig.world.remove(rig.world.parent(e));
          ++removed_parents;
          break;
        }
      }
    }
    if (delivered.count(t - 5) && delivered[t - 5]) (void)client.acknowledge(Tick::from_value(t - 5));
    rig.begin(t);
    const SentFrame& sent = rig.builder.compose(view, client);
    delivered[t] = !rng.chance(0.1);
    orphans += client.last.dropped_orphans;
    reverted += client.last.reverted;
    frames_refused += client.last.frames_refused;
    ASSERT_LE(client.last.estimated_record_bytes, client.last.record_budget_bytes);
    std::map<uint32_t, int64_t> frame_tick;  // scene frame -> the tick its present members hold
    for (const FrameEntity& fe : sent.entities) {
      const uint32_t e = fe.entity;
      ASSERT_TRUE(rig.world.contains(e));
      for (uint32_t up = rig.world.parent(e); up != kNoEntity; up = rig.world.parent(up)) {
        ASSERT_GE(SnapshotRig::held_tick(sent.view(), up), 0) << "child " << e << " without parent " << up << " at " << t;
      }
      bool broken = false;
      (void)rig.world.parent(e, &broken);
      ASSERT_FALSE(broken) << "entity " << e << " held after its parent was removed";
      const int64_t held = SnapshotRig::held_tick(sent.view(), e);
      if (client.last.reverted == 0) {
        ASSERT_GE(held, last_held[e]) << "entity " << e << " stepped back at tick " << t;
      } else {
        stepped_back += held < last_held[e] ? 1u : 0u;  // holds past the budget went back to the baseline
      }
      last_held[e] = held;
      const uint32_t f = rig.world.scene_frame(e);
      if (f == kNoSceneFrame) continue;
      const auto [it, fresh] = frame_tick.emplace(f, held);
      ASSERT_TRUE(fresh || it->second == held) << "scene frame " << f << " half held at tick " << t;
    }
  }
  std::printf("%llu orphans dropped, %llu scene frames waited whole, %llu parents removed, %llu holds reverted, "
              "%llu steps back\n",
              static_cast<unsigned long long>(orphans), static_cast<unsigned long long>(frames_refused),
              static_cast<unsigned long long>(removed_parents), static_cast<unsigned long long>(reverted),
              static_cast<unsigned long long>(stepped_back));
  EXPECT_LE(stepped_back, reverted);
  EXPECT_GT(frames_refused, 0u) << "the budget should have made a scene frame wait";
  EXPECT_GT(removed_parents, 0u);
}

}  // namespace
}  // namespace tickwire
