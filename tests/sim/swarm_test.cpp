// The swarm in CI: a handful of fixed seeds, each drawing its whole configuration (links, clients,
// their behaviours and lifecycles, tick and snapshot rates, the map) and keeping every invariant as
// it runs; and the picker's promises (the same seed, the same run; bounds held; rates the contract
// takes). TICKWIRE_SWARM_SEED=N runs that one seed instead of the fixed ones (a soak's failure).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "relay_ledger.h"
#include "swarm_judge.h"
#include "swarm_run.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

TEST(Swarm, EveryTickAndSnapshotRateThePickerDrawsResolves) {
  for (const uint32_t tick : {30u, 60u, 64u, 120u}) {
    for (uint32_t every = 1; every <= 3; ++every) {
      if (tick % every != 0) continue;
      GameSimConfig config;
      config.tick_rate_hz = tick;
      config.snapshot_rate_hz = tick / every;
      EXPECT_TRUE(resolve_netcode_contract(game_sim_policy(config)).ok()) << tick << " Hz, world lane every " << every;
    }
  }
}

TEST(Swarm, TheSeedPicksTheWholeConfigurationWithinItsBounds) {
  std::set<std::string> lines;
  std::set<std::size_t> counts;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    const SwarmConfig c = pick_swarm_config(seed);
    EXPECT_TRUE(resolve_netcode_contract(game_sim_policy(swarm_game_config(c))).ok()) << describe(c);
    EXPECT_EQ(describe(c), describe(pick_swarm_config(seed))) << "one seed, one configuration";
    lines.insert(describe(c));
    counts.insert(c.clients.size());
    ASSERT_GE(c.clients.size(), 1u);
    ASSERT_LE(c.clients.size(), kSwarmMaxClients);
    EXPECT_EQ(c.tick_rate_hz % c.snapshot_rate_hz, 0u);
    EXPECT_LE(c.tick_rate_hz / c.snapshot_rate_hz, 3u);
    EXPECT_GE(c.run.seconds_f(), kSwarmMinRunSeconds);
    EXPECT_LE(c.run.seconds_f(), kSwarmMaxRunSeconds);
    const double cost_us = swarm_detail::cost_us_per_second(c) * (c.run + c.drain).seconds_f();
    EXPECT_TRUE(cost_us <= kSwarmCpuBudgetUs * 1.001 || c.clients.size() == 1) << describe(c);
    for (const SwarmClient& client : c.clients) {
      for (const LinkModel* link : {&client.up, &client.down}) {
        EXPECT_FALSE(link->invalid_reason().has_value()) << describe(c);
        EXPECT_LE(link->latency_ms, 150.0);
        EXPECT_LE(link->loss, 0.10);
      }
      EXPECT_LE((client.join_at + client.event_at).seconds_f(), c.run.seconds_f()) << describe(c);
    }
  }
  EXPECT_EQ(lines.size(), 300u) << "every seed its own configuration";
  EXPECT_GT(counts.size(), 12u) << "client counts across the range";
}

// The ledger's own judgement: a stream in order passes; a message lost, repeated or overtaken, a
// changed byte or a forged sender is named at once; a stream short at the end is named then.
TEST(Swarm, TheRelayLedgerNamesALostARepeatedAndAForgedMessage) {
  std::vector<std::string> failures;
  RelayLedger ledger([&](std::string invariant, std::string detail) { failures.push_back(invariant + ": " + detail); });
  const auto message = [&](uint32_t from, uint32_t to, OwnerId stamped) {
    const std::array<uint8_t, RelayLedger::kPayloadBytes> payload = ledger.next_payload(from, to);
    ledger.note_sent(from, static_cast<OwnerId>(from + 1), to);
    return GameMessage{stamped, RelayLedger::kType, std::vector<uint8_t>(payload.begin(), payload.end())};
  };
  const GameMessage m0 = message(0, 1, 1), m1 = message(0, 1, 1), m2 = message(0, 1, 1), m3 = message(0, 1, 1);
  ledger.receive(1, m0);
  ledger.receive(1, m1);
  EXPECT_TRUE(failures.empty());
  ledger.receive(1, m3);  // m2 lost or overtaken
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_NE(failures[0].find("never 2"), std::string::npos) << failures[0];
  ledger.receive(1, m2);  // arriving late
  EXPECT_EQ(failures.size(), 2u);
  ledger.receive(1, message(0, 1, 7));  // stamped with another sender
  EXPECT_EQ(failures.size(), 3u);
  GameMessage changed = message(0, 1, 1);
  changed.payload[0] ^= 1;
  ledger.receive(1, changed);
  EXPECT_EQ(failures.size(), 4u);
  ledger.receive(2, message(0, 1, 1));  // relayed to the owner id's next holder: counted, not judged
  EXPECT_EQ(ledger.misaddressed(), 1u);
  EXPECT_EQ(failures.size(), 4u);
  (void)message(1, 0, 2);  // never arrives
  EXPECT_EQ(ledger.judge_complete([](uint32_t, uint32_t) { return true; }), 2u);
  EXPECT_EQ(failures.size(), 6u) << "both streams end short";
}

// Decoded frames are judged state for state against the server's: one quantum off is a mismatch.
TEST(Swarm, AFrameDecodedUnlikeTheServersIsNotTheSame) {
  ReplicaFrame held;
  held.tick = 40;
  held.states.resize(2);
  held.states[0].id = 3;
  held.states[1].id = 9;
  held.states[1].position = {10, 20, 30};
  SentFrame sent;
  sent.tick = Tick::from_value(40);
  const ReplicaFrame server = held;
  for (const ReplicaState& state : server.states) sent.states.push_back(&state);
  EXPECT_TRUE(same_frame(held, sent));
  held.states[1].position[2] = 31;
  EXPECT_FALSE(same_frame(held, sent));
  held.states[1].position[2] = 30;
  held.owner = protocol::OwnerDetail{};
  EXPECT_FALSE(same_frame(held, sent)) << "an owner detail the server did not send";
}

TEST(Swarm, FixedSeedsKeepEveryInvariant) {
  // Four seeds that between them draw both maps, every tick rate and world-lane divisor, a budget
  // past one message with a crowd (snapshots in up to three fragments), a host that wakes late and
  // one that pauses past the overload threshold (declared ticks, catch-up at its cap), every
  // lifecycle (a freeze past the timeout among them), chatty clients, every link feature and a
  // swarm of 16+: a second of CPU. (Chosen from the picker as it stands: a change to the picker
  // draws other configurations from them.)
  std::vector<uint64_t> seeds = {39, 60, 76, 90};
  if (const char* one = std::getenv("TICKWIRE_SWARM_SEED")) seeds = {std::strtoull(one, nullptr, 10)};
  for (const uint64_t seed : seeds) EXPECT_TRUE(run_and_print_swarm(seed).passed()) << "seed " << seed;
}

}  // namespace
}  // namespace tickwire
