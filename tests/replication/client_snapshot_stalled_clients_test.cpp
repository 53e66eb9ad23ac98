// Clients that stop acking (a frozen or dead process, until its timeout) must not change what the
// others cost: their sent frames let go of the shared world frames as they leave the baseline
// window, so the pool never runs dry and the healthy clients' frames share exactly as they would
// without them. A stalled client that comes back decodes every snapshot it is sent.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <vector>

#include "client_snapshot_rig.h"
#include "support.h"
#include "tickwire/core/rng.h"
#include "tickwire/replication/frames/held_frames.h"

namespace tickwire {
namespace {

using test::SnapshotRig;

constexpr uint32_t kEntities = 160;
constexpr float kMapM = 200.0f;
constexpr uint16_t kHealthy = 3;
constexpr std::array<int64_t, 4> kStallAt = {40, 75, 110, 145};  // one stalled client per entry
constexpr int64_t kBackAt = 260;                                 // when the stalled ones come back
constexpr int64_t kTicks = 330;
constexpr int64_t kAckDelayTicks = 3;

float uniform(Rng& rng, float lo, float hi) { return lo + static_cast<float>(rng.unit()) * (hi - lo); }

// One client: its server-side state and what it decoded.
struct Peer {
  Peer(const ClientReplicationConfig& config, uint16_t id, int64_t stall_at) : state(config), stalled_from(stall_at) {
    view.client = id;
    view.x_m = 30.0f + 25.0f * id;  // spectators spread over the map, their interest overlapping
    view.z_m = 90.0f;
    view.radius_m = 80.0f;
    view.budget_bytes = 900;
  }
  bool stalled(int64_t t) const { return stalled_from != 0 && t >= stalled_from && t < kBackAt; }
  ClientReplicationState state;
  ClientView view;
  int64_t stalled_from = 0;  // 0: never stalls
  HeldFrames decoded;
  std::vector<int64_t> delivered;
  uint64_t copies = 0;              // states its kept frames hold as copies
  uint64_t decoded_after_back = 0;  // snapshots decoded once it came back
  uint64_t deltas_after_back = 0;   // of those, coded against a frame it acked after coming back
};

// A room's builder with its clients: the first kHealthy always ack; the others (when `stalls`)
// freeze at kStallAt and come back at kBackAt.
struct Room {
  explicit Room(bool stalls) : rig(kEntities, config(), kMapM) {
    const std::size_t count = kHealthy + (stalls ? kStallAt.size() : 0);
    peers.reserve(count);
    for (std::size_t c = 0; c < count; ++c) {
      const int64_t stall_at = c < kHealthy ? 0 : kStallAt[c - kHealthy];
      peers.emplace_back(rig.client_config(), static_cast<uint16_t>(c), stall_at);
    }
  }
  static ClientSnapshotBuilderConfig config() {
    ClientSnapshotBuilderConfig c;
    c.priority.lanes = LaneSchedule{30.0f, 3};
    return c;  // the default pool of shared world frames
  }

  // Serves every client at `t`. A stalled client is built for (the room does not know yet), but
  // its snapshot never leaves: the transport refuses it and the builder forgets the frame, so in
  // the sent-frame history only what it was sent before the stall stays, ageing.
  void serve(int64_t t, std::vector<uint8_t>& body) {
    rig.begin(t);
    const MonoTime now = MonoTime::from_ns(t * 16'666'667);
    for (Peer& p : peers) {
      if (!p.stalled(t) && std::find(p.delivered.begin(), p.delivered.end(), t - kAckDelayTicks) != p.delivered.end()) {
        ASSERT_TRUE(p.state.acknowledge(Tick::from_value(t - kAckDelayTicks))) << "client " << p.view.client << " tick " << t;
      }
      const Result<ClientSnapshot> built = rig.builder.build(p.view, now, p.state, body);
      ASSERT_TRUE(built.ok()) << "tick " << t;
      if (p.stalled(t)) {
        p.state.history.discard_last();
        continue;
      }
      const ClientSnapshot& snap = built.value();
      p.copies += snap.frame->copies.size();
      decode(p, t, snap, body);
    }
  }

