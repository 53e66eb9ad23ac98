// The reject table: every reason the standard gives for ignoring a connection request, each sent
// on its own to a running server with connected clients. Each is counted under its own reason,
// sends not one byte back (except "server full", answered by a denied packet smaller than the
// request) and allocates nothing while being refused.
#include <gtest/gtest.h>

#include "netcode_test_support.h"
#include "allocation_counter.h"
#include "support.h"
#include "tickwire/transport/netcode_packet.h"

namespace tickwire {
namespace {

using namespace tickwire::test;
using netcode::Reject;

class RejectTable : public ::testing::Test {
 protected:
  RejectTable() : world(test_seed(3)) {}

  void SetUp() override {
    server_socket = world.net.bind(server_address());
    server = std::make_unique<NetcodeServer>(*server_socket, server_config(key, server_address(), 2));
    server->start(world.now);
    a_socket = world.net.bind(client_address(1));
    attacker = world.net.bind(client_address(9));
    second_attacker = world.net.bind(client_address(10));
    client_a = std::make_unique<NetcodeClient>(*a_socket);
    client_a->connect(mint_token(key, kClientA, {server_address()}, world.wall()), world.now);
    NetcodeClient* clients[] = {client_a.get()};
    ASSERT_TRUE(run_until(world, server.get(), clients, Duration::seconds(1), [&] { return client_a->connected(); }));
  }

  // Sends `bytes` from `from`, lets the server process it at the time of its last update (so no
  // keep-alive falls due), and checks what the server did.
  void expect_ignored(SimSocket& from, std::span<const uint8_t> bytes, Reject reason) {
    SCOPED_TRACE(std::string(reason_name(reason)));
    const auto before_reason = server->rejects()[reason];
    const auto before_total = server->rejects().total();
    const auto before_sent = server->datagrams_sent();
    ASSERT_TRUE(from.send(server_address(), bytes));
    world.net.advance_to(world.now);
    ASSERT_EQ(server_socket->queued(), 1u);
    const uint64_t allocations_before = test::allocation_count();
    server->update(world.now, world.wall());
    const uint64_t allocations = test::allocation_count() - allocations_before;
    EXPECT_EQ(server->rejects()[reason], before_reason + 1);
    EXPECT_EQ(server->rejects().total(), before_total + 1);
    EXPECT_EQ(server->datagrams_sent(), before_sent) << "an ignored request must not be answered";
    if (test::allocation_counting()) {
      EXPECT_EQ(allocations, 0u) << "refusing a request must not allocate";
    }
    ++reasons_seen;
  }

