// PeerSchema and SchemaCache on their own: the connect sequence's rules one by one, and every
// hostile turn it can take (texts nobody asked for, texts that lie about their hash, requests for
// hashes that are not ours, a second hello, too much before the plan, another protocol version).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "legacy_v0.h"
#include "tickwire/protocol/fixed_frame.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/peer_schema.h"
#include "tickwire/protocol/session_channels.h"
#include "tickwire/protocol/wire_messages.h"
#include "tickwire/wire/codec.h"
#include "tickwire/wire/schema_hash.h"

namespace tickwire {
namespace {

using test::LegacyMessage;

template <class M>
std::vector<uint8_t> body_of(const M& message) {
  std::vector<uint8_t> out(wire::measure(message));
  EXPECT_TRUE(wire::encode(message, out).ok());
  return out;
}

struct Side {
  Side() : cache(protocol::protocol_messages().schema_text()), endpoint(session_endpoint_config()), net(endpoint, 0, 1) {}
  SchemaCache cache;
  ReliableEndpoint endpoint;
  NetChannel net;
};

NetMessage message_of(uint16_t type, const std::vector<uint8_t>& body) {
  NetMessage m;
  m.type = type;
  m.from = 1;
  m.payload = body;
  return m;
}

std::vector<uint8_t> hello_body(const wire::Hash16& hash, uint16_t version = protocol::kProtocolVersion) {
  protocol::ConnectRequest hello;
  hello.protocol_version = version;
  hello.schema_hash = hash;
  hello.build_name = "peer";
  return body_of(hello);
}

std::vector<uint8_t> v0_text_body(std::string text = test::legacy_v0_schema_text()) {
  protocol::SchemaText message;
  message.schema_hash = wire::hash_schema_text(test::legacy_v0_schema_text());
  message.text = std::move(text);
  return body_of(message);
}

const wire::Hash16 kV0Hash = wire::hash_schema_text(test::legacy_v0_schema_text());

TEST(PeerSchema, APeerOfOurBuildIsDispatchedAsIs) {
  Side side;
  PeerSchema peer(side.cache, wire::Direction::client_to_server, "server", kSessionReliableChannel);
  peer.start(side.net);
  EXPECT_FALSE(peer.ready());
  EXPECT_FALSE(peer.receive(side.net, message_of(1, hello_body(side.cache.our_hash())), true));
  ASSERT_TRUE(peer.ready());
  EXPECT_TRUE(peer.same_build());
  EXPECT_EQ(peer.peer_build_name(), "peer");
  protocol::InputFrame frame;
  frame.inputs.resize(1);
  const auto body = body_of(frame);
  auto out = peer.receive(side.net, message_of(protocol::InputFrame::wire_id, body), false);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->id, protocol::InputFrame::wire_id);
  EXPECT_EQ(std::vector<uint8_t>(out->body.begin(), out->body.end()), body);
  EXPECT_EQ(peer.translated(), 0u);
  EXPECT_EQ(peer.refusals().total(), 0u);
}

TEST(PeerSchema, AnotherBuildIsHeldUntilItsTextArrivesThenRewritten) {
  Side side;
  PeerSchema peer(side.cache, wire::Direction::client_to_server, "server", kSessionReliableChannel);
  peer.start(side.net);
  peer.receive(side.net, message_of(1, hello_body(kV0Hash)), true);
  EXPECT_FALSE(peer.ready());
  EXPECT_TRUE(side.cache.request_in_flight(kV0Hash)) << "it asked for the text";
  const LegacyMessage input = test::legacy_v0_input_frame(40, {40, 41});
  EXPECT_FALSE(peer.receive(side.net, message_of(input.id, input.body), false)) << "unreliable: dropped";
  EXPECT_EQ(peer.refusals()[PeerRefusal::early_unreliable], 1u);
  EXPECT_FALSE(peer.receive(side.net, message_of(input.id, input.body), true)) << "reliable: held";
  EXPECT_FALSE(peer.receive(side.net, message_of(3, v0_text_body()), true));
  ASSERT_TRUE(peer.ready());
  EXPECT_FALSE(side.cache.request_in_flight(kV0Hash));
  EXPECT_EQ(side.cache.texts_learned(), 1u);
  auto held = peer.next_held();
  ASSERT_TRUE(held);
  EXPECT_EQ(held->id, protocol::InputFrame::wire_id);
  protocol::InputFrame frame;
  ASSERT_TRUE(wire::decode(held->body, frame).ok());
  EXPECT_EQ(frame.first_sequence, 40u);
  ASSERT_EQ(frame.inputs.size(), 2u);
  EXPECT_EQ(frame.inputs[1].buttons, 41u);
  EXPECT_FALSE(peer.next_held());
  EXPECT_EQ(peer.translated(), 1u);
}

TEST(PeerSchema, TwoSessionsMeetingOneNewBuildAskOnce) {
  Side side;
  std::optional<PeerSchema> first(std::in_place, side.cache, wire::Direction::client_to_server, "s", kSessionReliableChannel);
  PeerSchema second(side.cache, wire::Direction::client_to_server, "s", kSessionReliableChannel);
  first->receive(side.net, message_of(1, hello_body(kV0Hash)), true);
  second.receive(side.net, message_of(1, hello_body(kV0Hash)), true);
  // The second waits on the first's request; when that session ends unanswered, it asks itself.
  second.poll(side.net);
  EXPECT_FALSE(second.ready());
  first.reset();
  EXPECT_FALSE(side.cache.request_in_flight(kV0Hash));
  second.poll(side.net);
  EXPECT_TRUE(side.cache.request_in_flight(kV0Hash));
  second.receive(side.net, message_of(3, v0_text_body()), true);
  EXPECT_TRUE(second.ready());
  // A third session of that build finds it cached: no request at all.
  PeerSchema third(side.cache, wire::Direction::client_to_server, "s", kSessionReliableChannel);
  third.receive(side.net, message_of(1, hello_body(kV0Hash)), true);
  EXPECT_TRUE(third.ready());
  EXPECT_EQ(side.cache.texts_learned(), 1u);
}

TEST(PeerSchema, HostileTurnsAreRefusedByName) {
  Side side;
  {  // A text nobody asked for is ignored and learns nothing.
    PeerSchema peer(side.cache, wire::Direction::client_to_server, "s", kSessionReliableChannel);
    peer.receive(side.net, message_of(3, v0_text_body()), true);
    EXPECT_EQ(peer.refusals()[PeerRefusal::unsolicited_text], 1u);
    EXPECT_EQ(side.cache.texts_learned(), 0u);
    EXPECT_FALSE(peer.failure());
  }
  {  // A text that does not hash to its name ends the session and frees the request.
    PeerSchema peer(side.cache, wire::Direction::client_to_server, "s", kSessionReliableChannel);
    peer.receive(side.net, message_of(1, hello_body(kV0Hash)), true);
    peer.receive(side.net, message_of(3, v0_text_body(test::legacy_v0_schema_text() + " ")), true);
    EXPECT_EQ(peer.failure(), PeerRefusal::schema_text_refused);
    EXPECT_FALSE(side.cache.request_in_flight(kV0Hash));
    EXPECT_EQ(side.cache.texts_learned(), 0u);
  }
  {  // Requests for a hash that is not ours, a second hello, bytes that are no hello.
    PeerSchema peer(side.cache, wire::Direction::client_to_server, "s", kSessionReliableChannel);
    peer.receive(side.net, message_of(2, body_of(protocol::SchemaRequest{kV0Hash})), true);
    EXPECT_EQ(peer.refusals()[PeerRefusal::foreign_request], 1u);
    peer.receive(side.net, message_of(2, {1, 2, 3}), true);
    EXPECT_EQ(peer.refusals()[PeerRefusal::fixed_frame_malformed], 1u);
    peer.receive(side.net, message_of(1, hello_body(side.cache.our_hash())), true);
    peer.receive(side.net, message_of(1, hello_body(kV0Hash)), true);
    EXPECT_EQ(peer.refusals()[PeerRefusal::duplicate_hello], 1u);
    EXPECT_TRUE(peer.same_build()) << "the second hello changed nothing";
    peer.receive(side.net, message_of(300, {0}), true);
    EXPECT_EQ(peer.refusals()[PeerRefusal::untranslatable], 1u);
    EXPECT_FALSE(peer.failure());
  }
  {
    PeerSchema peer(side.cache, wire::Direction::client_to_server, "s", kSessionReliableChannel);
    peer.receive(side.net, message_of(1, {0, 1}), true);
    EXPECT_EQ(peer.failure(), PeerRefusal::hello_malformed);
  }
  {
    PeerSchema peer(side.cache, wire::Direction::client_to_server, "s", kSessionReliableChannel);
    peer.receive(side.net, message_of(1, hello_body(side.cache.our_hash(), protocol::kProtocolVersion + 1)), true);
    EXPECT_EQ(peer.failure(), PeerRefusal::protocol_mismatch);
    EXPECT_FALSE(peer.ready());
  }
}

TEST(PeerSchema, TheHoldBeforeThePlanIsCapped) {
  Side side;
  PeerSchema peer(side.cache, wire::Direction::client_to_server, "s", kSessionReliableChannel);
  peer.receive(side.net, message_of(1, hello_body(kV0Hash)), true);
  const std::vector<uint8_t> body(16, 0);
  for (std::size_t i = 0; i < kPeerSchemaHeldMessages; ++i) peer.receive(side.net, message_of(12, body), true);
  EXPECT_FALSE(peer.failure());
  peer.receive(side.net, message_of(12, body), true);
  EXPECT_EQ(peer.failure(), PeerRefusal::held_overflow);
  EXPECT_FALSE(peer.receive(side.net, message_of(3, v0_text_body()), true)) << "a failed side takes nothing more";
}

TEST(SchemaCache, KeepsTheMostRecentlyUsedBuildsUpToItsCap) {
  SchemaCache cache(protocol::protocol_messages().schema_text(), 1);
  ASSERT_TRUE(cache.learn(kV0Hash, test::legacy_v0_schema_text()).ok());
  EXPECT_TRUE(cache.find(kV0Hash));
  const std::string other = "tickwire-schema 1;\nshape Ping {\n  sequence u32;\n}\nmessage 10 both ping Ping;\n";
  ASSERT_TRUE(cache.learn(wire::hash_schema_text(other), other).ok());
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_EQ(cache.evictions(), 1u);
  EXPECT_FALSE(cache.find(kV0Hash));
  EXPECT_FALSE(cache.learn(kV0Hash, other).ok()) << "a text must hash to its name";
}

}  // namespace
}  // namespace tickwire
