// Client and server state machines end to end on SimNetwork: connecting, payloads both ways,
// disconnects from either side, timeouts, and every client error state the standard names
// (invalid token, request/response timed out, denied, token expired, connection timed out),
// plus failing over to the next server address in the token.
#include <gtest/gtest.h>

#include "netcode_test_support.h"
#include "support.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

struct OneClient : ::testing::Test {
  OneClient() : world(test_seed(1)) {}
  void SetUp() override {
    server_socket = world.net.bind(server_address());
    client_socket = world.net.bind(client_address(1));
    ASSERT_TRUE(server_socket && client_socket);
  }
  NetcodeServer make_server(uint32_t max_clients = 4) {
    return NetcodeServer(*server_socket, server_config(key, server_address(), max_clients));
  }
  SimWorld world;
  netcode::Key key = fixed_key(1);
  std::unique_ptr<SimSocket> server_socket;
  std::unique_ptr<SimSocket> client_socket;
};

std::vector<uint8_t> pattern(std::size_t size, uint8_t seed) {
  std::vector<uint8_t> v(size);
  for (std::size_t i = 0; i < size; ++i) v[i] = static_cast<uint8_t>(seed + i * 7);
  return v;
}

TEST_F(OneClient, ConnectsAndExchangesPayloadsBothWays) {
  NetcodeServer server(*server_socket, server_config(key, server_address(), 4));
  server.start(world.now);
  NetcodeClient client(*client_socket);
  client.connect(mint_token(key, 77, {server_address()}, world.wall()), world.now);
  EXPECT_EQ(client.state(), ClientState::sending_connection_request);
  NetcodeClient* clients[] = {&client};
  ASSERT_TRUE(run_until(world, &server, clients, Duration::seconds(1), [&] { return client.connected(); }));
  EXPECT_EQ(client.client_index(), 0u);
  EXPECT_EQ(client.max_clients(), 4u);
  ServerEvent event;
  ASSERT_TRUE(server.poll_event(event));
  EXPECT_EQ(event.type, ServerEvent::Type::client_connected);
  EXPECT_EQ(event.client_id, 77u);
  EXPECT_EQ(server.client_id(0), 77u);
  EXPECT_EQ(server.client_address(0), client_address(1));
  EXPECT_EQ(server.client_user_data(0)[3], 80);  // mint_token fills client_id + i

  const auto up = pattern(1200, 3);
  const auto down = pattern(100, 9);
  ASSERT_TRUE(client.send_payload(up, world.now));
  ASSERT_TRUE(server.send_payload(0, down, world.now));
  step_all(world, &server, clients);
  step_all(world, &server, clients);
  netcode::ReceivedPayload got;
  ASSERT_TRUE(server.receive_payload(got));
  EXPECT_EQ(got.client_index, 0u);
  EXPECT_TRUE(std::equal(up.begin(), up.end(), got.data().begin(), got.data().end()));
  ASSERT_TRUE(client.receive_payload(got));
  EXPECT_TRUE(std::equal(down.begin(), down.end(), got.data().begin(), got.data().end()));

  // Idle for 3 s: keep-alives hold the connection (timeout is 5 s).
  run_until(world, &server, clients, Duration::seconds(3), [] { return false; });
  EXPECT_TRUE(client.connected());
  EXPECT_TRUE(server.client_connected(0));

  client.disconnect(world.now);
  EXPECT_EQ(client.state(), ClientState::disconnected);
  ASSERT_TRUE(run_until(world, &server, clients, Duration::seconds(1), [&] { return !server.client_connected(0); }));
  ASSERT_TRUE(server.poll_event(event));
  EXPECT_EQ(event.type, ServerEvent::Type::client_disconnected);
  EXPECT_EQ(event.cause, DisconnectCause::client_disconnected);
  EXPECT_EQ(server.rejects()[netcode::Reject::decrypt_failed], 0u);
}

