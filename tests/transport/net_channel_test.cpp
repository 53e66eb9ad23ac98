// NetChannel: typed direct messages both ways, addressed messages relayed by the authority with
// the payload untouched and the sender stamped from the connection (never the client's claim),
// malformed and misrouted envelopes counted and skipped, and statistics readable at any time.
#include "tickwire/transport/net_channel.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "endpoint_pair.h"
#include "tickwire/transport/message_envelope.h"
#include "support.h"

namespace tickwire {
namespace {

constexpr Duration kTick = Duration::milliseconds(16);

std::span<const uint8_t> bytes_of(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}
std::string text_of(std::span<const uint8_t> b) { return {b.begin(), b.end()}; }

LinkModel link_20ms() {
  LinkModel m;
  m.latency_ms = 20;
  return m;
}

TEST(MessageEnvelope, LayoutAndErrors) {
  std::array<uint8_t, kMaxEnvelopeBytes> head{};
  // Owner ids that fit a byte take the narrow layout (tag 1, what an 8-bit build sent)...
  EXPECT_EQ(write_envelope_head(Envelope{Route::addressed, 0x0201, 3, 4, {}}, head), 5u);
  EXPECT_EQ(std::vector<uint8_t>(head.begin(), head.begin() + 5), (std::vector<uint8_t>{1, 0x01, 0x02, 3, 4}));
  // ...and either one past it the wide one (tag 2, u16 ids).
  EXPECT_EQ(write_envelope_head(Envelope{Route::addressed, 0x0201, 3, 0x3FF, {}}, head), 7u);
  EXPECT_EQ(head, (std::array<uint8_t, 7>{2, 0x01, 0x02, 3, 0, 0xFF, 0x03}));
  Envelope highest;
  ASSERT_TRUE(read_envelope(head, highest).ok());
  EXPECT_EQ(highest.route, Route::addressed);
  EXPECT_EQ(highest.from, 3);
  EXPECT_EQ(highest.to, kMaxClientOwner);
  const std::array<uint8_t, 6> message = {0, 0x34, 0x12, 'h', 'i', '!'};
  Envelope e;
  ASSERT_TRUE(read_envelope(message, e).ok());
  EXPECT_EQ(e.route, Route::direct);
  EXPECT_EQ(e.type, 0x1234);
  EXPECT_EQ(e.payload.size(), 3u);
  const std::array<uint8_t, 3> bad_route = {3, 0, 0};
  EXPECT_EQ(read_envelope(bad_route, e).error(), Error::unknown_union_tag);
  const std::array<uint8_t, 4> short_addressed = {1, 0, 0, 3};
  EXPECT_EQ(read_envelope(short_addressed, e).error(), Error::truncated);
  const std::array<uint8_t, 6> short_wide = {2, 0, 0, 3, 0, 4};
  EXPECT_EQ(read_envelope(short_wide, e).error(), Error::truncated);
  // A wide owner id past the 10-bit space names nobody: refused before anyone indexes by it.
  const std::array<uint8_t, 7> past_the_space = {2, 0, 0, 3, 0, 0x00, 0x04};
  EXPECT_EQ(read_envelope(past_the_space, e).error(), Error::value_out_of_range);
  const std::array<uint8_t, 7> from_past_the_space = {2, 0, 0, 0xFF, 0xFF, 4, 0};
  EXPECT_EQ(read_envelope(from_past_the_space, e).error(), Error::value_out_of_range);
}

TEST(NetChannel, DirectMessagesCarryTypeAndSenderBothWays) {
  test::EndpointPair pair(EndpointConfig::defaults(), link_20ms(), link_20ms(), test::test_seed(71));
  NetChannel authority(pair.a, kAuthorityOwner, 5);
  NetChannel client(pair.b, 5, kAuthorityOwner);
  ASSERT_TRUE(authority.send(0, 42, bytes_of("welcome")).ok());
  ASSERT_TRUE(client.send(1, 7, bytes_of("input")).ok());
  for (int i = 0; i < 5; ++i) pair.step(kTick);
  const auto at_client = client.receive(0);
  ASSERT_TRUE(at_client.has_value());
  EXPECT_EQ(at_client->type, 42);
  EXPECT_EQ(at_client->from, kAuthorityOwner);
  EXPECT_EQ(at_client->to, 5);
  EXPECT_FALSE(at_client->addressed);
  EXPECT_EQ(text_of(at_client->payload), "welcome");
  const auto at_authority = authority.receive(1);
  ASSERT_TRUE(at_authority.has_value());
  EXPECT_EQ(at_authority->type, 7);
  EXPECT_EQ(at_authority->from, 5);
  EXPECT_EQ(text_of(at_authority->payload), "input");
}

TEST(NetChannel, TheAuthorityRelaysAddressedMessagesWithoutReadingThem) {
  // Two connections at the authority: to client 1 and to client 2.
  test::EndpointPair one(EndpointConfig::defaults(), link_20ms(), link_20ms(), test::test_seed(72));
  test::EndpointPair two(EndpointConfig::defaults(), link_20ms(), link_20ms(), test::test_seed(73));
  NetChannel authority_to_1(one.a, kAuthorityOwner, 1);
  NetChannel authority_to_2(two.a, kAuthorityOwner, 2);
  NetChannel client_1(one.b, 1, kAuthorityOwner);
  NetChannel client_2(two.b, 2, kAuthorityOwner);
  // A payload the authority could not parse as anything: it must arrive byte for byte.
  std::vector<uint8_t> opaque(700);
  for (std::size_t i = 0; i < opaque.size(); ++i) opaque[i] = static_cast<uint8_t>(i * 31 + 7);
  ASSERT_TRUE(client_1.send_to(2, 0, 900, opaque).ok());
  ASSERT_TRUE(client_1.send_to(kAuthorityOwner, 0, 901, bytes_of("to you")).ok());
  std::vector<NetMessage> to_authority;
  for (int i = 0; i < 20; ++i) {
    one.step(kTick);
    two.step(kTick);
    while (auto m = authority_to_1.receive(0)) {
      if (m->addressed) {
        ASSERT_EQ(m->to, 2);
        EXPECT_EQ(m->from, 1);
        ASSERT_TRUE(authority_to_2.relay(0, *m).ok());
      } else {
        EXPECT_EQ(m->from, 1);
        EXPECT_EQ(text_of(m->payload), "to you");
        to_authority.push_back(*m);
      }
    }
  }
  EXPECT_EQ(to_authority.size(), 1u);
  const auto relayed = client_2.receive(0);
  ASSERT_TRUE(relayed.has_value());
  EXPECT_TRUE(relayed->addressed);
  EXPECT_EQ(relayed->from, 1);
  EXPECT_EQ(relayed->to, 2);
  EXPECT_EQ(relayed->type, 900);
  EXPECT_EQ(std::vector<uint8_t>(relayed->payload.begin(), relayed->payload.end()), opaque);
}

TEST(NetChannel, ASpoofedSenderIsReplacedByTheConnectionsOwner) {
  test::EndpointPair pair(EndpointConfig::defaults(), link_20ms(), link_20ms(), test::test_seed(74));
  NetChannel authority(pair.a, kAuthorityOwner, 3);
  // Client 3 writes an addressed envelope claiming to be owner 9.
  std::array<uint8_t, kMaxEnvelopeBytes> head{};
  const std::size_t used = write_envelope_head(Envelope{Route::addressed, 5, 9, 4, {}}, head);
  ASSERT_TRUE(pair.b.send(0, std::span<const uint8_t>(head.data(), used), bytes_of("x")).ok());
  for (int i = 0; i < 5; ++i) pair.step(kTick);
  const auto m = authority.receive(0);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->from, 3);
  EXPECT_EQ(m->to, 4);
}

// A client addressing an owner past the 10-bit space is refused at its own channel, by name, and
// nothing reaches the wire for the authority to count as malformed; an owner past a byte goes wide.
TEST(NetChannel, AnAddressedSendPastTheOwnerSpaceIsRefusedBeforeTheWire) {
  test::EndpointPair pair(EndpointConfig::defaults(), link_20ms(), link_20ms(), test::test_seed(75));
  NetChannel authority(pair.a, kAuthorityOwner, 3);
  NetChannel client(pair.b, 3, kAuthorityOwner);
  EXPECT_EQ(client.send_to(kOwnerIdCount, 0, 300, bytes_of("x")).error, SendError::no_such_owner);
  EXPECT_EQ(client.send_to(0xFFFF, 0, 300, bytes_of("x")).error, SendError::no_such_owner);
  ASSERT_TRUE(client.send_to(700, 0, 300, bytes_of("wide")).ok());
  for (int i = 0; i < 5; ++i) pair.step(kTick);
  const auto m = authority.receive(0);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->from, 3);
  EXPECT_EQ(m->to, 700);
  EXPECT_EQ(text_of(m->payload), "wide");
  EXPECT_FALSE(authority.receive(0).has_value()) << "the refused ones never left";
}

