// Objects leaving and joining a running room, and live map switches, through the whole system on
// the transatlantic profile: with three clients connected, the server despawns a moving door, a
// flickering lamp and a plate, brings them back, switches the reference map to another map and back
// again. Every client frame compares the client's newest snapshot with the server's records of that
// tick: the same objects (a despawned one never shows: no ghost; none missing) with the same fields.
// Each change must show on every client within the settle bound; the figures are printed.
#include <gtest/gtest.h>

#include <cstdio>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "facade_sim.h"
#include "game_profiles.h"
#include "lifecycle_map.h"
#include "object_records_match.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

using ObjectsAtTick = std::map<uint32_t, protocol::ObjectRecord>;  // by object index

constexpr double kSettleBoundMs = 2000.0;
constexpr std::size_t kServerHistoryTicks = 240;  // 4 s at 60 Hz: past any snapshot a client holds

// A change the server made between two ticks: the first tick it shows in, and when it was made.
struct Change {
  std::string what;
  uint32_t tick = 0;
  MonoTime at;
  std::vector<std::optional<double>> settled_ms;  // per client: when its snapshots first showed it
};

// What one client's frames saw, judged against the server's records of the same tick.
struct ClientTally {
  uint64_t compared = 0;   // frames whose newest snapshot the server's history still held
  uint64_t ghosts = 0;     // object records of objects the server did not have at that tick
  uint64_t missing = 0;    // objects the server had that the client's snapshot left out
  uint64_t mismatched = 0; // records whose fields differ from the server's
};

// Watches a GameSim: keeps the server's object records of its last ticks and judges every client
// frame's newest snapshot against the server's records of that tick; times each change it is told of.
class RecordsJudge {
 public:
  explicit RecordsJudge(GameSim& sim) : tally(sim.clients.size()), sim_(sim) {
    sim.watched.after_tick = [this](Tick tick) { keep(tick); };
    sim.after_frame = [this](SimGameClient& c) { judge(c); };
  }

  // The server just changed its objects (between two ticks): the next tick is the first to show it.
  void made(std::string what) {
    changes.push_back(Change{std::move(what), server_tick_ + 1, sim_.world.now,
                             std::vector<std::optional<double>>(sim_.clients.size())});
  }

  std::vector<ClientTally> tally;
  std::vector<Change> changes;

 private:
  void keep(Tick tick) {
    server_tick_ = tick.wire_u32();
    TickRecords out;
    sim_.game.write_records(tick, out);
    ObjectsAtTick& at = server_ticks_[server_tick_];
    for (const protocol::Record& r : out.records)
      if (const auto* o = std::get_if<protocol::ObjectRecord>(&r.body)) at[o->object_index] = *o;
    while (server_ticks_.size() > kServerHistoryTicks) server_ticks_.erase(server_ticks_.begin());
  }

  void judge(SimGameClient& c) {
    const protocol::Snapshot* latest = c.client.newest_snapshot();
    if (!latest) return;
    const auto server = server_ticks_.find(latest->tick);
    if (server == server_ticks_.end()) return;
    std::size_t i = 0;
    while (sim_.clients[i].get() != &c) ++i;
    ClientTally& t = tally[i];
    ++t.compared;
    std::size_t named = 0;
    bool matches = true;
    for (const protocol::Record& r : latest->records) {
      const auto* o = std::get_if<protocol::ObjectRecord>(&r.body);
      if (o == nullptr) continue;
      ++named;
      const auto s = server->second.find(o->object_index);
      if (s == server->second.end()) {
        ++t.ghosts;
        matches = false;
      } else if (!same_fields(*o, s->second)) {
        ++t.mismatched;
        matches = false;
      }
    }
    if (named < server->second.size()) {
      t.missing += server->second.size() - named;
      matches = false;
    }
    for (Change& change : changes)
      if (!change.settled_ms[i] && latest->tick >= change.tick && matches)
        change.settled_ms[i] = (sim_.world.now - change.at).milliseconds_f();
  }

  GameSim& sim_;
  std::map<uint32_t, ObjectsAtTick> server_ticks_;
  uint32_t server_tick_ = 0;
};

