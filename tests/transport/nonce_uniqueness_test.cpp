// No (key, nonce) pair ever repeats. One connect token is used again and again: reconnects with
// the same client, a re-created client, a server stopped and started in the same process, and a
// server object re-created on the same socket. Every encrypted packet on the wire is decrypted
// with the key its direction implies (proving which key it used) and its sequence recorded.
#include <gtest/gtest.h>

#include <set>

#include "netcode_test_support.h"
#include "support.h"
#include "tickwire/transport/netcode_packet.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

class NonceLedger {
 public:
  explicit NonceLedger(const netcode::ConnectToken& token) : token_(token) {}
  void on_delivery(const SimDelivery& d, const Address& server) {
    if (d.bytes.empty() || d.bytes[0] == 0) return;  // requests are plaintext
    const bool downstream = d.from == server;
    const netcode::Key& key = downstream ? token_.server_to_client_key : token_.client_to_server_key;
    netcode::EncryptedHeader header;
    const auto allowed = downstream ? netcode::kClientAccepts : netcode::kServerAccepts;
    ASSERT_EQ(netcode::read_encrypted_header(d.bytes, allowed, header), netcode::Reject::ok);
    netcode::DecodedPacket packet;
    ASSERT_EQ(netcode::open_encrypted_packet(d.bytes, header, token_.protocol_id, key, nullptr, packet),
              netcode::Reject::ok)
        << "packet not under the key its direction implies";
    const bool fresh = (downstream ? down_ : up_).insert(header.sequence).second;
    EXPECT_TRUE(fresh) << (downstream ? "server" : "client") << " reused nonce " << header.sequence;
    ++packets_;
  }
  std::size_t packets() const { return packets_; }
  std::size_t down() const { return down_.size(); }
  std::size_t up() const { return up_.size(); }

 private:
  netcode::ConnectToken token_;
  std::set<uint64_t> down_, up_;
  std::size_t packets_ = 0;
};

TEST(NonceUniqueness, OneTokenReusedEveryWayNeverRepeatsAKeyNoncePair) {
  SimWorld world(test_seed(5));
  const netcode::Key key = fixed_key(11);
  const auto token = mint_token(key, 500, {server_address()}, world.wall(), /*timeout_s=*/5, /*expire_s=*/120);
  NonceLedger ledger(token);
  world.net.set_wiretap([&](const SimDelivery& d) { ledger.on_delivery(d, server_address()); });

  auto server_socket = world.net.bind(server_address());
  auto client_socket = world.net.bind(client_address(1));
  auto server = std::make_unique<NetcodeServer>(*server_socket, server_config(key, server_address(), 4));
  server->start(world.now);
  auto client = std::make_unique<NetcodeClient>(*client_socket);
  const std::array<uint8_t, 16> body{};

  auto session = [&](const char* what) {
    SCOPED_TRACE(what);
    client->connect(token, world.now);
    NetcodeClient* clients[] = {client.get()};
    ASSERT_TRUE(run_until(world, server.get(), clients, Duration::seconds(2), [&] { return client->connected(); }));
    for (int i = 0; i < 20; ++i) {
      client->send_payload(body, world.now);
      server->send_payload(client->client_index(), body, world.now);
      step_all(world, server.get(), clients);
    }
    run_until(world, server.get(), clients, Duration::milliseconds(300), [] { return false; });
  };
  auto settle = [&] {
    NetcodeClient* clients[] = {client.get()};
    run_until(world, server.get(), clients, Duration::milliseconds(200), [] { return false; });
  };

  session("first connection");
  client->disconnect(world.now);
  settle();

  session("reconnect, same client object");
  client->disconnect(world.now);
  settle();

  client = std::make_unique<NetcodeClient>(*client_socket);
  session("re-created client");
  server->stop(world.now);  // redundant disconnects to the client
  settle();

  server->start(world.now);
  session("server stopped and started in the same process");
  client->disconnect(world.now);
  settle();

  server = std::make_unique<NetcodeServer>(*server_socket, server_config(key, server_address(), 4));
  server->start(world.now);
  client = std::make_unique<NetcodeClient>(*client_socket);
  session("server object re-created, client re-created");
  server->disconnect_client(0, world.now);
  settle();

  // Handshakes, keep-alives, payloads and disconnects in both directions, all distinct.
  // (5 sessions x 20 payloads each way, plus handshakes, keep-alives and disconnects.)
  EXPECT_GT(ledger.down(), 5u * 20 + 5 * 2);
  EXPECT_GT(ledger.up(), 5u * 20 + 5);
  EXPECT_EQ(ledger.packets(), ledger.down() + ledger.up());
}

}  // namespace
}  // namespace tickwire
