// Construct calls (seed 002, "ConstructHandle": RPCs addressed to a pure-logic construct), through
// the facades on the simulated network: a client's call to the game's live construct reaches the
// game once with its method and payload; a call to a destroyed construct (its index reused by a
// newer one) is refused as stale before the game acts, and so are another owner's and index 0;
// every refusal reaches the server's stats by name.
#include <gtest/gtest.h>

#include <string>

#include "facade_sim.h"
#include "support.h"
#include "test_simulation.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

uint64_t reason_count(const ServerStats& stats, const std::string& name) {
  for (const ReasonCount& r : stats.reasons) {
    if (r.name == name) return r.count;
  }
  return 0;
}

TEST(ConstructCalls, ALiveConstructIsCalledAndAStaleHandleIsRefusedByName) {
  const uint64_t seed = test_seed(0xc0c0);
  TestSimulation game;
  const ConstructHandle first_mode = std::get<ConstructHandle>(game.constructs.create({1, AuthorityClass::host}));
  ASSERT_FALSE(game.constructs.destroy(first_mode).has_value());
  const ConstructHandle mode = std::get<ConstructHandle>(game.constructs.create({1, AuthorityClass::host}));
  ASSERT_EQ(mode.index(), first_mode.index());
  FacadeSim sim(seed, test_room_policy(), game);
  sim.add_client(test_vocabulary(), nullptr, {});
  sim.run_for(Duration::seconds(1));
  ASSERT_TRUE(sim.all_playing()) << "seed " << seed;

  Client& client = *sim.peers[0]->client;
  const std::vector<uint8_t> payload = {4, 2};
  EXPECT_TRUE(client.call_construct(mode.raw(), 3, payload));
  EXPECT_TRUE(client.call_construct(first_mode.raw(), 3, payload));                  // stale
  EXPECT_TRUE(client.call_construct(ConstructHandle::make(9, 1, 1).raw(), 3));     // another owner's
  EXPECT_TRUE(client.call_construct(0, 3));                                          // no construct
  EXPECT_TRUE(client.call_construct(mode.raw(), 0));                                 // the game refuses method 0
  const std::vector<uint8_t> too_long(protocol::MaxConstructCallPayloadBytes + 1, 0);
  EXPECT_FALSE(client.call_construct(mode.raw(), 3, too_long)) << "a payload past the cap is not sent";
  sim.run_for(Duration::milliseconds(500));

  ASSERT_EQ(game.construct_calls.size(), 1u) << "seed " << seed;
  EXPECT_EQ(game.construct_calls[0].target, mode);
  EXPECT_EQ(game.construct_calls[0].method, 3);
  EXPECT_EQ(game.construct_calls[0].payload, payload);
  EXPECT_EQ(game.construct_calls[0].caller, sim.peers[0]->client->owner());
  const ServerStats stats = sim.server->stats();
  EXPECT_EQ(reason_count(stats, "construct.refusal.stale_generation"), 1u);
  EXPECT_EQ(reason_count(stats, "construct.refusal.foreign_owner"), 1u);
  EXPECT_EQ(reason_count(stats, "construct.refusal.none_handle"), 1u);
  EXPECT_EQ(reason_count(stats, "construct.refusal.refused_by_game"), 1u);
}

}  // namespace
}  // namespace tickwire
