// The map's logic through the whole system, on the transatlantic profile: a client stands before
// the north button and presses Use (its input's Use bit, the flow every client already has); the
// server's logic opens the door; every client's snapshots carry the door opening within the
// latency window, and every object record a client holds equals the server's record of that tick.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <vector>

#include "game_profiles.h"
#include "object_records_match.h"
#include "use_presser.h"
#include "tickwire/world/pawn_buttons.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

// The server's whole records of each map object at one tick, by object index.
using ObjectsAtTick = std::map<uint32_t, protocol::ObjectRecord>;

TEST(GameLogic, AUsePressOpensTheDoorOnEveryClientAndEveryRecordMatchesTheServer) {
  const uint64_t seed = 1717;
  const std::optional<LinkModel> link = link_profile("transatlantic");
  ASSERT_TRUE(link.has_value());
  GameSim sim(seed, GameSimConfig{});
  const uint32_t door = *sim.map.object_index("door.n");

  // Standing still, facing +z (the north wall), pressing Use when told; two watchers.
  const std::shared_ptr<bool> pressing = add_presser_and_watchers(sim, *link, 0.0f);

  // The server's records per tick (the last two seconds), and when its door first stood open.
  std::map<uint32_t, ObjectsAtTick> server_ticks;
  std::optional<MonoTime> server_open;
  sim.watched.after_tick = [&](Tick tick) {
    TickRecords out;
    sim.game.write_records(tick, out);  // whole: every map object, every field
    ObjectsAtTick& at = server_ticks[tick.wire_u32()];
    for (const protocol::Record& r : out.records)
      if (const auto* o = std::get_if<protocol::ObjectRecord>(&r.body)) at[o->object_index] = *o;
    while (server_ticks.size() > 120) server_ticks.erase(server_ticks.begin());
    if (!server_open && sim.game.object_component(door, 0).channels[0] >= 1.0f) server_open = sim.world.now;
  };
  // Each client frame: its newest snapshot against the server's records of that tick.
  std::vector<uint64_t> compared(sim.clients.size()), mismatched(sim.clients.size());
  std::vector<std::optional<MonoTime>> client_open(sim.clients.size());
  sim.after_frame = [&](SimGameClient& c) {
    const protocol::Snapshot* latest = c.client.newest_snapshot();
    if (!latest) return;
    const auto server = server_ticks.find(latest->tick);
    if (server == server_ticks.end()) return;
    std::size_t i = 0;
    while (sim.clients[i].get() != &c) ++i;
    for (const protocol::Record& r : latest->records) {
      const auto* o = std::get_if<protocol::ObjectRecord>(&r.body);
      if (o == nullptr) continue;
      ++compared[i];
      const auto s = server->second.find(o->object_index);
      if (s == server->second.end() || !same_fields(*o, s->second)) ++mismatched[i];
      if (o->object_index == door && !client_open[i])
        for (const auto& section : o->sections)
          if ((section.dirty & 1u) != 0 && section.channel[0] >= 1.0f) client_open[i] = sim.world.now;
    }
  };

  sim.run_for(Duration::seconds(3));
  ASSERT_TRUE(sim.all_welcomed()) << "seed " << seed;
  // Before the north button (x 1.75, 1.25 m up, at the wall), facing it.
  sim.game.place_pawn(sim.clients[0]->pawn(), world::Placement{{1.75f, 0, 30.25f}, {}, 0, 0, false});
  sim.run_for(Duration::seconds(1));
  *pressing = true;
  sim.run_for(Duration::milliseconds(200));
  *pressing = false;
  sim.run_for(Duration::seconds(3));

  EXPECT_GE(sim.game.uses(), 1u) << "seed " << seed;
  EXPECT_EQ(sim.game.use_refusals()[world::UseRefusal::outside_cone], 0u) << "seed " << seed;
  ASSERT_TRUE(server_open.has_value()) << "the server's door opened; seed " << seed;
  EXPECT_EQ(sim.game.object_component(door, 0).channels[0], 1.0f);
  for (std::size_t i = 0; i < sim.clients.size(); ++i) {
    SCOPED_TRACE("client " + std::to_string(i) + ", seed " + std::to_string(seed));
    ASSERT_TRUE(client_open[i].has_value()) << "the client saw the door open";
    // The latency window: one way (50 +- 10 ms), the interpolation of snapshots, a lost packet's resend.
    EXPECT_LT((*client_open[i] - *server_open).milliseconds_f(), 250.0);
    EXPECT_GT(compared[i], 1000u);
    EXPECT_EQ(mismatched[i], 0u);
    std::printf("[ game logic ] client %zu: door open %.0f ms after the server, %llu object records compared\n", i,
                (*client_open[i] - *server_open).milliseconds_f(), static_cast<unsigned long long>(compared[i]));
  }
  EXPECT_EQ(sim.invariants.total(), 0u);
  // A figure, not a test: the snapshot bytes per tick a client cost on the reference map with its
  // logic running (a door opening, the south chain idle, the flickering lights) and three pawns.
  for (const ClientLink& client : sim.facade->clients())
    if (client.snapshots_sent > 0)
      std::printf("[ game logic ] owner %u: %.1f snapshot bytes per snapshot over %llu snapshots\n", client.owner,
                  static_cast<double>(client.snapshot_bytes) / static_cast<double>(client.snapshots_sent),
                  static_cast<unsigned long long>(client.snapshots_sent));
  // The server's stats name the game's own reasons beside the engine's.
  for (const ReasonCount& r : sim.facade->stats().reasons)
    if (r.name.starts_with("game.")) std::printf("[ game logic ] %s %llu\n", r.name.c_str(), static_cast<unsigned long long>(r.count));
}

}  // namespace
}  // namespace tickwire
