// The game's interest notes through the room, for a client of this build (interest, budget and
// delta) and one of another build that takes only full snapshots (the same interest composer):
// a record private to one owner reaches that owner alone, an always-relevant one reaches everyone
// at any distance, and a child is never sent without its parent (pulled in from beyond the radius).
#include <gtest/gtest.h>

#include <set>

#include "room_sim.h"
#include "support.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/interact_request.h"
#include "tickwire/protocol/ping.h"
#include "tickwire/protocol/relay_refused.h"
#include "tickwire/protocol/fixed_frame.h"
#include "tickwire/protocol/material_set.h"
#include "tickwire/protocol/record_batch.h"
#include "tickwire/protocol/room_welcome.h"
#include "tickwire/protocol/server_info.h"
#include "tickwire/protocol/snapshot.h"
#include "tickwire/protocol/snapshot_fragment.h"
#include "tickwire/wire/message_registry.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

constexpr uint32_t kSecretId = 2'000'001;  // private to the first client's owner
constexpr uint32_t kBeaconId = 2'000'002;  // always relevant, 5 km away
constexpr uint32_t kChildId = 2'000'003;   // near everyone, parented to a far entity
constexpr uint32_t kParentId = 2'000'004;  // 3 km away

protocol::Record prop_at(uint32_t id, float x, float z) {
  protocol::EntityRecord e;
  e.kind = kTestKindProp;
  e.position = {x, 0.0f, z};
  return protocol::Record{id, e};
}

// The schema of a build that takes only full snapshots (no snapshotDelta, no mapRestTable).
const std::string& full_only_schema() {
  static const std::string text =
      wire::WireMessages::of<protocol::ConnectRequest, protocol::SchemaRequest, protocol::SchemaText, protocol::Ping,
                             protocol::ServerInfo, protocol::InputFrame, protocol::RecordBatch, protocol::MaterialSet,
                             protocol::RoomWelcome, protocol::SnapshotFragment, protocol::Snapshot,
                             protocol::InteractRequest, protocol::RelayRefused>()
          .schema_text();
  return text;
}

struct Seen {
  std::set<uint32_t> ids;
  uint64_t snapshots = 0;
  uint64_t child_without_parent = 0;
};

TEST(InterestNotes, PrivateAlwaysRelevantAndParentsHoldForDeltaAndFullClients) {
  const uint64_t seed = test_seed(0x1e7e);
  RoomSim sim(seed);
  sim.world.net.set_default_link(steady_link(10));
  SchemaCache full_cache(full_only_schema());
  SimSessionClient& delta = sim.add_client();
  SessionClientConfig full_config;
  full_config.build_name = "tickwire-full";
  SimSessionClient& full = sim.add_client(1.0, full_config, &full_cache);
  sim.run_for(Duration::seconds(1));
  ASSERT_TRUE(sim.all_welcomed()) << "seed " << seed;
  const OwnerId delta_owner = delta.session.welcome()->owner_id;

  RecordInterest secret;
  secret.private_to = delta_owner;
  RecordInterest beacon;
  beacon.always_relevant = true;
  RecordInterest child;
  child.parent_id = kParentId;
  sim.simulation.noted = {{prop_at(kSecretId, 1, 1), secret},
                          {prop_at(kBeaconId, 5000, 5000), beacon},
                          {prop_at(kChildId, 2, 2), child},
                          {prop_at(kParentId, 3000, 3000), RecordInterest{}}};
  std::map<const SimSessionClient*, Seen> seen;
  sim.on_snapshot = [&](SimSessionClient& c, const protocol::Snapshot& s) {
    Seen& mine = seen[&c];
    ++mine.snapshots;
    bool has_child = false, has_parent = false;
    for (const protocol::Record& r : s.records) {
      mine.ids.insert(r.entity_id);
      has_child = has_child || r.entity_id == kChildId;
      has_parent = has_parent || r.entity_id == kParentId;
    }
    if (has_child && !has_parent) ++mine.child_without_parent;
  };
  sim.run_for(Duration::seconds(3));
  for (const SimSessionClient* c : {&delta, &full}) {
    const Seen& s = seen[c];
    const char* who = c == &delta ? "delta client" : "full-snapshot client";
    ASSERT_GT(s.snapshots, 60u) << who;
    EXPECT_TRUE(s.ids.count(kBeaconId)) << who << ": always relevant at 5 km";
    EXPECT_TRUE(s.ids.count(kChildId)) << who;
    EXPECT_TRUE(s.ids.count(kParentId)) << who << ": the child's parent, pulled in from 3 km";
    EXPECT_EQ(s.child_without_parent, 0u) << who;
  }
  EXPECT_TRUE(seen[&delta].ids.count(kSecretId)) << "its owner sees a private record";
  EXPECT_FALSE(seen[&full].ids.count(kSecretId)) << "nobody else does";
  const auto full_stats = sim.server.stats(static_cast<uint32_t>(full.session.welcome()->owner_id - 1));
  ASSERT_TRUE(full_stats && full_stats->replication);
  EXPECT_GT(full_stats->replication->snapshots_sent, 60u);
  EXPECT_EQ(full_stats->replication->delta_snapshots, 0u) << "full snapshots only";
  EXPECT_EQ(sim.invariants.total(), 0u);
}

}  // namespace
}  // namespace tickwire