// Every client saw what the server had, tick for tick, and holds the table the server took last.
void expect_clients_matched(GameSim& sim, const RecordsJudge& judge, uint64_t seed, uint64_t min_compared) {
  for (std::size_t i = 0; i < sim.clients.size(); ++i) {
    SCOPED_TRACE("client " + std::to_string(i) + ", seed " + std::to_string(seed));
    const ClientTally& t = judge.tally[i];
    EXPECT_GT(t.compared, min_compared);
    EXPECT_EQ(t.ghosts, 0u) << "a despawned object showed on the client";
    EXPECT_EQ(t.missing, 0u);
    EXPECT_EQ(t.mismatched, 0u);
    std::printf("[ lifecycle sim ] client %zu: %llu frames compared, %llu ghosts, %llu missing, %llu mismatched\n", i,
                static_cast<unsigned long long>(t.compared), static_cast<unsigned long long>(t.ghosts),
                static_cast<unsigned long long>(t.missing), static_cast<unsigned long long>(t.mismatched));
    EXPECT_EQ(sim.clients[i]->client.session().deltas().rest_table().revision(),
              sim.server.replication().rest_table().revision())
        << "the client holds the table the server took last";
  }
  std::printf("[ lifecycle sim ] rest table revision %u after %llu takes\n", sim.server.replication().rest_table().revision(),
              static_cast<unsigned long long>(sim.server.replication().rest_table().takes()));
}

// Three clients standing still on the transatlantic profile.
void add_standing_clients(GameSim& sim, const LinkModel& link) {
  GameClientSetup standing;
  standing.up = standing.down = link;
  standing.input = [](uint32_t) { return protocol::InputCmd{}; };
  for (int i = 0; i < 3; ++i) sim.add_client(standing);
}

TEST(ObjectLifecycleSim, DespawnsRespawnsAndMapSwitchesReachEveryClientWithNoGhost) {
  const uint64_t seed = 1719;
  const std::optional<LinkModel> link = link_profile("transatlantic");
  ASSERT_TRUE(link.has_value());
  const world::Map other = load_test_map(std::string(kLifecycleMapText));  // map B: outlives the game
  GameSim sim(seed, GameSimConfig{});
  add_standing_clients(sim, *link);
  RecordsJudge judge(sim);
  const auto made = [&](std::string what) { judge.made(std::move(what)); };

  sim.run_for(Duration::seconds(3));
  ASSERT_TRUE(sim.all_welcomed()) << "seed " << seed;
  const world::Map& reference = sim.map;
  const uint32_t door = *reference.object_index("door.n");
  const uint32_t plate = *reference.object_index("plate.lift.w");
  uint32_t lamp = 0;  // the first light: it flickers, so its record changes every tick
  while (reference.objects()[lamp].component("light") == nullptr) ++lamp;

  sim.game.logic()->runtime().deliver(LogicNodeId{door}, "toggle", {});
  sim.run_for(Duration::milliseconds(300));
  ASSERT_GT(sim.game.object_component(door, 0).channels[0], 0.0f) << "the door is on its way";
  for (uint32_t index : {door, lamp, plate}) ASSERT_TRUE(sim.game.despawn_object(index));
  made("despawn door, lamp, plate");
  sim.run_for(Duration::seconds(2));
  for (uint32_t index : {door, lamp, plate}) ASSERT_TRUE(sim.game.spawn_object(index));
  made("respawn door, lamp, plate");
  sim.run_for(Duration::seconds(2));
  // Every client learns which map it is on with the rest table (what a game rebuilds its catalog on).
  const auto every_client_on = [&](const world::Map& map, const char* when) {
    for (std::size_t i = 0; i < sim.clients.size(); ++i)
      EXPECT_EQ(sim.clients[i]->facade->map_identity().bytes, map.content_hash()) << when << ", client " << i;
  };
  every_client_on(reference, "before the switch");
  sim.game.switch_map(other);
  made("switch to " + std::string(other.name()));
  sim.run_for(Duration::seconds(3));
  every_client_on(other, "after the switch");
  sim.game.switch_map(reference);
  made("switch back to " + std::string(reference.name()));
  sim.run_for(Duration::seconds(3));
  every_client_on(reference, "after the switch back");

  expect_clients_matched(sim, judge, seed, 1000);
  for (const Change& change : judge.changes) {
    for (std::size_t i = 0; i < sim.clients.size(); ++i) {
      ASSERT_TRUE(change.settled_ms[i].has_value()) << change.what << ", client " << i << ", seed " << seed;
      EXPECT_LT(*change.settled_ms[i], kSettleBoundMs) << change.what << ", client " << i << ", seed " << seed;
    }
    std::printf("[ lifecycle sim ] %s (tick %u): every client's records equal the server's after %.0f / %.0f / %.0f ms\n",
                change.what.c_str(), change.tick, *change.settled_ms[0], *change.settled_ms[1], *change.settled_ms[2]);
  }
  const world::ObjectLifecycleCounts& counts = sim.game.lifecycle();
  EXPECT_EQ(counts.despawns, 3u);
  EXPECT_EQ(counts.spawns, 3u);
  EXPECT_EQ(counts.map_switches, 2u);
  EXPECT_EQ(counts.last_discarded, LogicRuntimeSizes{}) << "the discarded runtime held nothing";
  EXPECT_EQ(reason_count(sim.facade->stats().reasons, "game.map.switch"), 2u);
  EXPECT_EQ(reason_count(sim.facade->stats().reasons, "game.object.despawn"), 3u);
  EXPECT_EQ(sim.invariants.total(), 0u);
}

