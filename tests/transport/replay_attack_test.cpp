// Replay attacks against live connections: recorded packets re-sent inside the window and after
// it has moved past them, forged-by-key packets at the top of the 64-bit sequence range, and
// recorded server packets replayed at the client. Every replay is dropped and counted; no payload
// reaches the application twice.
#include <gtest/gtest.h>

#include "netcode_test_support.h"
#include "support.h"
#include "tickwire/transport/netcode_packet.h"

namespace tickwire {
namespace {

using namespace tickwire::test;
using netcode::Reject;

struct Recorded {
  Address from;
  Address to;
  std::vector<uint8_t> bytes;
};

class ReplayAttack : public ::testing::Test {
 protected:
  ReplayAttack() : world(test_seed(4)) {}
  void SetUp() override {
    server_socket = world.net.bind(server_address());
    client_socket = world.net.bind(client_address(1));
    server = std::make_unique<NetcodeServer>(*server_socket, server_config(key, server_address(), 4));
    server->start(world.now);
    client = std::make_unique<NetcodeClient>(*client_socket);
    token = mint_token(key, 42, {server_address()}, world.wall());
    client->connect(token, world.now);
    world.net.set_wiretap([this](const SimDelivery& d) {
      if (d.bytes.empty() || d.bytes[0] == 0) return;
      recorded.push_back({d.from, d.to, std::vector<uint8_t>(d.bytes.begin(), d.bytes.end())});
    });
    NetcodeClient* clients[] = {client.get()};
    ASSERT_TRUE(run_until(world, server.get(), clients, Duration::seconds(1), [&] { return client->connected(); }));
  }
  void step() {
    NetcodeClient* clients[] = {client.get()};
    step_all(world, server.get(), clients);
  }
  std::size_t drain_server() {
    std::size_t n = 0;
    netcode::ReceivedPayload p;
    while (server->receive_payload(p)) ++n;
    return n;
  }
  std::vector<Recorded> payloads_from(const Address& from) const {
    std::vector<Recorded> out;
    for (const Recorded& r : recorded) {
      if (r.from == from && (r.bytes[0] & 0x0f) == static_cast<uint8_t>(netcode::PacketType::payload)) {
        out.push_back(r);
      }
    }
    return out;
  }

  SimWorld world;
  netcode::Key key = fixed_key(9);
  netcode::ConnectToken token;
  std::unique_ptr<SimSocket> server_socket, client_socket;
  std::unique_ptr<NetcodeServer> server;
  std::unique_ptr<NetcodeClient> client;
  std::vector<Recorded> recorded;
};

TEST_F(ReplayAttack, RecordedClientPacketsAreDroppedInsideAndOutsideTheWindow) {
  const std::array<uint8_t, 4> body = {1, 2, 3, 4};
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(client->send_payload(body, world.now));
    step();
  }
  step();
  EXPECT_EQ(drain_server(), 20u);
  const auto early = payloads_from(client_address(1));
  ASSERT_EQ(early.size(), 20u);

  // Inside the window: every recorded payload sent again from the client's own address.
  const auto replayed_before = server->rejects()[Reject::replayed];
  for (const Recorded& r : early) ASSERT_TRUE(client_socket->send(server_address(), r.bytes));
  step();
  EXPECT_EQ(drain_server(), 0u);
  EXPECT_EQ(server->rejects()[Reject::replayed], replayed_before + 20);

  // Move the window 300 packets on, then replay the early ones: older than the window.
  for (int i = 0; i < 300; ++i) {
    ASSERT_TRUE(client->send_payload(body, world.now));
    if (i % 50 == 0) step();
  }
  step();
  step();
  EXPECT_EQ(drain_server(), 300u);
  const auto replayed_mid = server->rejects()[Reject::replayed];
  for (const Recorded& r : early) ASSERT_TRUE(client_socket->send(server_address(), r.bytes));
  step();
  EXPECT_EQ(drain_server(), 0u);
  EXPECT_EQ(server->rejects()[Reject::replayed], replayed_mid + 20);
  EXPECT_EQ(server->rejects()[Reject::decrypt_failed], 0u);
  EXPECT_TRUE(client->connected());
}

TEST_F(ReplayAttack, SequencesAtTheTopOfTheRangeAreHandledExactly) {
  // Packets made with the token's client-to-server key (as only a key holder could).
  std::array<uint8_t, netcode::kMaxPacketBytes> buf;
  const std::array<uint8_t, 3> body = {9, 9, 9};
  auto forge = [&](uint64_t sequence) {
    const std::size_t n = netcode::write_encrypted_packet(netcode::PacketType::payload, sequence, body,
                                                          token.protocol_id, token.client_to_server_key, buf);
    return std::vector<uint8_t>(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
  };
  const uint64_t top = UINT64_MAX;
  const auto last = forge(top);
  const auto second_last = forge(top - 1);
  const auto window_edge = forge(top - 256);
  ASSERT_TRUE(client_socket->send(server_address(), second_last));
  ASSERT_TRUE(client_socket->send(server_address(), last));
  step();
  EXPECT_EQ(drain_server(), 2u);
  const auto before = server->rejects()[Reject::replayed];
  ASSERT_TRUE(client_socket->send(server_address(), last));
  ASSERT_TRUE(client_socket->send(server_address(), second_last));
  ASSERT_TRUE(client_socket->send(server_address(), window_edge));
  step();
  EXPECT_EQ(drain_server(), 0u);
  EXPECT_EQ(server->rejects()[Reject::replayed], before + 3);
}

TEST_F(ReplayAttack, RecordedServerPacketsAreDroppedByTheClient) {
  const std::array<uint8_t, 5> body = {5, 4, 3, 2, 1};
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(server->send_payload(0, body, world.now));
    step();
  }
  step();
  netcode::ReceivedPayload p;
  int received = 0;
  while (client->receive_payload(p)) ++received;
  EXPECT_EQ(received, 10);
  // Replay every recorded server packet (keep-alives, payloads, the handshake) at the client.
  auto attacker = world.net.bind(Address::ipv4(10, 66, 0, 1, 1));
  const auto before = client->rejects()[Reject::replayed];
  std::size_t protected_packets = 0;
  std::vector<Recorded> copy = recorded;
  for (const Recorded& r : copy) {
    if (r.from != server_address()) continue;
    const auto type = static_cast<netcode::PacketType>(r.bytes[0] & 0x0f);
    if (netcode::is_replay_protected(type)) ++protected_packets;
    // Re-sent from the server's own socket, so the source address is the genuine one.
    ASSERT_TRUE(server_socket->send(client_address(1), r.bytes));
  }
  step();
  EXPECT_FALSE(client->receive_payload(p));
  EXPECT_GE(client->rejects()[Reject::replayed] - before, protected_packets);
  EXPECT_TRUE(client->connected());
}

TEST_F(ReplayAttack, ReplayedResponseFromTheConnectedAddressIsIgnored) {
  std::vector<uint8_t> response;
  for (const Recorded& r : recorded) {
    if (r.from == client_address(1) &&
        (r.bytes[0] & 0x0f) == static_cast<uint8_t>(netcode::PacketType::connection_response)) {
      response = r.bytes;
    }
  }
  ASSERT_FALSE(response.empty()) << "the handshake is recorded from its start";
  const auto before = server->rejects()[Reject::response_address_connected];
  ASSERT_TRUE(client_socket->send(server_address(), response));
  step();
  EXPECT_EQ(server->rejects()[Reject::response_address_connected], before + 1);
  EXPECT_EQ(server->connected_clients(), 1u);
}

}  // namespace
}  // namespace tickwire