  // The client decodes the body against the frames it holds: the same frame the server keeps.
  void decode(Peer& p, int64_t t, const ClientSnapshot& snap, const std::vector<uint8_t>& body) {
    DeltaRefs refs;
    refs.history = &p.decoded;
    if (snap.baseline_age != 0) {
      refs.baseline = p.decoded.find(static_cast<uint32_t>(t - snap.baseline_age));
      ASSERT_NE(refs.baseline, nullptr) << "client " << p.view.client << " tick " << t << ": a baseline it never decoded";
    }
    if (snap.predict_age != 0) {
      refs.older = p.decoded.find(static_cast<uint32_t>(t - snap.predict_age));
      ASSERT_NE(refs.older, nullptr) << "client " << p.view.client << " tick " << t;
    }
    ReplicaFrame out;
    ASSERT_TRUE(decode_snapshot_delta(body, static_cast<uint32_t>(t), refs, rig.kinds, out).ok())
        << "client " << p.view.client << " tick " << t;
    ASSERT_TRUE(same_frame(out, snap.frame->view())) << "client " << p.view.client << " tick " << t;
    p.decoded.keep(out);
    p.delivered.push_back(t);
    if (p.stalled_from != 0 && t >= kBackAt) {
      ++p.decoded_after_back;
      if (snap.baseline_age != 0 && t - snap.baseline_age >= kBackAt) ++p.deltas_after_back;
    }
  }

  SnapshotRig rig;
  std::vector<Peer> peers;
};

TEST(ClientSnapshotBuilder, StalledClientsLeaveTheOthersSharing) {
  const uint64_t seed = test::test_seed(0x5eed'0d11);
  Room with(true), without(false);  // the same world, with and without the stalled clients
  Rng rng(seed);
  for (uint32_t e = 0; e < kEntities; ++e) {
    const float x = uniform(rng, 0, kMapM), z = uniform(rng, 0, kMapM);
    for (Room* room : {&with, &without}) room->rig.put(e, x, z);
  }
  std::vector<uint8_t> body;
  for (int64_t t = 1; t <= kTicks; ++t) {
    for (uint32_t e = 0; e < kEntities; ++e) {
      if (!rng.chance(0.7)) continue;
      const float x = std::clamp(with.rig.world.x_m(e) + uniform(rng, -0.2f, 0.2f), 0.0f, kMapM);
      const float z = std::clamp(with.rig.world.z_m(e) + uniform(rng, -0.2f, 0.2f), 0.0f, kMapM);
      for (Room* room : {&with, &without}) {
        room->rig.world.move(e, x, z);
        room->rig.touch(e, t);
      }
    }
    for (Room* room : {&with, &without}) {
      room->serve(t, body);
      if (testing::Test::HasFatalFailure()) return;
    }
  }
  const ClientSnapshotBuilder& builder = with.rig.builder;
  std::printf("world frames allocated %u (without the stalled clients %u); ticks the pool ran dry %llu; frames released %llu; "
              "healthy client 0 kept %llu states as copies (%llu without the stalled clients)\n",
              builder.world_frames(), without.rig.builder.world_frames(),
              static_cast<unsigned long long>(builder.world_frame_events()[WorldFrameEvent::pool_dry]),
              static_cast<unsigned long long>(builder.world_frame_events()[WorldFrameEvent::released]),
              static_cast<unsigned long long>(with.peers[0].copies), static_cast<unsigned long long>(without.peers[0].copies));
  EXPECT_LE(builder.world_frames(), kMaxHeldWorldFrames) << "frames allocated: held at most, and the one published";
  EXPECT_EQ(builder.world_frame_events()[WorldFrameEvent::pool_dry], 0u) << "the pool never ran dry";
  EXPECT_GT(builder.world_frame_events()[WorldFrameEvent::released], 0u);
  EXPECT_EQ(builder.world_frame_events()[WorldFrameEvent::newest_copied], kStallAt.size())
      << "each stalled client's newest frame, once past the window, kept its states as copies";
  for (uint16_t c = 0; c < kHealthy; ++c) {
    EXPECT_EQ(with.peers[c].copies, without.peers[c].copies) << "client " << c << " copies what it would without the stalled ones";
    EXPECT_EQ(with.peers[c].delivered.size(), static_cast<std::size_t>(kTicks));
  }
  for (std::size_t c = kHealthy; c < with.peers.size(); ++c) {
    const Peer& p = with.peers[c];
    EXPECT_EQ(p.decoded_after_back, static_cast<uint64_t>(kTicks - kBackAt + 1)) << "client " << c;
    EXPECT_GT(p.deltas_after_back, static_cast<uint64_t>(kTicks - kBackAt) / 2)
        << "client " << c << " codes against what it acked since it came back";
  }
}

}  // namespace
}  // namespace tickwire
