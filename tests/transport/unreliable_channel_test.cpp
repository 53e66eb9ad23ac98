// Unreliable channels: newest wins at both ends, nothing is resent, a message that misses its
// write is discarded (counted), and the sender learns which unreliable messages were acked and in
// which packet.
#include <gtest/gtest.h>

#include <vector>

#include "endpoint_pair.h"
#include "message_pattern.h"
#include "support.h"

namespace tickwire {
namespace {

constexpr Duration kTick = Duration::milliseconds(16);

EndpointConfig unreliable_config() {
  EndpointConfig c;
  c.channels[1] = ChannelConfig::unreliable(500);
  return c;
}

TEST(UnreliableChannel, NeverResentAndOnlyNewerDelivered) {
  LinkModel lossy;
  lossy.latency_ms = 30;
  lossy.jitter_ms = 30;
  lossy.jitter_keeps_order = false;
  lossy.loss = 0.3;
  lossy.duplicate = 0.3;
  test::EndpointPair pair(unreliable_config(), lossy, lossy, test::test_seed(41));
  uint32_t next = 0;
  uint32_t delivered = 0;
  bool any = false;
  uint32_t newest = 0;
  for (int tick = 0; tick < 1000; ++tick) {
    pair.deliver(kTick);
    while (auto m = pair.b.receive(1)) {
      ASSERT_TRUE(test::message_intact(*m));
      const uint32_t index = test::message_index(*m);
      ASSERT_TRUE(!any || index > newest);
      any = true;
      newest = index;
      ++delivered;
    }
    ASSERT_TRUE(pair.a.send(1, test::make_message(next++, 100)).ok());
    pair.write();
  }
  EXPECT_GT(delivered, 400u);
  EXPECT_LT(delivered, 1000u);
  EXPECT_EQ(pair.a.stats().resends, 0u);
  EXPECT_GT(pair.b.counters()[TransportReason::stale_unreliable], 0u) << "duplicates and late ones are stale";
}

TEST(UnreliableChannel, FullQueuesDropTheOldestAndUnsentMessagesExpire) {
  EndpointConfig config = unreliable_config();
  config.channels[1].unreliable_queue_messages = 4;
  config.channels[1].budget_bytes_per_write = 2 * (100 + 5);  // two messages per write
  test::EndpointPair pair(config, LinkModel{}, LinkModel{}, test::test_seed(42));
  for (uint32_t i = 0; i < 6; ++i) ASSERT_TRUE(pair.a.send(1, test::make_message(i, 100)).ok());
  EXPECT_EQ(pair.a.counters()[TransportReason::unreliable_replaced], 2u);  // 0 and 1 made room
  pair.write();
  EXPECT_EQ(pair.a.counters()[TransportReason::unreliable_expired], 2u);  // 4 and 5 missed the budget
  pair.deliver(kTick);
  std::vector<uint32_t> got;
  while (auto m = pair.b.receive(1)) got.push_back(test::message_index(*m));
  EXPECT_EQ(got, (std::vector<uint32_t>{2, 3}));
}

TEST(UnreliableChannel, ReportsWhichMessagesWereAckedInWhichPacket) {
  test::EndpointPair pair(unreliable_config(), LinkModel{}, LinkModel{}, test::test_seed(43));
  std::vector<uint16_t> ids;
  for (uint32_t i = 0; i < 3; ++i) {
    const SendResult r = pair.a.send(1, test::make_message(i, 50));
    ASSERT_TRUE(r.ok());
    ids.push_back(r.message_id);
    pair.step(kTick);
  }
  for (int i = 0; i < 3; ++i) pair.step(kTick);
  std::vector<uint16_t> acked_ids;
  std::vector<uint16_t> packets;
  while (auto m = pair.a.pop_acked_message()) {
    EXPECT_EQ(m->channel, 1);
    acked_ids.push_back(m->message_id);
    packets.push_back(m->packet_sequence);
  }
  EXPECT_EQ(acked_ids, ids);
  std::vector<uint16_t> acked_packets;
  while (auto p = pair.a.pop_acked_packet()) acked_packets.push_back(*p);
  for (uint16_t p : packets) EXPECT_NE(std::find(acked_packets.begin(), acked_packets.end(), p), acked_packets.end());
}

}  // namespace
}  // namespace tickwire
