// The server's cap on clients connected per update (NetcodeServerConfig::max_connects_per_update):
// a crowd whose responses arrive together connects at the cap per update from a queue, without
// waiting for resends; a queued client's resends are counted and ignored; one whose handshake
// expires in the queue is dropped; one whose turn comes after the server filled is denied; the
// queue holds one place per slot.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "netcode_test_support.h"
#include "support.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

struct Crowd {
  Crowd(uint32_t count, uint32_t max_clients, uint32_t cap, Duration handshake_time = Duration::seconds(5))
      : world(test_seed(7)) {
    server_socket = world.net.bind(server_address());
    NetcodeServerConfig config = server_config(key, server_address(), max_clients);
    config.max_connects_per_update = cap;
    config.max_handshake_time = handshake_time;
    server = std::make_unique<NetcodeServer>(*server_socket, config);
    server->start(world.now);
    for (uint32_t i = 0; i < count; ++i) {
      sockets.push_back(world.net.bind(client_address(i + 1)));
      clients.push_back(std::make_unique<NetcodeClient>(*sockets.back()));
      clients.back()->connect(mint_token(key, 100 + i, {server_address()}, world.wall()), world.now);
      raw.push_back(clients.back().get());
    }
  }
  // One step; returns the clients the server connected in it.
  uint32_t step() {
    step_all(world, server.get(), raw);
    uint32_t connected = 0;
    ServerEvent event;
    while (server->poll_event(event)) connected += event.type == ServerEvent::Type::client_connected ? 1 : 0;
    return connected;
  }
  uint32_t count_in(ClientState state) const {
    return static_cast<uint32_t>(std::count_if(raw.begin(), raw.end(), [&](const NetcodeClient* c) { return c->state() == state; }));
  }
  SimWorld world;
  netcode::Key key = fixed_key(3);
  std::unique_ptr<SimSocket> server_socket;
  std::unique_ptr<NetcodeServer> server;
  std::vector<std::unique_ptr<SimSocket>> sockets;
  std::vector<std::unique_ptr<NetcodeClient>> clients;
  std::vector<NetcodeClient*> raw;
};

TEST(NetcodeConnectCap, ACrowdConnectsAtTheCapPerUpdateFromTheQueueWithoutWaitingForResends) {
  Crowd crowd(7, 16, 2);
  std::vector<uint32_t> per_step;
  while (crowd.server->connected_clients() < 7 && per_step.size() < 100) per_step.push_back(crowd.step());
  ASSERT_EQ(crowd.server->connected_clients(), 7u);
  EXPECT_LE(*std::max_element(per_step.begin(), per_step.end()), 2u) << "never more than the cap in one update";
  const auto first = std::find_if(per_step.begin(), per_step.end(), [](uint32_t n) { return n > 0; });
  EXPECT_EQ(per_step.end() - first, 4) << "2, 2, 2, 1 in consecutive updates (10 ms apart): the queue, not 100 ms resends";
  EXPECT_EQ(crowd.server->rejects()[netcode::Reject::response_deferred], 5u) << "five waited once each";
  for (int i = 0; i < 30; ++i) crowd.step();
  EXPECT_EQ(crowd.count_in(ClientState::connected), 7u);
}

TEST(NetcodeConnectCap, AQueuedClientsResendsAreCountedAndIgnored) {
  // One connect per 10 ms update and fifteen clients: the last ones wait past their 100 ms resend.
  Crowd crowd(15, 16, 1);
  uint32_t events = 0;
  for (int i = 0; i < 40; ++i) events += crowd.step();
  EXPECT_EQ(crowd.server->connected_clients(), 15u);
  EXPECT_EQ(events, 15u) << "each connected once";
  EXPECT_GT(crowd.server->rejects()[netcode::Reject::response_deferred], 14u) << "the resends of the waiting, counted";
  EXPECT_EQ(crowd.server->rejects()[netcode::Reject::decrypt_failed], 0u);
  EXPECT_EQ(crowd.count_in(ClientState::connected), 15u);
}

TEST(NetcodeConnectCap, AClientWhoseHandshakeExpiresInTheQueueIsDropped) {
  // Handshakes live 15 ms; one connect per 10 ms update: the fourth's handshake is gone by its turn.
  Crowd crowd(4, 16, 1, Duration::milliseconds(15));
  for (int i = 0; i < 6; ++i) crowd.step();
  EXPECT_LT(crowd.server->connected_clients(), 4u);
  EXPECT_EQ(crowd.server->pending_handshakes(), 0u) << "nothing held past its deadline";
}

TEST(NetcodeConnectCap, AQueuedClientWhoseTurnComesAfterTheServerFilledIsDenied) {
  Crowd crowd(3, 2, 1);
  for (int i = 0; i < 20 && crowd.count_in(ClientState::connection_denied) == 0; ++i) crowd.step();
  EXPECT_EQ(crowd.server->connected_clients(), 2u);
  EXPECT_EQ(crowd.count_in(ClientState::connection_denied), 1u);
  EXPECT_EQ(crowd.server->rejects()[netcode::Reject::response_denied_server_full], 1u);
}

TEST(NetcodeConnectCap, TheQueueHoldsOnePlacePerSlotAndTheRestAreDeniedOnTheirResends) {
  // Two slots, one connect an update, six responses at once: one connects, two wait (the queue's
  // cap), three are only counted. The second connects from the queue; every other is denied, the
  // queued one at its turn and the rest when their resends find the server full.
  Crowd crowd(6, 2, 1);
  for (int i = 0; i < 40 && crowd.count_in(ClientState::connection_denied) < 4; ++i) crowd.step();
  EXPECT_EQ(crowd.server->connected_clients(), 2u);
  EXPECT_EQ(crowd.count_in(ClientState::connected), 2u);
  EXPECT_EQ(crowd.count_in(ClientState::connection_denied), 4u);
  EXPECT_EQ(crowd.server->rejects()[netcode::Reject::response_denied_server_full], 4u);
}

}  // namespace
}  // namespace tickwire
