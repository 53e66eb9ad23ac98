// Packet assembly per write: every packet within the MTU budget and the entry cap, each channel
// within its byte budget, at most max_packets_per_write packets, and an idle connection sending
// only keep-alives and the acks they elicit (no ack ping-pong).
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "endpoint_pair.h"
#include "message_pattern.h"
#include "support.h"
#include "tickwire/transport/packet_entry.h"
#include "tickwire/transport/packet_header.h"

namespace tickwire {
namespace {

// Parses what one write produced.
struct Capture final : PacketSink {
  struct Packet {
    std::size_t bytes = 0;
    std::size_t entries = 0;
    std::array<std::size_t, kMaxChannels> channel_bytes{};
  };
  std::vector<Packet> packets;
  void on_packet(uint16_t /*sequence*/, std::span<const uint8_t> payload) override {
    Packet p;
    p.bytes = payload.size();
    ByteReader r(payload);
    PacketHeader h;
    EXPECT_TRUE(h.read(r).ok());
    EntryView e;
    while (!r.at_end()) {
      const std::size_t before = r.position();
      ASSERT_TRUE(read_entry(r, e).ok());
      ++p.entries;
      if (e.kind != EntryKind::ping) p.channel_bytes[e.channel] += r.position() - before;
    }
    packets.push_back(p);
  }
};

TEST(PacketAssembly, PacketsFitTheMtuAndChannelsKeepTheirBudgets) {
  EndpointConfig config = EndpointConfig::defaults();
  config.channels[0].budget_bytes_per_write = 3000;
  config.channels[2] = ChannelConfig::reliable();
  config.channels[2].budget_bytes_per_write = 1000;
  config.max_packets_per_write = 6;
  ReliableEndpoint endpoint(config);
  ASSERT_TRUE(endpoint.send(0, test::make_message(0, 30'000)).ok());  // a block
  for (uint32_t i = 0; i < 40; ++i) ASSERT_TRUE(endpoint.send(2, test::make_message(i, 150)).ok());
  for (uint32_t i = 0; i < 3; ++i) ASSERT_TRUE(endpoint.send(1, test::make_message(i, 900)).ok());
  Capture capture;
  endpoint.write_packets(MonoTime::from_ns(0), capture);
  ASSERT_FALSE(capture.packets.empty());
  EXPECT_LE(capture.packets.size(), 6u);
  std::array<std::size_t, kMaxChannels> totals{};
  for (const auto& p : capture.packets) {
    EXPECT_LE(p.bytes, kMaxPacketPayloadBytes);
    EXPECT_LE(p.entries, kMaxEntriesPerPacket);
    for (std::size_t c = 0; c < kMaxChannels; ++c) totals[c] += p.channel_bytes[c];
  }
  EXPECT_LE(totals[0], 3000u);
  EXPECT_GT(totals[0], 2000u);  // two fragments fit the budget, a third does not
  EXPECT_LE(totals[2], 1000u);
  EXPECT_GT(totals[2], 1000u - 155u);
  EXPECT_EQ(totals[1], 3u * 905u) << "the unreliable channel has no budget: all three go";
}

TEST(PacketAssembly, EntriesPerPacketAreCapped) {
  EndpointConfig config;
  config.channels[0] = ChannelConfig::reliable();
  ReliableEndpoint endpoint(config);
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(endpoint.send(0, std::span<const uint8_t>()).ok());
  Capture capture;
  endpoint.write_packets(MonoTime::from_ns(0), capture);
  ASSERT_EQ(capture.packets.size(), 2u);
  EXPECT_EQ(capture.packets[0].entries, kMaxEntriesPerPacket);
  EXPECT_EQ(capture.packets[1].entries, 100u - kMaxEntriesPerPacket);
}

TEST(PacketAssembly, IdleConnectionsSendKeepalivesNotAckPingPong) {
  LinkModel link;
  link.latency_ms = 40;
  const EndpointConfig config = EndpointConfig::defaults();
  test::EndpointPair pair(config, link, link, test::test_seed(51));
  const Duration tick = Duration::milliseconds(16);
  const int ticks = 625;  // 10 s
  for (int i = 0; i < ticks; ++i) pair.step(tick);
  // One ping per keepalive interval plus one ack-only reply to each of the peer's pings.
  const double per_side = 2.0 * 10'000.0 / config.keepalive_interval.milliseconds_f();
  EXPECT_LE(static_cast<double>(pair.sink_a().written()), per_side + 4);
  EXPECT_GE(static_cast<double>(pair.sink_a().written()), per_side - 4);
  EXPECT_NEAR(pair.a.stats().rtt_ms, 80.0, 20.0);
  EXPECT_EQ(pair.a.stats().loss_percent, 0.0);
}

TEST(PacketAssembly, PacketsWithEntriesAreAckedAtTheNextWrite) {
  ReliableEndpoint a(EndpointConfig::defaults());
  ReliableEndpoint b(EndpointConfig::defaults());
  ASSERT_TRUE(a.send(0, test::make_message(1, 10)).ok());
  struct Forward final : PacketSink {
    ReliableEndpoint* to = nullptr;
    MonoTime now;
    int packets = 0;
    void on_packet(uint16_t, std::span<const uint8_t> payload) override {
      ++packets;
      EXPECT_TRUE(to->receive_packet(payload, now).ok());
    }
  } to_b, to_a;
  to_b.to = &b;
  to_a.to = &a;
  MonoTime now = MonoTime::from_ns(0);
  to_b.now = now;
  a.write_packets(now, to_b);
  now += Duration::milliseconds(5);
  to_a.now = now;
  b.write_packets(now, to_a);  // B's keep-alive carries the ack
  EXPECT_EQ(to_a.packets, 1);
  std::optional<uint16_t> acked = a.pop_acked_packet();
  ASSERT_TRUE(acked.has_value());
  EXPECT_EQ(*acked, 0);
  EXPECT_EQ(a.stats().channels[0].send_queue_messages, 0u) << "the message was acked and released";
  EXPECT_NEAR(a.stats().rtt_ms, 5.0, 0.01);
}

// A layer that never reads the notices turns them off: the same exchange queues none, so nothing
// can overflow however long the connection lives.
TEST(PacketAssembly, AnEndpointWithoutAckNoticesQueuesNone) {
  EndpointConfig quiet = EndpointConfig::defaults();
  quiet.ack_notices = false;
  ReliableEndpoint a(quiet);
  ReliableEndpoint b(EndpointConfig::defaults());
  struct Forward final : PacketSink {
    ReliableEndpoint* to = nullptr;
    MonoTime now;
    void on_packet(uint16_t, std::span<const uint8_t> payload) override { EXPECT_TRUE(to->receive_packet(payload, now).ok()); }
  } to_b, to_a;
  to_b.to = &b;
  to_a.to = &a;
  MonoTime now = MonoTime::from_ns(0);
  for (int round = 0; round < 1500; ++round) {  // past the 1,024 a queue holds
    ASSERT_TRUE(a.send(1, test::make_message(static_cast<uint32_t>(round), 10)).ok());
    to_b.now = now;
    a.write_packets(now, to_b);
    now += Duration::milliseconds(5);
    to_a.now = now;
    b.write_packets(now, to_a);
  }
  EXPECT_GT(a.stats().packets_acked, 1000u);
  EXPECT_FALSE(a.pop_acked_packet().has_value());
  EXPECT_FALSE(a.pop_acked_message().has_value());
  EXPECT_EQ(a.counters()[TransportReason::ack_queue_full], 0u);
}

}  // namespace
}  // namespace tickwire
