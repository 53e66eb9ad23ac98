// The loose-budget path of the client snapshot builder: while a client's snapshots take a small
// part of its budget nothing is estimated, and what goes out must be byte for byte what a full fit
// would have sent; a loose snapshot that passes the budget after all is fitted again, in full.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "client_snapshot_rig.h"
#include "support.h"
#include "tickwire/core/rng.h"

namespace tickwire {
namespace {

using test::SnapshotRig;

constexpr uint16_t kViewer = 1;

float uniform(Rng& rng, float lo, float hi) { return lo + static_cast<float>(rng.unit()) * (hi - lo); }

ClientView viewer_at(uint32_t pawn, uint32_t budget_bytes) {
  ClientView view;
  view.client = kViewer;
  view.pawn = pawn;
  view.radius_m = 100.0f;
  view.budget_bytes = budget_bytes;
  return view;
}

ClientSnapshotBuilderConfig lanes_config(float loose_below) {
  ClientSnapshotBuilderConfig config;
  config.priority.lanes = LaneSchedule{30.0f, 3};  // near ones every tick, the rest every third
  config.loose_below = loose_below;
  return config;
}

// Two builders over the same moving world, one that may take the loose path and one that always
// estimates and fits: with a budget even the estimates never find tight, every body is the same.
TEST(ClientSnapshotLooseBudget, ALooseBudgetSendsExactlyWhatAFullFitWould) {
  const uint64_t seed = test::test_seed(0x5eed'0d05);
  Rng rng(seed);
  constexpr uint32_t kEntities = 20;
  constexpr int64_t kTicks = 300;
  constexpr int64_t kAckDelayTicks = 3;
  SnapshotRig loose(kEntities, lanes_config(0.5f), 200.0f);
  SnapshotRig full(kEntities, lanes_config(0.0f), 200.0f);
  std::vector<float> x(kEntities), z(kEntities);
  for (uint32_t e = 0; e < kEntities; ++e) {
    x[e] = uniform(rng, 60, 140);
    z[e] = uniform(rng, 60, 140);
    const uint8_t flags = e == 0 ? kInterestImportant : uint8_t{0};
    loose.put(e, x[e], z[e], flags, e == 0 ? kViewer : kNoOwnerClient);
    full.put(e, x[e], z[e], flags, e == 0 ? kViewer : kNoOwnerClient);
  }
  ClientReplicationState loose_client(loose.client_config()), full_client(full.client_config());
  const ClientView view = viewer_at(0, 1100);
  std::vector<uint8_t> loose_body, full_body;
  uint32_t loose_ticks = 0;
  for (int64_t t = 1; t <= kTicks; ++t) {
    for (uint32_t e = 0; e < kEntities; ++e) {
      if (!rng.chance(0.7)) continue;  // most move every tick, some pause
      x[e] = std::clamp(x[e] + uniform(rng, -0.3f, 0.3f), 0.0f, 200.0f);
      z[e] = std::clamp(z[e] + uniform(rng, -0.3f, 0.3f), 0.0f, 200.0f);
      for (SnapshotRig* rig : {&loose, &full}) {
        rig->world.move(e, x[e], z[e]);
        rig->touch(e, t);
      }
    }
    if (t > kAckDelayTicks) {
      ASSERT_TRUE(loose_client.acknowledge(Tick::from_value(t - kAckDelayTicks)));
      ASSERT_TRUE(full_client.acknowledge(Tick::from_value(t - kAckDelayTicks)));
    }
    const MonoTime now = MonoTime::from_ns(t * 16'666'667);
    loose.begin(t);
    full.begin(t);
    ASSERT_TRUE(loose.builder.build(view, now, loose_client, loose_body).ok()) << "tick " << t;
    ASSERT_TRUE(full.builder.build(view, now, full_client, full_body).ok()) << "tick " << t;
    ASSERT_FALSE(full_client.last.loose);
    ASSERT_EQ(full_client.last.skipped, 0u) << "tick " << t << ": the budget must not be tight for the full fit either";
    ASSERT_EQ(loose_body, full_body) << "tick " << t << (loose_client.last.loose ? " (loose)" : " (fitted)");
    ASSERT_EQ(loose_client.last.selected, full_client.last.selected) << "tick " << t;
    ASSERT_EQ(loose_client.last.refits, 0u);
    loose_ticks += loose_client.last.loose ? 1u : 0u;
  }
  std::printf("%u of %lld ticks loose, last snapshot %zu bytes of 1100\n", loose_ticks,
              static_cast<long long>(kTicks), loose_client.last.message_bytes);
  EXPECT_GE(loose_ticks, kTicks - 2) << "every tick after the first snapshot should take the loose path";
}

// Entities at rest (tiny snapshots, so the path is loose) all jump at once: the loose frame passes
// the budget, and the tick is fitted again, in full, within it. (Before that, while the client
// fills up, a loose attempt may be fitted again too: that is the check doing its work.)
TEST(ClientSnapshotLooseBudget, ALooseSnapshotPastItsBudgetIsFittedAgainInFull) {
  const uint64_t seed = test::test_seed(0x5eed'0d06);
  Rng rng(seed);
  constexpr uint32_t kEntities = 120;
  constexpr uint32_t kBudgetBytes = 400;
  constexpr int64_t kJumpTick = 60;
  SnapshotRig rig(kEntities, lanes_config(0.5f), 200.0f);
  for (uint32_t e = 0; e < kEntities; ++e) {
    rig.put(e, uniform(rng, 40, 160), uniform(rng, 40, 160), e == 0 ? kInterestImportant : uint8_t{0},
            e == 0 ? kViewer : kNoOwnerClient);
  }
  ClientReplicationState client(rig.client_config());
  const ClientView view = viewer_at(0, kBudgetBytes);
  std::vector<uint8_t> body;
  for (int64_t t = 1; t <= kJumpTick; ++t) {
    if (t == kJumpTick) {
      for (uint32_t e = 0; e < kEntities; ++e) {
        rig.world.move(e, uniform(rng, 40, 160), uniform(rng, 40, 160));
        rig.touch(e, t);
      }
    }
    if (t > 1) {
      ASSERT_TRUE(client.acknowledge(Tick::from_value(t - 1)));
    }
    rig.begin(t);
    const bool was_loose_candidate = client.last.sent && client.peak_message_bytes * 2 <= kBudgetBytes;
    ASSERT_TRUE(rig.builder.build(view, MonoTime::from_ns(t * 16'666'667), client, body).ok()) << "tick " << t;
    const SnapshotDiagnostics& d = client.last;
    EXPECT_LE(d.message_bytes, kBudgetBytes) << "tick " << t;
    if (t < kJumpTick) continue;
    ASSERT_TRUE(was_loose_candidate) << "the snapshots before the jump should have been small";
    EXPECT_EQ(d.refits, 1u) << "the loose frame passed the budget and was fitted again";
    EXPECT_FALSE(d.loose) << "the second fit estimates";
    EXPECT_GT(d.skipped, 0u) << "not everything fits after the jump";
    EXPECT_LE(d.message_bytes, kBudgetBytes);
  }
}

}  // namespace
}  // namespace tickwire