  static constexpr uint64_t kClientA = 1001;
  SimWorld world;
  netcode::Key key = fixed_key(7);
  std::unique_ptr<SimSocket> server_socket, a_socket, attacker, second_attacker;
  std::unique_ptr<NetcodeServer> server;
  std::unique_ptr<NetcodeClient> client_a;
  int reasons_seen = 0;
};

TEST_F(RejectTable, EveryRequestRejectReasonIsIgnoredCountedAndSilent) {
  const auto wall = world.wall();
  const auto valid = request_bytes(mint_token(key, 2001, {server_address()}, wall));

  // 1. Not 1078 bytes.
  expect_ignored(*attacker, std::span<const uint8_t>(valid).first(1077), Reject::request_wrong_size);
  auto longer = valid;
  longer.push_back(0);
  expect_ignored(*attacker, longer, Reject::request_wrong_size);
  // 2. Version info other than "NETCODE 1.02".
  auto version = valid;
  version[12] = '1';
  expect_ignored(*attacker, version, Reject::request_wrong_version);
  // 3. Another game's protocol id.
  expect_ignored(*attacker, request_bytes(mint_token(key, 2002, {server_address()}, wall, 5, 30, 0x999)),
                 Reject::request_wrong_protocol);
  // 4. Expired (minted a minute ago, 30 s lifetime).
  expect_ignored(*attacker,
                 request_bytes(mint_token(key, 2003, {server_address()}, wall - Duration::seconds(60), 5, 30)),
                 Reject::request_token_expired);
  // 5. Fails to decrypt: another backend's key, or one flipped byte.
  expect_ignored(*attacker, request_bytes(mint_token(fixed_key(8), 2004, {server_address()}, wall)),
                 Reject::request_token_decrypt_failed);
  auto flipped = valid;
  flipped[1078 - 20] ^= 0x01;
  expect_ignored(*attacker, flipped, Reject::request_token_decrypt_failed);
  // 6. Authentic but unreadable: no server addresses inside.
  {
    auto token = mint_token(key, 2005, {server_address()}, wall);
    netcode::SealedPrivateToken sealed{};
    ByteWriter w(std::span<uint8_t>(sealed.data(), 1008));
    w.u64(2005);
    w.u32(5);
    w.u32(0);
    w.pad_to(1008);
    const auto ad = netcode::private_token_additional_data(token.protocol_id, token.expire_timestamp);
    ASSERT_TRUE(netcode::xaead_encrypt(sealed, std::span<const uint8_t>(sealed.data(), 1008), ad, token.nonce, key));
    token.private_data = sealed;
    expect_ignored(*attacker, request_bytes(token), Reject::request_token_malformed);
  }
  // 7. This server is not in the token's list.
  expect_ignored(*attacker, request_bytes(mint_token(key, 2006, {server_address(40001)}, wall)),
                 Reject::request_server_not_in_token);
  // 8. The source address already has a connected client (a fresh valid token from A's address).
  expect_ignored(*a_socket, request_bytes(mint_token(key, 2007, {server_address()}, wall)),
                 Reject::request_address_connected);
  // 9. The token's client id is already connected (from another address).
  expect_ignored(*attacker, request_bytes(mint_token(key, kClientA, {server_address()}, wall)),
                 Reject::request_client_id_connected);
  // 10. The token was already used from a different address: first use from the attacker is
  // answered with a challenge, the same request from a second address is ignored.
  {
    const auto stolen = request_bytes(mint_token(key, 2008, {server_address()}, wall));
    ASSERT_TRUE(attacker->send(server_address(), stolen));
    world.net.advance_to(world.now);
    const auto sent_before = server->datagrams_sent();
    server->update(world.now, world.wall());
    EXPECT_EQ(server->datagrams_sent(), sent_before + 1);  // the challenge
    expect_ignored(*second_attacker, stolen, Reject::request_token_used_elsewhere);
  }
  EXPECT_EQ(reasons_seen, 12);
  EXPECT_EQ(server->connected_clients(), 1u);
}

TEST_F(RejectTable, TheServersFilterRefusesARequestWithADeniedPacketAndLetsTheRestThrough) {
  server->set_request_filter([](uint64_t client_id, const netcode::UserData&) { return client_id != 4001; });
  const auto before = server->rejects()[Reject::request_denied_by_server];
  const auto to_attacker = world.wire.between(server_address(), client_address(9));
  ASSERT_TRUE(attacker->send(server_address(), request_bytes(mint_token(key, 4001, {server_address()}, world.wall()))));
  world.net.advance_to(world.now);
  server->update(world.now, world.wall());
  world.advance(Duration::milliseconds(1));
  EXPECT_EQ(server->rejects()[Reject::request_denied_by_server], before + 1);
  EXPECT_EQ(server->pending_handshakes(), 0u) << "nothing made for a refused request";
  const auto answered = world.wire.between(server_address(), client_address(9));
  EXPECT_EQ(answered.datagrams - to_attacker.datagrams, 1u);
  EXPECT_EQ(answered.bytes - to_attacker.bytes, 1u + 8 + 16);  // a denied packet: prefix, sequence, MAC

  auto c_socket = world.net.bind(client_address(2));
  NetcodeClient let_in(*c_socket);
  let_in.connect(mint_token(key, 4002, {server_address()}, world.wall()), world.now);
  NetcodeClient* clients[] = {client_a.get(), &let_in};
  EXPECT_TRUE(run_until(world, server.get(), clients, Duration::seconds(1), [&] { return let_in.connected(); }));
  server->set_request_filter(nullptr);
}

TEST_F(RejectTable, FullServerAnswersWithADeniedPacketSmallerThanTheRequest) {
  auto c_socket = world.net.bind(client_address(2));
  NetcodeClient client_c(*c_socket);
  client_c.connect(mint_token(key, 3001, {server_address()}, world.wall()), world.now);
  NetcodeClient* clients[] = {client_a.get(), &client_c};
  ASSERT_TRUE(run_until(world, server.get(), clients, Duration::seconds(1), [&] { return client_c.connected(); }));
  ASSERT_EQ(server->connected_clients(), 2u);

  const auto request = request_bytes(mint_token(key, 3002, {server_address()}, world.wall()));
  const auto before = server->rejects()[Reject::request_denied_server_full];
  const auto to_attacker = world.wire.between(server_address(), client_address(9));
  ASSERT_TRUE(attacker->send(server_address(), request));
  world.net.advance_to(world.now);
  server->update(world.now, world.wall());
  world.advance(Duration::milliseconds(1));
  EXPECT_EQ(server->rejects()[Reject::request_denied_server_full], before + 1);
  const auto answered = world.wire.between(server_address(), client_address(9));
  EXPECT_EQ(answered.datagrams - to_attacker.datagrams, 1u);
  EXPECT_LT(answered.bytes - to_attacker.bytes, request.size());
  EXPECT_EQ(answered.bytes - to_attacker.bytes, 1u + 8 + 16);  // prefix, 8-byte sequence, MAC
}

}  // namespace
}  // namespace tickwire
