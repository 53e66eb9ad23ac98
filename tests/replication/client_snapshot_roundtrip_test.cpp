// The builder's snapshots through the real codec: for several clients, with acks 6 ticks late and
// 5% of snapshots lost, each body decoded against the frames that client really decoded is exactly
// the frame the builder says the client holds; the diagnostics agree with the bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "allocation_counter.h"
#include "client_snapshot_rig.h"
#include "support.h"
#include "tickwire/core/rng.h"
#include "tickwire/replication/frames/held_frames.h"
#include "tickwire/wire/codec.h"

namespace tickwire {
namespace {

using test::SnapshotRig;

float uniform(Rng& rng, float lo, float hi) { return lo + static_cast<float>(rng.unit()) * (hi - lo); }

// The owner detail as its wire bytes (floats travel exactly, so equal bytes are equal values).
std::vector<uint8_t> owner_bytes(const std::optional<protocol::OwnerDetail>& owner) {
  if (!owner) return {};
  std::vector<uint8_t> bytes(wire::measure(*owner));
  EXPECT_TRUE(wire::encode(*owner, bytes).ok());
  return bytes;
}

struct Peer {
  explicit Peer(const ClientReplicationConfig& config) : state(config) {}
  ClientReplicationState state;
  ClientView view;
  HeldFrames decoded;  // what this client holds: the client's own store
  std::map<int64_t, bool> delivered;
};

TEST(ClientSnapshotBuilder, EveryBodyDecodesToTheFrameTheClientIsSaidToHold) {
  const uint64_t seed = test::test_seed(0x5eed'0d03);
  Rng rng(seed);
  constexpr uint32_t kEntities = 240;
  constexpr uint32_t kClients = 3;
  constexpr int64_t kTicks = 400;
  constexpr int64_t kAckDelayTicks = 6;
  ClientSnapshotBuilderConfig config;
  config.priority.lanes = LaneSchedule{30.0f, 3};
  SnapshotRig rig(kEntities, config, 300.0f);
  for (uint32_t e = 0; e < kEntities; ++e) {
    const bool pawn = e < kClients;
    const uint8_t flags = pawn ? kInterestImportant : (e % 50 == 7 ? kInterestAlwaysRelevant : uint8_t{0});
    rig.put(e, uniform(rng, 0, 300), uniform(rng, 0, 300), flags, pawn ? static_cast<uint16_t>(e) : kNoOwnerClient);
  }
  for (uint32_t e = kClients + 1; e < kEntities; ++e) {
    if (rng.chance(0.2)) rig.world.set_parent(e, kClients + static_cast<uint32_t>(rng.below(e - kClients)));
  }
  std::vector<Peer> peers;
  peers.reserve(kClients);
  for (uint16_t c = 0; c < kClients; ++c) {
    peers.emplace_back(rig.client_config());
    Peer& p = peers.back();
    p.view.client = c;
    p.view.pawn = c;
    p.view.radius_m = c == 0 ? 400.0f : 80.0f;  // client 0 sees the whole map, with room for it
    p.view.budget_bytes = c == 0 ? 6000u : 600u;  // so its snapshots fragment; the others are tight
  }
  std::vector<uint8_t> body;
  uint64_t decoded = 0, lost = 0, with_baseline = 0;
  for (int64_t t = 1; t <= kTicks; ++t) {
    for (uint32_t e = 0; e < kEntities; ++e) {
      if (!rng.chance(0.6)) continue;
      rig.world.move(e, std::clamp(rig.world.x_m(e) + uniform(rng, -0.08f, 0.08f), 0.0f, 300.0f),
                     std::clamp(rig.world.z_m(e) + uniform(rng, -0.08f, 0.08f), 0.0f, 300.0f));
      rig.touch(e, t);
    }
    rig.begin(t);
    const MonoTime now = MonoTime::from_ns(t * 16'666'667);
    for (Peer& p : peers) {
      if (p.delivered[t - kAckDelayTicks]) {
        ASSERT_TRUE(p.state.acknowledge(Tick::from_value(t - kAckDelayTicks)));
      }
      p.view.owner = protocol::OwnerDetail{};
      p.view.owner->queue_depth = static_cast<int8_t>(t % 5);
      p.view.owner->pawn.position = protocol::Vec3{rig.world.x_m(p.view.pawn), 0.0f, rig.world.z_m(p.view.pawn)};
      const Result<ClientSnapshot> built = rig.builder.build(p.view, now, p.state, body);
      ASSERT_TRUE(built.ok()) << "tick " << t;
      const ClientSnapshot& snap = built.value();
      const SnapshotDiagnostics& d = *snap.diagnostics;
      EXPECT_EQ(d.message_bytes, 1 + wire::measure(protocol::SnapshotDelta{}) + body.size());
      EXPECT_EQ(d.body_bytes, body.size());
      EXPECT_GE(d.fragments, 1u);
      EXPECT_EQ(d.records_sent + d.unchanged, d.frame_entities) << "every held record is sent or unchanged";
      p.delivered[t] = !rng.chance(0.05);
      if (!p.delivered[t]) {
        ++lost;
        continue;
      }
      DeltaRefs refs;
      refs.history = &p.decoded;  // the body may fit over any frame the client holds
      if (snap.baseline_age != 0) {
        ++with_baseline;
        refs.baseline = p.decoded.find(static_cast<uint32_t>(t - snap.baseline_age));
        ASSERT_NE(refs.baseline, nullptr) << "a baseline the client never decoded";
      }
      if (snap.predict_age != 0) {
        refs.older = p.decoded.find(static_cast<uint32_t>(t - snap.predict_age));
        ASSERT_NE(refs.older, nullptr);
      }
      ReplicaFrame out;
      ASSERT_TRUE(decode_snapshot_delta(body, static_cast<uint32_t>(t), refs, rig.kinds, out).ok()) << "tick " << t;
      const FrameView sent = snap.frame->view();
      ASSERT_EQ(out.tick, sent.tick());
      ASSERT_TRUE(same_frame(out, sent)) << "client " << p.view.client << " tick " << t;
      ASSERT_EQ(owner_bytes(out.owner), owner_bytes(sent.owner())) << "tick " << t;
      p.decoded.keep(out);
      ++decoded;
    }
  }
  const std::string line = format_snapshot_diagnostics(0, Tick::from_value(kTicks), peers[0].state.window);
  std::printf("%llu decoded, %llu lost, %llu against a baseline\n%s\n", static_cast<unsigned long long>(decoded),
              static_cast<unsigned long long>(lost), static_cast<unsigned long long>(with_baseline), line.c_str());
  EXPECT_NE(line.find("400 snapshots"), std::string::npos);
  EXPECT_GT(peers[0].state.window.fragmented, 0u) << "client 0's budget lets its snapshot pass one message";
  EXPECT_GT(peers[1].state.window.skipped, 0u) << "client 1's budget should have deferred something";
  EXPECT_GT(with_baseline, decoded / 2);
  for (const Peer& p : peers) EXPECT_GT(p.state.budget_log.composition_lines(), 0u);
}

// After warm-up (every frame slot at its high-water size), a tick's builds allocate nothing.
TEST(ClientSnapshotBuilder, ATickAllocatesNothingAfterWarmUp) {
  const uint64_t seed = test::test_seed(0x5eed'0d04);
  Rng rng(seed);
  constexpr uint32_t kEntities = 120;
  constexpr uint32_t kClients = 4;
  SnapshotRig rig(kEntities, ClientSnapshotBuilderConfig{}, 200.0f);
  for (uint32_t e = 0; e < kEntities; ++e) {
    rig.put(e, uniform(rng, 50, 150), uniform(rng, 50, 150), 0, e < kClients ? static_cast<uint16_t>(e) : kNoOwnerClient);
  }
  std::vector<Peer> peers;
  peers.reserve(kClients);
  for (uint16_t c = 0; c < kClients; ++c) {
    peers.emplace_back(rig.client_config());
    peers.back().view = ClientView{c, c, 0.0f, 0.0f, 300.0f, 700u, protocol::OwnerDetail{}};  // sees everything
  }
  std::vector<uint8_t> body;
  body.reserve(protocol::MaxSnapshotBytes);
  const auto run_tick = [&](int64_t t) {
    for (uint32_t e = 0; e < kEntities; ++e) {
      rig.world.move(e, std::clamp(rig.world.x_m(e) + uniform(rng, -0.1f, 0.1f), 50.0f, 150.0f),
                     std::clamp(rig.world.z_m(e) + uniform(rng, -0.1f, 0.1f), 50.0f, 150.0f));
      rig.touch(e, t);
    }
    rig.begin(t);
    for (Peer& p : peers) {
      if (t > 6 && t % 7 != 0) (void)p.state.acknowledge(Tick::from_value(t - 6));
      ASSERT_TRUE(rig.builder.build(p.view, MonoTime::from_ns(t * 16'666'667), p.state, body).ok());
    }
  };
  for (int64_t t = 1; t <= 400; ++t) run_tick(t);
  const uint64_t before = test::allocation_count();
  for (int64_t t = 401; t <= 600; ++t) run_tick(t);
  if (test::allocation_counting()) {
    EXPECT_EQ(test::allocation_count(), before);
  }
}

}  // namespace
}  // namespace tickwire