TEST(NetChannel, MalformedAndMisroutedEnvelopesAreCountedAndSkipped) {
  test::EndpointPair pair(EndpointConfig::defaults(), link_20ms(), link_20ms(), test::test_seed(75));
  NetChannel client(pair.b, 6, kAuthorityOwner);
  const std::array<uint8_t, 2> truncated = {0, 1};
  const std::array<uint8_t, 3> bad_route = {7, 0, 0};
  std::array<uint8_t, kMaxEnvelopeBytes> head{};
  const std::size_t used = write_envelope_head(Envelope{Route::addressed, 5, 1, 8, {}}, head);  // for owner 8
  ASSERT_TRUE(pair.a.send(0, truncated).ok());
  ASSERT_TRUE(pair.a.send(0, bad_route).ok());
  ASSERT_TRUE(pair.a.send(0, std::span<const uint8_t>(head.data(), used)).ok());
  NetChannel authority(pair.a, kAuthorityOwner, 6);
  ASSERT_TRUE(authority.send(0, 11, bytes_of("ok")).ok());
  for (int i = 0; i < 5; ++i) pair.step(kTick);
  const auto m = client.receive(0);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->type, 11);
  EXPECT_EQ(client.counters()[TransportReason::envelope_malformed], 2u);
  EXPECT_EQ(client.counters()[TransportReason::misrouted], 1u);
  EXPECT_FALSE(client.receive(0).has_value());
}

TEST(NetChannel, StatisticsAreReadableAtAnyTime) {
  test::EndpointPair pair(EndpointConfig::defaults(), link_20ms(), link_20ms(), test::test_seed(76));
  NetChannel authority(pair.a, kAuthorityOwner, 1);
  const std::vector<uint8_t> payload(100, 1);
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(authority.send(0, 1, payload).ok());
  ConnectionStats s = authority.stats();
  EXPECT_EQ(s.channels[0].send_queue_messages, 10u);
  EXPECT_GT(s.channels[0].send_queue_bytes, 0u);
  for (int i = 0; i < 30; ++i) pair.step(kTick);
  s = authority.stats();
  EXPECT_EQ(s.channels[0].send_queue_messages, 0u);
  EXPECT_GT(s.rtt_ms, 40.0);
  EXPECT_GT(s.packets_acked, 0u);
  EXPECT_GT(s.bytes_sent, 10u * 100u);
}

}  // namespace
}  // namespace tickwire
