// Who gets thinned snapshots (PeerSchema::peer_lists of mapRestTable, as the room asks): a client
// of our build (its schema lists the message) does; a client of the v0 build, whose schema predates
// the message, keeps full snapshots; nobody is thinned before the connect sequence has told us
// which build it is.
#include <gtest/gtest.h>

#include "legacy_v0.h"
#include "tickwire/protocol/fixed_frame.h"
#include "tickwire/protocol/peer_schema.h"
#include "tickwire/protocol/rest_table_chunk.h"
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

bool thinned(const PeerSchema& peer) { return peer.peer_lists(protocol::RestTableChunk::message_name); }

TEST(RestTableThinning, OurSchemaListsTheMessageAndV0DoesNot) {
  auto ours = wire::parse_schema(protocol::protocol_messages().schema_text());
  ASSERT_TRUE(ours.ok());
  EXPECT_NE(ours.value().find_message(protocol::RestTableChunk::message_name), nullptr);
  auto v0 = wire::parse_schema(test::legacy_v0_schema_text());
  ASSERT_TRUE(v0.ok());
  EXPECT_EQ(v0.value().find_message(protocol::RestTableChunk::message_name), nullptr);
}

TEST(RestTableThinning, AClientOfOurBuildIsThinned) {
  Server server;
  EXPECT_FALSE(thinned(server.peer)) << "not before the hello";
  server.hello(server.cache.our_hash());
  ASSERT_TRUE(server.peer.ready());
  EXPECT_TRUE(thinned(server.peer));
}

TEST(RestTableThinning, AClientOfTheV0BuildKeepsFullSnapshots) {
  Server server;
  const std::string v0_text = test::legacy_v0_schema_text();
  server.hello(wire::hash_schema_text(v0_text));
  EXPECT_FALSE(server.peer.ready());
  EXPECT_FALSE(thinned(server.peer)) << "not while its schema is unknown";
  protocol::SchemaText text;
  text.schema_hash = wire::hash_schema_text(v0_text);
  text.text = v0_text;
  server.deliver(text);
  ASSERT_TRUE(server.peer.ready());
  EXPECT_FALSE(server.peer.same_build());
  EXPECT_FALSE(thinned(server.peer));
}

}  // namespace
}  // namespace tickwire
