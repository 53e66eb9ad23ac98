// Sent frames point into shared world frames instead of copying their states; when no shared frame
// is free they copy. Where the states live must never change a byte: two builders, one sharing
// freely and one with too few shared frames to share most ticks, write identical bodies, and every
// frame either keeps reads back as the states it was built from.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "client_snapshot_rig.h"
#include "support.h"
#include "tickwire/core/rng.h"

namespace tickwire {
namespace {

using test::SnapshotRig;

float uniform(Rng& rng, float lo, float hi) { return lo + static_cast<float>(rng.unit()) * (hi - lo); }

struct Builder {
  Builder(uint32_t entities, uint32_t max_shared_frames) : rig(entities, config_of(max_shared_frames), 200.0f) {}
  static ClientSnapshotBuilderConfig config_of(uint32_t max_shared_frames) {
    ClientSnapshotBuilderConfig c;
    c.priority.lanes = LaneSchedule{30.0f, 3};
    c.max_shared_frames = max_shared_frames;
    return c;
  }
  SnapshotRig rig;
  std::vector<ClientReplicationState> clients;
  uint64_t shared = 0, copied = 0;  // states of the frames built, by where they live
};

TEST(ClientSnapshotBuilder, WhereStatesLiveChangesNoByte) {
  const uint64_t seed = test::test_seed(0x5eed'0d07);
  constexpr uint32_t kEntities = 150;
  constexpr uint32_t kClients = 3;
  constexpr int64_t kTicks = 160;
  Builder sharing(kEntities, SharedWorldFrames::kDefaultMaxFrames);
  Builder scarce(kEntities, 2);  // two frames: most ticks find none free and copy
  for (Builder* run : {&sharing, &scarce}) {
    Rng place(seed);
    for (uint32_t e = 0; e < kEntities; ++e) run->rig.put(e, uniform(place, 0, 200), uniform(place, 0, 200));
    run->clients.reserve(kClients);
    for (uint32_t c = 0; c < kClients; ++c) run->clients.emplace_back(run->rig.client_config());
  }
  Rng rng(seed ^ 0x77);
  std::vector<uint8_t> body_a, body_b;
  for (int64_t t = 1; t <= kTicks; ++t) {
    for (uint32_t e = 0; e < kEntities; ++e) {
      if (e % 4 == 0 || !rng.chance(0.5)) continue;  // a quarter stays at rest throughout
      const float x = std::clamp(sharing.rig.world.x_m(e) + uniform(rng, -0.3f, 0.3f), 0.0f, 200.0f);
      const float z = std::clamp(sharing.rig.world.z_m(e) + uniform(rng, -0.3f, 0.3f), 0.0f, 200.0f);
      for (Builder* run : {&sharing, &scarce}) {
        run->rig.world.move(e, x, z);
        run->rig.touch(e, t);
      }
    }
    const bool acked = t > 6 && t % 5 != 0;
    for (Builder* run : {&sharing, &scarce}) run->rig.begin(t);
    for (uint16_t c = 0; c < kClients; ++c) {
      ClientView view{c, kNoEntity, 40.0f + 60.0f * c, 100.0f, 70.0f, c == 0 ? 400u : 1100u, {}};
      for (Builder* run : {&sharing, &scarce}) {
        if (acked) (void)run->clients[c].acknowledge(Tick::from_value(t - 6));
      }
      const MonoTime now = MonoTime::from_ns(t * 16'666'667);
      const Result<ClientSnapshot> a = sharing.rig.builder.build(view, now, sharing.clients[c], body_a);
      const Result<ClientSnapshot> b = scarce.rig.builder.build(view, now, scarce.clients[c], body_b);
      ASSERT_TRUE(a.ok() && b.ok()) << "tick " << t;
      ASSERT_EQ(body_a, body_b) << "client " << c << " tick " << t;
      ASSERT_TRUE(same_frame(a.value().frame->view(), b.value().frame->view())) << "client " << c << " tick " << t;
      for (Builder* run : {&sharing, &scarce}) {
        const SentFrame& sent = *(run == &sharing ? a : b).value().frame;
        EXPECT_LE(sent.sources.size(), SentFrame::kMaxSources);
        run->copied += sent.copies.size();
        run->shared += sent.states.size() - sent.copies.size();
      }
    }
  }
  EXPECT_GT(scarce.copied, scarce.shared) << "two shared frames cannot serve most ticks";
  EXPECT_GT(sharing.shared, 0u);
  // Only a state held past kMaxSharedAgeTicks is copied (an entity starved that long by its budget).
  EXPECT_LT(sharing.copied * 100, sharing.shared) << "sharing freely, copies are rare";
}

}  // namespace
}  // namespace tickwire
