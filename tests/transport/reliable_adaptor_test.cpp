// ReliableClient/ReliableServer on SimNetwork (virtual clock): messages both ways inside netcode
// payloads, a slot's endpoint replaced when its next occupant connects (a fresh endpoint restarts
// message ids at 0, so leaked state would swallow the newcomer's first messages as duplicates), and
// an endpoint failure that drops the connection with its reason.
#include <gtest/gtest.h>

#include <deque>
#include <memory>

#include "message_pattern.h"
#include "netcode_test_support.h"
#include "support.h"
#include "tickwire/transport/reliable_client.h"
#include "tickwire/transport/reliable_server.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

struct Peer {
  std::unique_ptr<SimSocket> socket;
  std::unique_ptr<NetcodeClient> netcode;
  std::unique_ptr<ReliableClient> reliable;
};

struct AdaptorWorld {
  explicit AdaptorWorld(uint64_t seed) : world(seed) {
    server_socket = world.net.bind(server_address());
    netcode_server = std::make_unique<NetcodeServer>(*server_socket, server_config(key, server_address(), 1));
    netcode_server->start(world.now);
    server = std::make_unique<ReliableServer>(*netcode_server, config);
  }
  Peer& add_client(uint32_t i) {
    Peer p;
    p.socket = world.net.bind(client_address(i));
    p.netcode = std::make_unique<NetcodeClient>(*p.socket);
    p.reliable = std::make_unique<ReliableClient>(*p.netcode, config);
    p.netcode->connect(mint_token(key, 100 + i, {server_address()}, world.wall()), world.now);
    peers.push_back(std::move(p));
    return peers.back();
  }
  void step() {
    world.advance(Duration::milliseconds(10));
    server->update(world.now, world.wall());
    for (Peer& p : peers) p.reliable->update(world.now);
  }
  template <class Done>
  bool run_until(Done done, int max_steps = 1000) {
    for (int i = 0; i < max_steps && !done(); ++i) step();
    return done();
  }

  SimWorld world;
  netcode::Key key = fixed_key(9);
  EndpointConfig config = EndpointConfig::defaults();
  std::unique_ptr<SimSocket> server_socket;
  std::unique_ptr<NetcodeServer> netcode_server;
  std::unique_ptr<ReliableServer> server;
  std::deque<Peer> peers;  // stable references: add_client hands them out
};

// Sends messages [0, count) on channel 0 and checks the receiver gets exactly those, in order.
void exchange(AdaptorWorld& w, ReliableEndpoint& from, ReliableEndpoint& to, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) ASSERT_TRUE(from.send(0, make_message(i, 40 + i * 13)).ok());
  uint32_t received = 0;
  w.run_until([&] {
    while (auto m = to.receive(0)) {
      EXPECT_EQ(message_index(*m), received);
      EXPECT_TRUE(message_intact(*m));
      ++received;
    }
    return received >= count;
  });
  EXPECT_EQ(received, count);
}

std::vector<ReliableServerEvent> take_events(ReliableServer& server) {
  std::vector<ReliableServerEvent> out;
  ReliableServerEvent e;
  while (server.poll_event(e)) out.push_back(e);
  return out;
}

TEST(ReliableAdaptor, SlotsNextOccupantStartsFresh) {
  AdaptorWorld w(test_seed(3));
  Peer& a = w.add_client(1);
  ASSERT_TRUE(w.run_until([&] { return a.reliable->connected() && w.server->endpoint(0) != nullptr; }));
  exchange(w, *a.reliable->endpoint(), *w.server->endpoint(0), 20);
  exchange(w, *w.server->endpoint(0), *a.reliable->endpoint(), 20);
  a.netcode->disconnect(w.world.now);
  ASSERT_TRUE(w.run_until([&] { return w.server->endpoint(0) == nullptr; }));
  EXPECT_FALSE(a.reliable->connected());
  EXPECT_EQ(a.reliable->endpoint(), nullptr);

  Peer& b = w.add_client(2);
  ASSERT_TRUE(w.run_until([&] { return b.reliable->connected() && w.server->endpoint(0) != nullptr; }));
  EXPECT_EQ(b.netcode->client_index(), 0u);
  // Ids restart at 0 on both sides: a leaked endpoint would drop these as already delivered.
  exchange(w, *b.reliable->endpoint(), *w.server->endpoint(0), 5);
  exchange(w, *w.server->endpoint(0), *b.reliable->endpoint(), 5);

  const auto events = take_events(*w.server);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].netcode.type, ServerEvent::Type::client_connected);
  EXPECT_EQ(events[1].netcode.type, ServerEvent::Type::client_disconnected);
  EXPECT_EQ(events[1].netcode.cause, DisconnectCause::client_disconnected);
  EXPECT_FALSE(events[1].failure.has_value());
  EXPECT_EQ(events[2].netcode.type, ServerEvent::Type::client_connected);
  EXPECT_EQ(events[2].netcode.client_id, 102u);
  EXPECT_EQ(w.server->counters()[ReliableLinkDrop::endpoint_failed], 0u);
  EXPECT_EQ(a.reliable->connections(), 1u);
  EXPECT_EQ(b.reliable->connections(), 1u);
}

TEST(ReliableAdaptor, EndpointFailureDropsTheConnectionWithItsReason) {
  AdaptorWorld w(test_seed(4));
  Peer& a = w.add_client(1);
  ASSERT_TRUE(w.run_until([&] { return a.reliable->connected() && w.server->endpoint(0) != nullptr; }));
  // The server app never drains channel 0: its receive queue overflows, which is fatal.
  uint32_t sent = 0;
  const bool dropped = w.run_until(
      [&] {
        if (ReliableEndpoint* e = a.reliable->endpoint()) {
          while (e->send(0, make_message(sent, 900)).ok()) ++sent;
        }
        return w.server->endpoint(0) == nullptr;
      },
      3000);
  ASSERT_TRUE(dropped) << "sent " << sent;
  const auto events = take_events(*w.server);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].netcode.type, ServerEvent::Type::client_disconnected);
  EXPECT_EQ(events[1].netcode.cause, DisconnectCause::server_disconnected);
  ASSERT_TRUE(events[1].failure.has_value());
  EXPECT_EQ(*events[1].failure, TransportReason::receive_queue_overflow);
  EXPECT_EQ(w.server->counters()[ReliableLinkDrop::endpoint_failed], 1u);
  // The client hears the disconnect and drops its endpoint too.
  ASSERT_TRUE(w.run_until([&] { return !a.reliable->connected(); }));
  EXPECT_EQ(a.reliable->endpoint(), nullptr);
}

}  // namespace
}  // namespace tickwire
