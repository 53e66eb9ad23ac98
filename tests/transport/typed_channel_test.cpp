// Typed sends over a NetChannel: a message's field table writes the payload, its wire id is the
// type, and the receiver reads it back as the same shape; a wrong type or bad bytes are counted.
#include "tickwire/wire/typed_channel.h"

#include <gtest/gtest.h>

#include "endpoint_pair.h"
#include "support.h"
#include "tickwire/protocol/material_set.h"
#include "tickwire/protocol/ping.h"
#include "tickwire/protocol/server_info.h"

namespace tickwire {
namespace {

constexpr Duration kTick = Duration::milliseconds(16);

TEST(TypedChannel, MessagesTravelAsTheirShapes) {
  LinkModel link;
  link.latency_ms = 20;
  test::EndpointPair pair(EndpointConfig::defaults(), link, link, test::test_seed(91));
  NetChannel authority(pair.a, kAuthorityOwner, 4);
  NetChannel client(pair.b, 4, kAuthorityOwner);

  protocol::ServerInfo info;
  info.motd = "hello";
  info.region = protocol::Region::asia;
  info.max_clients = 32;
  protocol::MaterialSet big;  // 300 probe points: larger than a packet, so it travels as a block
  big.revision = 3;
  for (int i = 0; i < 300; ++i) big.probe_points.push_back({float(i), 1, 2});
  ASSERT_TRUE(wire::send_message(authority, 0, info).ok());
  ASSERT_TRUE(wire::send_message(authority, 0, big).ok());
  ASSERT_TRUE(wire::send_message(client, 1, protocol::Ping{9, 1234, false}).ok());
  for (int i = 0; i < 10; ++i) pair.step(kTick);

  wire::DecodeErrorCounters errors;
  const auto got_info = client.receive(0);
  ASSERT_TRUE(got_info.has_value());
  protocol::ServerInfo decoded;
  ASSERT_TRUE(wire::read_message(*got_info, decoded, errors).ok());
  EXPECT_EQ(decoded.motd, info.motd);
  EXPECT_EQ(decoded.region, protocol::Region::asia);
  EXPECT_EQ(decoded.max_clients, 32);

  const auto got_big = client.receive(0);
  ASSERT_TRUE(got_big.has_value());
  protocol::MaterialSet big_back;
  ASSERT_TRUE(wire::read_message(*got_big, big_back, errors).ok());
  ASSERT_EQ(big_back.probe_points.size(), 300u);
  EXPECT_EQ(big_back.probe_points[299].x, 299.0f);

  const auto got_ping = authority.receive(1);
  ASSERT_TRUE(got_ping.has_value());
  protocol::ServerInfo wrong;
  EXPECT_EQ(wire::read_message(*got_ping, wrong, errors).error(), Error::unknown_message);
  protocol::Ping ping;
  ASSERT_TRUE(wire::read_message(*got_ping, ping, errors).ok());
  EXPECT_EQ(ping.sequence, 9u);
  EXPECT_EQ(errors[Error::unknown_message], 1u);
  EXPECT_EQ(errors.total(), 1u);
}

}  // namespace
}  // namespace tickwire
