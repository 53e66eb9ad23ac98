// Who gets thinned snapshots: a client of our build (its schema lists mapRestTable) does; a client
// of the v0 build, whose schema predates the message, keeps full snapshots; nobody is thinned
// before the connect sequence has told us which build it is.
#include "tickwire/replication/rest_table_thinning.h"

#include <gtest/gtest.h>

#include "legacy_v0.h"
#include "tickwire/protocol/fixed_frame.h"
#include "tickwire/protocol/session_channels.h"
#include "tickwire/protocol/wire_messages.h"
#include "tickwire/wire/codec.h"
#include "tickwire/wire/schema_hash.h"
#include "tickwire/wire/schema_parser.h"

namespace tickwire {
namespace {

struct Server {
  Server() : cache(protocol::protocol_messages().schema_text()), endpoint(session_endpoint_config()), net(endpoint, 0, 1) {}
  SchemaCache cache;
  ReliableEndpoint endpoint;
  NetChannel net;
  PeerSchema peer{cache, wire::Direction::client_to_server, "server", kSessionReliableChannel};

  template <class M>
  void deliver(const M& m) {
    std::vector<uint8_t> body(wire::measure(m));
    EXPECT_TRUE(wire::encode(m, body).ok());
    NetMessage message;
    message.type = M::wire_id;
    message.from = 1;
    message.payload = body;
    (void)peer.receive(net, message, true);
  }

  void hello(const wire::Hash16& hash) {
    peer.start(net);
    protocol::ConnectRequest request;
    request.protocol_version = protocol::kProtocolVersion;
    request.schema_hash = hash;
    request.build_name = "client";
    deliver(request);
  }
};

TEST(RestTableThinning, OurSchemaListsTheMessageAndV0DoesNot) {
  auto ours = wire::parse_schema(protocol::protocol_messages().schema_text());
  ASSERT_TRUE(ours.ok());
  EXPECT_TRUE(schema_lists_rest_table(ours.value()));
  auto v0 = wire::parse_schema(test::legacy_v0_schema_text());
  ASSERT_TRUE(v0.ok());
  EXPECT_FALSE(schema_lists_rest_table(v0.value()));
}

TEST(RestTableThinning, AClientOfOurBuildIsThinned) {
  Server server;
  EXPECT_FALSE(peer_takes_rest_table(server.peer, server.cache)) << "not before the hello";
  server.hello(server.cache.our_hash());
  ASSERT_TRUE(server.peer.ready());
  EXPECT_TRUE(peer_takes_rest_table(server.peer, server.cache));
}

TEST(RestTableThinning, AClientOfTheV0BuildKeepsFullSnapshots) {
  Server server;
  const std::string v0_text = test::legacy_v0_schema_text();
  server.hello(wire::hash_schema_text(v0_text));
  EXPECT_FALSE(server.peer.ready());
  EXPECT_FALSE(peer_takes_rest_table(server.peer, server.cache)) << "not while its schema is unknown";
  protocol::SchemaText text;
  text.schema_hash = wire::hash_schema_text(v0_text);
  text.text = v0_text;
  server.deliver(text);
  ASSERT_TRUE(server.peer.ready());
  EXPECT_FALSE(server.peer.same_build());
  EXPECT_FALSE(peer_takes_rest_table(server.peer, server.cache));
}

}  // namespace
}  // namespace tickwire
