// Why each client left, as an operator reads it: every departure is counted by its reason in the
// server's stats ("disconnect.<why>") and logged. A logged-in client sending sustained malformed
// packets on its own encrypted link is kicked through the contract's offence bucket (it used to be
// counted and ignored forever), by name, while honest clients beside it offend nothing.
#include <gtest/gtest.h>

#include <array>
#include <string_view>

#include "game_sim.h"
#include "support.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

uint64_t reason(const Server& server, std::string_view name) {
  for (const ReasonCount& r : server.stats().reasons)
    if (r.name == name) return r.count;
  return 0;
}

// Three honest clients on `sim`, run until they are in (false if one is not).
bool seat_three(GameSim& sim) {
  for (int i = 0; i < 3; ++i) sim.add_client(GameClientSetup{});
  sim.run_for(Duration::seconds(2));
  return sim.all_welcomed();
}

TEST(SessionEnd, AClientSendingMalformedPacketsOnItsOwnLinkIsKickedByName) {
  const uint64_t seed = test_seed(2301);
  GameSim sim(seed, GameSimConfig{}, 3);
  ASSERT_TRUE(seat_three(sim)) << "seed=" << seed;
  EXPECT_EQ(reason(*sim.facade, "offence.malformed_packet"), 0u) << "honest links send nothing malformed";
  // Client 0 turns hostile: each frame, payloads inside its netcode encryption that the reliability
  // layer cannot read (a header past every field's range), a few a frame, sustained.
  uint64_t sent = 0;
  sim.after_frame = [&](SimGameClient& c) {
    if (&c != sim.clients[0].get() || c.facade->status().phase == ClientPhase::disconnected) return;
    const std::array<uint8_t, 24> garbage{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                          0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    for (int i = 0; i < 4; ++i) sent += c.client.session().transport().netcode().send_payload(garbage, sim.world.now) ? 1 : 0;
  };
  sim.run_for(Duration::seconds(3));
  ASSERT_GT(sent, 0u);
  EXPECT_GT(reason(*sim.facade, "transport.malformed_packet"), 0u) << "the transport counted them (seed=" << seed << ")";
  EXPECT_GT(reason(*sim.facade, "offence.malformed_packet"), 0u) << "and they became the session's offences";
  EXPECT_EQ(reason(*sim.facade, "kick.flood"), 1u) << "seed=" << seed;
  EXPECT_EQ(reason(*sim.facade, "disconnect.kicked"), 1u) << "its departure is counted by why";
  EXPECT_EQ(sim.clients[0]->facade->status().phase, ClientPhase::disconnected);
  for (std::size_t i = 1; i < sim.clients.size(); ++i)
    EXPECT_TRUE(sim.clients[i]->client.session().welcomed()) << "honest client " << i << " plays on (seed=" << seed << ")";
  EXPECT_EQ(sim.facade->stats().clients, 2u);
}

TEST(SessionEnd, EachDepartureIsCountedByWhy) {
  const uint64_t seed = test_seed(2302);
  GameSim sim(seed, GameSimConfig{}, 4);
  ASSERT_TRUE(seat_three(sim)) << "seed=" << seed;
  sim.clients[0]->facade->disconnect(sim.world.now);  // says goodbye
  sim.restart_client(1, 9001, {});                      // its process dies silently; a new one joins
  sim.run_for(Duration::seconds(12));                    // past the token's 10 s timeout
  EXPECT_EQ(reason(*sim.facade, "disconnect.client_disconnected"), 1u) << "seed=" << seed;
  EXPECT_EQ(reason(*sim.facade, "disconnect.timed_out"), 1u) << "seed=" << seed;
  EXPECT_EQ(reason(*sim.facade, "disconnect.kicked"), 0u);
  EXPECT_EQ(sim.facade->stats().clients, 2u) << "the restarted client and the one that stayed";
}

}  // namespace
}  // namespace tickwire
