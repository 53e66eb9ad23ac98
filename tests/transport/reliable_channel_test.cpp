// Reliable-ordered channels between two endpoints over SimNetwork: in-order exactly-once delivery
// of messages and blocks, explicit refusals for oversize payloads and full queues, resends under
// loss, and memory that a peer which never acks cannot grow.
#include <gtest/gtest.h>

#include <vector>

#include "endpoint_pair.h"
#include "message_pattern.h"
#include "support.h"

namespace tickwire {
namespace {

using test::EndpointPair;
using test::make_message;
using test::message_index;
using test::message_intact;

constexpr Duration kTick = Duration::milliseconds(16);

LinkModel latency(double ms, double loss = 0.0) {
  LinkModel m;
  m.latency_ms = ms;
  m.loss = loss;
  return m;
}

// Drains channel 0 of `endpoint`, checking order and bytes; returns how many arrived.
std::size_t drain_in_order(ReliableEndpoint& endpoint, uint32_t& next_index) {
  std::size_t got = 0;
  while (auto message = endpoint.receive(0)) {
    EXPECT_EQ(message_index(*message), next_index);
    EXPECT_TRUE(message_intact(*message));
    ++next_index;
    ++got;
  }
  return got;
}

TEST(ReliableChannel, DeliversInOrderExactlyOnceOnAPerfectLink) {
  EndpointPair pair(EndpointConfig::defaults(), latency(20), latency(20), test::test_seed(1));
  uint32_t sent = 0;
  uint32_t received = 0;
  for (int tick = 0; tick < 200; ++tick) {
    pair.deliver(kTick);
    drain_in_order(pair.b, received);
    for (int k = 0; k < 3 && sent < 300; ++k) {
      ASSERT_TRUE(pair.a.send(0, make_message(sent, 4 + (sent * 37) % 900)).ok());
      ++sent;
    }
    pair.write();
  }
  EXPECT_EQ(received, 300u);
  EXPECT_EQ(pair.a.stats().resends, 0u) << "no loss, so nothing is sent twice";
  EXPECT_EQ(pair.b.counters()[TransportReason::duplicate_message], 0u);
}

TEST(ReliableChannel, BlocksInterleavedWithMessagesArriveWholeAndInOrder) {
  const EndpointConfig config = EndpointConfig::defaults();
  EndpointPair pair(config, latency(30), latency(30), test::test_seed(2));
  const std::vector<std::size_t> sizes = {100, 10'000, 5, 1025, config.channels[0].max_block_bytes, 700, 40'000, 4, 1024};
  uint32_t sent = 0;
  uint32_t received = 0;
  std::vector<std::size_t> got_sizes;
  for (int tick = 0; tick < 400 && received < sizes.size(); ++tick) {
    pair.deliver(kTick);
    // The send pool holds a block and a half: a refusal is explicit, and the caller retries.
    while (sent < sizes.size()) {
      const SendResult r = pair.a.send(0, make_message(sent, sizes[sent]));
      if (!r.ok()) {
        EXPECT_EQ(r.error, SendError::send_queue_full);
        break;
      }
      ++sent;
    }
    pair.write();
    while (auto message = pair.b.receive(0)) {
      EXPECT_EQ(message_index(*message), received);
      EXPECT_TRUE(message_intact(*message));
      got_sizes.push_back(message->size());
      ++received;
    }
  }
  EXPECT_EQ(got_sizes, sizes);
}

TEST(ReliableChannel, OversizePayloadIsAnExplicitCountedError) {
  EndpointConfig config = EndpointConfig::defaults();
  ReliableEndpoint endpoint(config);
  const std::vector<uint8_t> too_big(config.channels[0].max_block_bytes + 1);
  const SendResult reliable = endpoint.send(0, too_big);
  EXPECT_EQ(reliable.error, SendError::message_too_large);
  const std::vector<uint8_t> too_big_unreliable(config.channels[1].max_message_bytes + 1);
  EXPECT_EQ(endpoint.send(1, too_big_unreliable).error, SendError::message_too_large);
  EXPECT_EQ(endpoint.send(2, too_big_unreliable).error, SendError::unknown_channel);
  EXPECT_EQ(endpoint.send(9, too_big_unreliable).error, SendError::unknown_channel);
  EXPECT_EQ(endpoint.send_refusals()[SendError::message_too_large], 2u);
  EXPECT_EQ(endpoint.send_refusals()[SendError::unknown_channel], 2u);
  EXPECT_EQ(endpoint.stats().send_refusals, 4u);

  // Without blocks, the message cap is the limit.
  config.channels[2] = ChannelConfig::reliable();
  ReliableEndpoint no_blocks(config);
  EXPECT_EQ(no_blocks.send(2, std::vector<uint8_t>(config.channels[2].max_message_bytes + 1)).error,
            SendError::message_too_large);
  EXPECT_TRUE(no_blocks.send(2, std::vector<uint8_t>(config.channels[2].max_message_bytes)).ok());
}

TEST(ReliableChannel, LossIsRepairedByResendsExactlyOnce) {
  EndpointPair pair(EndpointConfig::defaults(), latency(40, 0.3), latency(40, 0.3), test::test_seed(3));
  uint32_t sent = 0;
  uint32_t received = 0;
  for (int tick = 0; tick < 3000 && received < 500; ++tick) {
    pair.deliver(kTick);
    drain_in_order(pair.b, received);
    while (sent < 500 && pair.a.send(0, make_message(sent, 8 + sent % 300)).ok()) ++sent;
    pair.write();
  }
  EXPECT_EQ(received, 500u);
  EXPECT_GT(pair.a.stats().resends, 0u);
  EXPECT_FALSE(pair.a.failed());
  EXPECT_FALSE(pair.b.failed());
}

TEST(ReliableChannel, APeerThatNeverAcksCannotGrowOurMemory) {
  EndpointConfig config = EndpointConfig::defaults();
  EndpointPair pair(config, latency(10), latency(10), test::test_seed(4));
  pair.writes_b = false;  // B never sends, so A never learns of an ack
  const std::size_t memory = pair.a.memory_bytes();
  uint32_t accepted = 0;
  uint64_t refused = 0;
  for (int tick = 0; tick < 200; ++tick) {
    pair.step(kTick);
    for (int k = 0; k < 20; ++k) {
      const SendResult r = pair.a.send(0, make_message(accepted, 200));
      if (r.ok()) {
        ++accepted;
      } else {
        EXPECT_EQ(r.error, SendError::send_queue_full);
        ++refused;
      }
    }
  }
  const ChannelStats stats = pair.a.stats().channels[0];
  EXPECT_GT(refused, 0u);
  EXPECT_EQ(pair.a.send_refusals()[SendError::send_queue_full], refused);
  EXPECT_LE(stats.send_queue_messages, config.channels[0].send_queue_messages);
  EXPECT_LE(stats.send_queue_bytes, config.channels[0].send_queue_bytes);
  EXPECT_EQ(pair.a.memory_bytes(), memory);

  // Once B acks again the queue drains and every accepted message arrives exactly once, in order.
  pair.writes_b = true;
  uint32_t received = 0;
  for (int tick = 0; tick < 2000 && received < accepted; ++tick) {
    pair.step(kTick);
    drain_in_order(pair.b, received);
  }
  EXPECT_EQ(received, accepted);
  EXPECT_TRUE(pair.a.send(0, make_message(accepted, 200)).ok());
}

TEST(ReliableChannel, RttAndResendDelayFollowTheLink) {
  EndpointPair pair(EndpointConfig::defaults(), latency(50), latency(50), test::test_seed(5));
  uint32_t sent = 0;
  for (int tick = 0; tick < 300; ++tick) {
    pair.deliver(kTick);
    while (pair.b.receive(0)) {
    }
    (void)pair.a.send(0, make_message(sent++, 64));
    pair.write();
  }
  const ConnectionStats s = pair.a.stats();
  // 100 ms on the wire plus up to one tick before the peer's next write carries the ack.
  EXPECT_GE(s.rtt_ms, 100.0);
  EXPECT_LE(s.rtt_ms, 100.0 + 2 * kTick.milliseconds_f());
  EXPECT_GE(s.rto_ms, s.rtt_ms);
  EXPECT_EQ(s.resends, 0u);
  EXPECT_LT(s.loss_percent, 1.0);
  EXPECT_GT(s.sent_kbps, 0.0);
  EXPECT_GT(s.acked_kbps, 0.0);
  EXPECT_GT(pair.b.stats().received_kbps, 0.0);
}

TEST(ReliableChannel, MessageIdsAndPacketSequencesWrap) {
  // 70,000 ticks, a message each: both 16-bit spaces wrap, under 10% loss and duplication.
  LinkModel link = latency(10, 0.1);
  link.duplicate = 0.1;
  EndpointPair pair(EndpointConfig::defaults(), link, link, test::test_seed(6));
  uint32_t sent = 0;
  uint32_t received = 0;
  for (int tick = 0; tick < 70'500; ++tick) {
    pair.deliver(kTick);
    drain_in_order(pair.b, received);
    if (sent < 70'000) {
      ASSERT_TRUE(pair.a.send(0, make_message(sent++, 8)).ok());
    }
    pair.write();
  }
  EXPECT_EQ(received, 70'000u);
  EXPECT_GT(pair.a.stats().packets_sent, 70'000u);
  EXPECT_FALSE(pair.a.failed());
  EXPECT_FALSE(pair.b.failed());
}

}  // namespace
}  // namespace tickwire