TEST_F(OneClient, ServerDisconnectReachesTheClient) {
  NetcodeServer server = make_server();
  server.start(world.now);
  NetcodeClient client(*client_socket);
  client.connect(mint_token(key, 5, {server_address()}, world.wall()), world.now);
  NetcodeClient* clients[] = {&client};
  ASSERT_TRUE(run_until(world, &server, clients, Duration::seconds(1), [&] { return client.connected(); }));
  server.disconnect_client(0, world.now);
  EXPECT_FALSE(server.client_connected(0));
  ASSERT_TRUE(run_until(world, &server, clients, Duration::seconds(1),
                        [&] { return client.state() == ClientState::disconnected; }));
}

TEST_F(OneClient, BothSidesTimeOutWhenTheOtherGoesQuiet) {
  NetcodeServer server = make_server();
  server.start(world.now);
  NetcodeClient client(*client_socket);
  client.connect(mint_token(key, 5, {server_address()}, world.wall(), /*timeout_s=*/2), world.now);
  NetcodeClient* clients[] = {&client};
  ASSERT_TRUE(run_until(world, &server, clients, Duration::seconds(1), [&] { return client.connected(); }));
  // The server stops updating: the client times out after 2 s of silence.
  const MonoTime quiet = world.now;
  ASSERT_TRUE(run_until(world, nullptr, clients, Duration::seconds(3),
                        [&] { return client.state() == ClientState::connection_timed_out; }));
  EXPECT_GE(world.now - quiet, Duration::seconds(2));
  // Meanwhile the server, updated again, times the client out too.
  std::span<NetcodeClient* const> nobody;
  ASSERT_TRUE(run_until(world, &server, nobody, Duration::seconds(3), [&] { return !server.client_connected(0); }));
  ServerEvent event;
  server.poll_event(event);  // connected
  ASSERT_TRUE(server.poll_event(event));
  EXPECT_EQ(event.cause, DisconnectCause::timed_out);
}

TEST_F(OneClient, InvalidTokensAreRefusedBeforeSendingAnything) {
  NetcodeClient client(*client_socket);
  std::vector<uint8_t> garbage(2048, 0xab);
  client.connect(garbage, world.now);
  EXPECT_EQ(client.state(), ClientState::invalid_connect_token);
  auto token = mint_token(key, 5, {server_address()}, world.wall());
  token.create_timestamp = token.expire_timestamp + 1;
  client.connect(token, world.now);
  EXPECT_EQ(client.state(), ClientState::invalid_connect_token);
  client.update(world.now);
  EXPECT_EQ(client.bytes_sent(), 0u);
}

TEST_F(OneClient, NoServerMeansRequestTimedOut) {
  NetcodeClient client(*client_socket);
  client.connect(mint_token(key, 5, {server_address()}, world.wall(), /*timeout_s=*/1), world.now);
  NetcodeClient* clients[] = {&client};
  ASSERT_TRUE(run_until(world, nullptr, clients, Duration::seconds(2),
                        [&] { return client.state() == ClientState::connection_request_timed_out; }));
  // It sent requests at about 10 Hz while waiting.
  EXPECT_GE(world.wire.between(client_address(1), server_address()).datagrams, 9u);
  EXPECT_LE(world.wire.between(client_address(1), server_address()).datagrams, 12u);
}

TEST_F(OneClient, LostResponsesMeanResponseTimedOut) {
  NetcodeServer server = make_server();
  server.start(world.now);
  NetcodeClient client(*client_socket);
  client.connect(mint_token(key, 5, {server_address()}, world.wall(), /*timeout_s=*/1), world.now);
  NetcodeClient* clients[] = {&client};
  ASSERT_TRUE(run_until(world, &server, clients, Duration::seconds(1),
                        [&] { return client.state() == ClientState::sending_connection_response; }));
  LinkModel dead;
  dead.loss = 1.0;
  // The response already sent still arrives; every keep-alive back is lost.
  world.net.set_link(server_address(), client_address(1), dead);
  ASSERT_TRUE(run_until(world, &server, clients, Duration::seconds(2),
                        [&] { return client.state() == ClientState::connection_response_timed_out; }));
  // It kept answering at about 10 Hz (one request, then responses) until it gave up.
  EXPECT_GE(world.wire.between(client_address(1), server_address()).datagrams, 9u);
}

