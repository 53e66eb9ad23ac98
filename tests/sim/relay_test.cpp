// Relay (seed 002, NetChannel::SendTo): three clients on the simulated network send each other
// game messages through the server. Each arrives exactly once, at the right client, from the right
// sender, with its bytes untouched; the server never decodes one (its decode and drop counters stay
// at zero for bytes no shape could read); a message to a client that left, or past the sender's
// rate, is refused by name to the sender and counted on both ends.
#include <gtest/gtest.h>

#include <map>

#include "facade_sim.h"
#include "support.h"
#include "test_simulation.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

constexpr MessageType kChat = 300;  // a game's own message type (>= kFirstGameMessageType)

// Bytes no engine shape reads: a first byte that is no message id, then noise.
std::vector<uint8_t> payload_of(uint32_t from, uint32_t to, uint32_t n) {
  std::vector<uint8_t> bytes = {0xff, static_cast<uint8_t>(from), static_cast<uint8_t>(to), static_cast<uint8_t>(n)};
  for (uint32_t i = 0; i < 20; ++i) bytes.push_back(static_cast<uint8_t>((n * 131 + i * 17 + from * 7) & 0xff));
  return bytes;
}

struct Inbox {
  // (from, to, n) of an intact payload -> times received. Keyed by a number: a map keyed by the
  // byte vector trips GCC 12's -Wstringop-overread at -O3 in its memcmp (a false positive).
  std::map<uint32_t, int> copies;
  uint64_t damaged = 0;
  std::map<OwnerId, int> from;
};

TEST(Relay, AddressedMessagesArriveOnceAtTheirTargetUnreadByTheServer) {
  const uint64_t seed = test_seed(0x7e1a);
  TestSimulation game;
  FacadeSim sim(seed, test_room_policy(), game);
  for (int i = 0; i < 3; ++i) sim.add_client(test_vocabulary(), nullptr, {});
  sim.run_for(Duration::seconds(1));
  ASSERT_TRUE(sim.all_playing()) << "seed " << seed;

  std::vector<Inbox> inboxes(3);
  sim.after_frame = [&](FacadePeer& p) {
    for (std::size_t i = 0; i < sim.peers.size(); ++i) {
      if (sim.peers[i].get() != &p) continue;
      while (auto m = p.client->receive_message()) {
        EXPECT_EQ(m->type, kChat);
        const bool intact = m->payload.size() == 24 && m->payload == payload_of(m->payload[1], m->payload[2], m->payload[3]);
        if (!intact) {
          ++inboxes[i].damaged;
          continue;
        }
        ++inboxes[i].copies[uint32_t{m->payload[1]} << 16 | uint32_t{m->payload[2]} << 8 | m->payload[3]];
        ++inboxes[i].from[m->from];
      }
    }
  };
  // Each client sends five messages to each other one, reliably, a frame apart.
  uint32_t sent = 0;
  for (uint32_t n = 0; n < 5; ++n) {
    for (uint32_t from = 0; from < 3; ++from) {
      for (uint32_t to = 0; to < 3; ++to) {
        if (from == to) continue;
        const std::vector<uint8_t> payload = payload_of(from, to, n);
        ASSERT_TRUE(sim.peers[from]->client->send_to(sim.peers[to]->client->owner(), kChat, payload));
        ++sent;
      }
    }
    sim.run_for(Duration::milliseconds(20));
  }
  sim.run_for(Duration::milliseconds(500));

  for (uint32_t to = 0; to < 3; ++to) {
    EXPECT_EQ(inboxes[to].copies.size(), 10u) << "client " << to;
    EXPECT_EQ(inboxes[to].damaged, 0u);
    for (const auto& [key, times] : inboxes[to].copies) {
      EXPECT_EQ(times, 1) << "exactly once";
      EXPECT_EQ((key >> 8) & 0xff, to) << "at its target";
    }
    for (uint32_t from = 0; from < 3; ++from) {
      if (from == to) continue;
      EXPECT_EQ(inboxes[to].from[sim.peers[from]->client->owner()], 5) << "stamped with its real sender";
    }
  }
  const ServerStats stats = sim.server->stats();
  EXPECT_EQ(stats.relayed, sent);
  EXPECT_EQ(reason_count(stats.reasons, "session.drop.undecodable"), 0u) << "the server never decoded a payload";
  EXPECT_EQ(reason_count(stats.reasons, "session.drop.unexpected"), 0u);
  for (const ReasonCount& r : stats.reasons) EXPECT_NE(r.name.rfind("session.decode", 0), 0u) << r.name;
}

TEST(Relay, AMessageToAClientThatLeftIsRefusedByNameAndTheRateIsCapped) {
  const uint64_t seed = test_seed(0x7e1b);
  TestSimulation game;
  FacadeSim sim(seed, test_room_policy(), game);
  for (int i = 0; i < 3; ++i) sim.add_client(test_vocabulary(), nullptr, {});
  sim.run_for(Duration::seconds(1));
  ASSERT_TRUE(sim.all_playing()) << "seed " << seed;
  Client& a = *sim.peers[0]->client;
  Client& c = *sim.peers[2]->client;
  const OwnerId c_owner = c.owner();
  c.disconnect(sim.world.now);
  sim.run_for(Duration::milliseconds(500));
  ASSERT_TRUE(a.send_to(c_owner, kChat, payload_of(0, 2, 0)));
  sim.run_for(Duration::milliseconds(300));
  EXPECT_EQ(reason_count(a.stats().reasons, "relay.refusal.target_absent"), 1u);
  EXPECT_EQ(reason_count(sim.server->stats().reasons, "relay.refusal.target_absent"), 1u);

  // A burst past the contract's relays per second: the excess is refused, the rest relayed.
  Client& b = *sim.peers[1]->client;
  uint64_t received = 0;
  sim.after_frame = [&](FacadePeer& p) {
    if (p.client.get() != &b) return;
    while (b.receive_message()) ++received;
  };
  const uint32_t rate = sim.server->contract().limits.relays_per_second;
  for (uint32_t n = 0; n < rate + 20; ++n) (void)a.send_to(b.owner(), kChat, payload_of(0, 1, n));
  sim.run_for(Duration::milliseconds(300));
  const uint64_t limited = reason_count(sim.server->stats().reasons, "relay.refusal.rate_limited");
  EXPECT_GE(limited, 15u);
  EXPECT_EQ(reason_count(a.stats().reasons, "relay.refusal.rate_limited"), limited);
  EXPECT_EQ(received + limited, rate + 20u);
}

}  // namespace
}  // namespace tickwire