// A thousand spawn/despawn cycles of the reference map's logic objects, each despawned with work in
// flight a tick after it was set going, while three clients watch: the runtime ends as it began
// (nodes, names, nothing retired, only what the fresh objects scheduled), no entry is ever found
// stale, a door brought back never moves on its old wake, and every client frame matches the server.
TEST(ObjectLifecycleSim, AThousandCyclesUnderThreeClientsLeakNothing) {
  const uint64_t seed = 2717;
  const std::optional<LinkModel> link = link_profile("transatlantic");
  ASSERT_TRUE(link.has_value());
  GameSim sim(seed, GameSimConfig{});
  add_standing_clients(sim, *link);
  RecordsJudge judge(sim);
  sim.run_for(Duration::seconds(3));
  ASSERT_TRUE(sim.all_welcomed()) << "seed " << seed;

  const world::Map& map = sim.map;
  struct Cycled {
    const char* key;
    const char* input;  // what sets it going before it is despawned (none for a lamp)
  };
  const Cycled cycled[] = {{"door.n", "toggle"}, {"button.s", "press"}, {"lift.w", "open"},
                           {"plate.lift.w", nullptr}, {"trigger.lamp", nullptr}, {"light.grid.05.05", "toggle"}};
  const LogicRuntime& runtime = sim.game.logic()->runtime();
  const LogicRuntimeSizes before = runtime.sizes();
  const uint64_t dropped_before = runtime.drops()[LogicDrop::unloaded_in_flight];
  const Duration tick = Duration::from_seconds(1.0 / GameSimConfig{}.tick_rate_hz);
  constexpr int kCycles = 1000;
  for (int i = 0; i < kCycles; ++i) {
    const Cycled& c = cycled[i % std::size(cycled)];
    const uint32_t index = *map.object_index(c.key);
    if (c.input != nullptr) {
      ASSERT_TRUE(sim.game.logic()->runtime().deliver(LogicNodeId{index}, c.input, {})) << c.key;
    }
    sim.run_for(tick);
    ASSERT_TRUE(sim.game.despawn_object(index)) << c.key;
    sim.run_for(tick);
    ASSERT_TRUE(sim.game.spawn_object(index)) << c.key;
    sim.run_for(tick * 2);
    if (std::string_view(c.key) == "door.n") {
      ASSERT_EQ(sim.game.object_component(index, 0).channels[0], 0.0f) << "cycle " << i << ": no old wake moved it";
    }
  }
  sim.run_for(Duration::seconds(3));  // what the last cycles set going runs out; the last table arrives

  const LogicRuntimeSizes after = runtime.sizes();
  EXPECT_EQ(after.nodes, before.nodes);
  EXPECT_EQ(after.names, before.names);
  EXPECT_EQ(after.retired, 0u);
  EXPECT_EQ(after.scheduled, before.scheduled) << "only what the fresh objects scheduled";
  EXPECT_EQ(runtime.drops()[LogicDrop::stale_generation], 0u);
  EXPECT_EQ(sim.game.lifecycle().despawns, static_cast<uint64_t>(kCycles));
  EXPECT_EQ(sim.game.lifecycle().spawns, static_cast<uint64_t>(kCycles));
  std::printf("[ lifecycle sim ] %d cycles: %llu entries dropped in flight, runtime %zu nodes, %zu names, %zu "
              "scheduled, %zu retired (before: %zu, %zu, %zu, %zu)\n",
              kCycles, static_cast<unsigned long long>(runtime.drops()[LogicDrop::unloaded_in_flight] - dropped_before),
              after.nodes, after.names, after.scheduled, after.retired, before.nodes, before.names, before.scheduled,
              before.retired);
  expect_clients_matched(sim, judge, seed, 5000);
  EXPECT_EQ(sim.invariants.total(), 0u);
}

}  // namespace
}  // namespace tickwire