TEST_F(OneClient, FullServerDeniesWithAPacket) {
  NetcodeServer server = make_server(1);
  server.start(world.now);
  NetcodeClient first(*client_socket);
  first.connect(mint_token(key, 1, {server_address()}, world.wall()), world.now);
  auto second_socket = world.net.bind(client_address(2));
  NetcodeClient second(*second_socket);
  NetcodeClient* clients[] = {&first, &second};
  ASSERT_TRUE(run_until(world, &server, clients, Duration::seconds(1), [&] { return first.connected(); }));
  second.connect(mint_token(key, 2, {server_address()}, world.wall()), world.now);
  ASSERT_TRUE(run_until(world, &server, clients, Duration::seconds(1),
                        [&] { return second.state() == ClientState::connection_denied; }));
  EXPECT_GE(server.rejects()[netcode::Reject::request_denied_server_full], 1u);
  EXPECT_TRUE(first.connected());
}

TEST_F(OneClient, TokenLifetimeBoundsTheWholeAttempt) {
  NetcodeClient client(*client_socket);
  // Lifetime 2 s, timeout 10 s, no server: expiry comes first.
  client.connect(mint_token(key, 5, {server_address()}, world.wall(), /*timeout_s=*/10, /*expire_s=*/2), world.now);
  NetcodeClient* clients[] = {&client};
  const MonoTime start = world.now;
  ASSERT_TRUE(run_until(world, nullptr, clients, Duration::seconds(3),
                        [&] { return client.state() == ClientState::connect_token_expired; }));
  EXPECT_GE(world.now - start, Duration::seconds(2));
}

TEST_F(OneClient, FailsOverToTheNextServerAddress) {
  NetcodeServer server = make_server();
  server.start(world.now);
  NetcodeClient client(*client_socket);
  const Address nobody_home = server_address(40001);
  client.connect(mint_token(key, 5, {nobody_home, server_address()}, world.wall(), /*timeout_s=*/1), world.now);
  NetcodeClient* clients[] = {&client};
  ASSERT_TRUE(run_until(world, &server, clients, Duration::seconds(3), [&] { return client.connected(); }));
  EXPECT_EQ(client.server_address_index(), 1u);
  EXPECT_EQ(client.server_address(), server_address());
}

TEST_F(OneClient, PayloadsBeforeConfirmationArePrecededByKeepAlives) {
  NetcodeServer server = make_server();
  server.start(world.now);
  NetcodeClient client(*client_socket);
  client.connect(mint_token(key, 5, {server_address()}, world.wall()), world.now);
  NetcodeClient* clients[] = {&client};
  // Stop as soon as the server has the client, before the client has heard the keep-alive.
  ASSERT_TRUE(run_until(world, &server, {}, Duration::seconds(1), [&] {
    client.update(world.now);
    return server.client_connected(0);
  }));
  // Lose the server's first keep-alive: the payload's own keep-alive still connects the client.
  const auto payload = pattern(50, 1);
  world.net.advance_to(world.now);
  ASSERT_TRUE(server.send_payload(0, payload, world.now));
  server.flush();
  ASSERT_TRUE(run_until(world, &server, clients, Duration::seconds(1), [&] { return client.connected(); }));
  netcode::ReceivedPayload got;
  ASSERT_TRUE(run_until(world, &server, clients, Duration::seconds(1), [&] { return client.receive_payload(got); }));
  EXPECT_EQ(got.size, 50u);
}

}  // namespace
}  // namespace tickwire
