// Faults and hostile input at one endpoint: malformed payloads dropped whole with a named error,
// entries outside the configuration counted and not acked, fragment floods over many connections
// that allocate nothing and whose stale sets are evicted, and the fatal reasons (receive queue
// overflow, reliable timeout) that tell the owner to drop the connection instead of stalling.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "endpoint_pair.h"
#include "message_pattern.h"
#include "payload_builder.h"
#include "allocation_counter.h"
#include "support.h"
#include "tickwire/core/rng.h"

namespace tickwire {
namespace {

using test::PayloadBuilder;
using R = TransportReason;
constexpr Duration kTick = Duration::milliseconds(16);
const MonoTime kStart = MonoTime::from_ns(1'000'000'000);

// Captures the header of the next packet an endpoint writes.
struct HeaderCapture final : PacketSink {
  PacketHeader header;
  int packets = 0;
  void on_packet(uint16_t, std::span<const uint8_t> payload) override {
    ByteReader r(payload);
    if (packets++ == 0) {
      EXPECT_TRUE(header.read(r).ok());
    }
  }
};

bool acks(ReliableEndpoint& e, uint16_t sequence, MonoTime now) {
  HeaderCapture capture;
  e.write_packets(now, capture);
  if (!capture.header.has_ack) return false;
  if (capture.header.ack == sequence) return true;
  const auto distance = static_cast<uint16_t>(capture.header.ack - sequence);
  return distance >= 1 && distance <= 32 && ((capture.header.ack_bits >> (distance - 1)) & 1u) != 0;
}

TEST(EndpointFaults, MalformedPayloadsAreDroppedWholeWithANamedError) {
  ReliableEndpoint e(EndpointConfig::defaults());
  const std::vector<uint8_t> body = test::make_message(1, 20);
  EXPECT_EQ(e.receive_packet({}, kStart).error(), Error::truncated);
  const std::array<uint8_t, 3> bad_flags = {0x80, 0, 0};
  EXPECT_EQ(e.receive_packet(bad_flags, kStart).error(), Error::unknown_flag_bits);
  // A valid message followed by a truncated entry: nothing of the packet is applied.
  const std::array<uint8_t, 3> cut = {0x04, 0x01, 0x00};
  PayloadBuilder half(1);
  half.message(EntryKind::reliable, 0, 0, body).raw(cut);
  EXPECT_EQ(e.receive_packet(half.bytes(), kStart).error(), Error::truncated);
  EXPECT_FALSE(e.receive(0).has_value());
  PayloadBuilder crowded(2);
  for (std::size_t i = 0; i <= kMaxEntriesPerPacket; ++i) crowded.ping();
  EXPECT_EQ(e.receive_packet(crowded.bytes(), kStart).error(), Error::count_over_max);
  EXPECT_EQ(e.counters()[R::too_many_entries], 1u);
  EXPECT_EQ(e.counters()[R::malformed_packet], 4u);
  EXPECT_EQ(e.decode_errors()[Error::truncated], 2u);
  EXPECT_FALSE(acks(e, 1, kStart));
  // The same message in a well-formed packet is delivered.
  PayloadBuilder good(3);
  good.message(EntryKind::reliable, 0, 0, body);
  EXPECT_TRUE(e.receive_packet(good.bytes(), kStart).ok());
  ASSERT_TRUE(e.receive(0).has_value());
  EXPECT_FALSE(e.failed());
}

TEST(EndpointFaults, EntriesOutsideTheConfigurationAreCountedAndNotAcked) {
  ReliableEndpoint e(EndpointConfig::defaults());  // 0 reliable with blocks, 1 unreliable
  const std::vector<uint8_t> body(10, 7);
  const std::vector<uint8_t> huge(1100, 7);
  const auto refuse = [&](uint16_t sequence, PayloadBuilder& p, R reason) {
    const uint64_t before = e.counters()[reason];
    EXPECT_TRUE(e.receive_packet(p.bytes(), kStart).ok());
    EXPECT_EQ(e.counters()[reason], before + 1) << reason_name(reason);
    EXPECT_FALSE(acks(e, sequence, kStart));
  };
  PayloadBuilder p1(1), p2(2), p3(3), p4(4);
  p1.message(EntryKind::reliable, 3, 0, body);
  refuse(1, p1, R::unknown_channel);
  p2.fragment(1, 0, FragmentHeader{0, 2, 20, 0}, body);
  refuse(2, p2, R::wrong_channel_kind);
  p3.message(EntryKind::reliable, 1, 0, body);
  refuse(3, p3, R::wrong_channel_kind);
  p4.message(EntryKind::reliable, 0, 0, huge);
  refuse(4, p4, R::message_too_large);
  EXPECT_FALSE(e.failed());
}

TEST(EndpointFaults, AReliableMessageBeyondTheWindowIsFatal) {
  ReliableEndpoint e(EndpointConfig::defaults());
  PayloadBuilder p(1);
  const std::vector<uint8_t> body(4, 1);
  p.message(EntryKind::reliable, 0, static_cast<uint16_t>(e.config().channels[0].receive_window_messages), body);
  EXPECT_TRUE(e.receive_packet(p.bytes(), kStart).ok());
  EXPECT_TRUE(e.failed());
  EXPECT_EQ(e.failure(), R::receive_queue_overflow);
  EXPECT_EQ(e.send(0, body).error, SendError::endpoint_failed);
}

TEST(EndpointFaults, AnAppThatStopsDrainingGetsItsConnectionDroppedNotStalled) {
  test::EndpointPair pair(EndpointConfig::defaults(), LinkModel{}, LinkModel{}, test::test_seed(61));
  uint32_t sent = 0;
  for (int tick = 0; tick < 2000 && !pair.b.failed(); ++tick) {
    pair.deliver(kTick);  // B never calls receive()
    while (pair.a.send(0, test::make_message(sent, 300)).ok()) ++sent;
    pair.write();
  }
  ASSERT_TRUE(pair.b.failed());
  EXPECT_EQ(pair.b.failure(), R::receive_queue_overflow);
  const ConnectionStats s = pair.b.stats();
  EXPECT_TRUE(s.failed);
  EXPECT_EQ(s.failure, R::receive_queue_overflow);
  EXPECT_LE(s.channels[0].receive_queue_messages, pair.b.config().channels[0].receive_window_messages);
}

TEST(EndpointFaults, APeerThatNeverAcksTimesOutTheConnection) {
  EndpointConfig config = EndpointConfig::defaults();
  config.reliable_timeout = Duration::seconds(10);
  test::EndpointPair pair(config, LinkModel{}, LinkModel{}, test::test_seed(62));
  pair.reads_b = false;
  ASSERT_TRUE(pair.a.send(0, test::make_message(0, 50)).ok());
  pair.step(kTick);
  const MonoTime first_send = pair.now();
  while (!pair.a.failed() && pair.now() - first_send < Duration::seconds(11)) {
    pair.step(kTick);
    if (pair.now() - first_send < Duration::seconds(10)) {
      ASSERT_FALSE(pair.a.failed());
    }
  }
  EXPECT_TRUE(pair.a.failed());
  EXPECT_EQ(pair.a.failure(), R::reliable_timeout);
  EXPECT_EQ(pair.a.counters()[R::reliable_timeout], 1u);
}

// One hostile fragment of a random kind for message `id`.
void hostile_fragment(PayloadBuilder& p, Rng& rng, uint16_t id, const ChannelConfig& c) {
  const std::vector<uint8_t> bytes(64, 0xcc);
  const auto max_fragments = static_cast<uint16_t>(c.max_fragments);
  switch (rng.below(8)) {
    case 0: p.fragment(0, id, FragmentHeader{0, static_cast<uint16_t>(max_fragments + 1), 4096, 0}, bytes); break;
    case 1: p.fragment(0, id, FragmentHeader{5, 5, 4096, 0}, bytes); break;
    case 2: p.fragment(0, id, FragmentHeader{1, 4, 4096, 64}, {}); break;
    case 3: p.fragment(0, id, FragmentHeader{1, 4, c.max_block_bytes + 1, 64}, bytes); break;
    case 4: p.fragment(0, id, FragmentHeader{3, 4, 4096, 4090}, bytes); break;
    case 5: p.fragment(0, id, FragmentHeader{1, 4, 4096, 30}, bytes); break;       // overlaps fragment 0
    case 6: p.fragment(0, id, FragmentHeader{1, 3, 4096, 1024}, bytes); break;     // other count
    default: p.fragment(0, static_cast<uint16_t>(id + 1), FragmentHeader{0, 4, 4096, 0}, bytes); break;  // busy
  }
}

TEST(EndpointFaults, FragmentFloodsOverManyConnectionsAllocateNothingAndStaleSetsAreEvicted) {
  const EndpointConfig config = EndpointConfig::defaults();
  std::vector<ReliableEndpoint> connections;
  for (int i = 0; i < 64; ++i) connections.emplace_back(config);
  const std::size_t memory = connections[0].memory_bytes();
  Rng rng(test::test_seed(63));
  std::vector<PayloadBuilder> packets;
  packets.reserve(64 * 50);
  const std::vector<uint8_t> start_bytes(64, 0xab);
  for (uint16_t c = 0; c < 64; ++c) {
    for (uint16_t k = 0; k < 50; ++k) {
      packets.emplace_back(k);
      if (k == 0) packets.back().fragment(0, 0, FragmentHeader{0, 4, 4096, 0}, start_bytes);  // opens a set
      else hostile_fragment(packets.back(), rng, 0, config.channels[0]);
    }
  }
  struct NullSink final : PacketSink {
    void on_packet(uint16_t, std::span<const uint8_t>) override {}
  } sink;

  const uint64_t allocations_before = test::allocation_count();
  for (std::size_t c = 0; c < connections.size(); ++c) {
    for (std::size_t k = 0; k < 50; ++k) (void)connections[c].receive_packet(packets[c * 50 + k].bytes(), kStart);
    connections[c].write_packets(kStart, sink);
  }
  if (test::allocation_counting()) {
    EXPECT_EQ(test::allocation_count() - allocations_before, 0u) << "the endpoints allocated while taking hostile fragments";
  }

  TransportCounters totals;
  for (const ReliableEndpoint& e : connections) {
    EXPECT_FALSE(e.failed());
    EXPECT_EQ(e.memory_bytes(), memory);
    for (std::size_t r = 0; r < TransportCounters::size(); ++r) totals.add(static_cast<R>(r), e.counters()[static_cast<R>(r)]);
  }
  for (const R reason : {R::fragment_count_over_cap, R::fragment_id_out_of_range, R::fragment_empty, R::block_too_large,
                         R::fragment_overflows_block, R::fragment_overlap, R::fragment_set_mismatch, R::fragment_set_busy}) {
    EXPECT_GT(totals[reason], 0u) << reason_name(reason);
  }

  // No progress for fragment_set_timeout: every held set is evicted and its connection dropped
  // (its acked fragments are gone, so the stream could never complete).
  const MonoTime later = kStart + config.fragment_set_timeout;
  const uint64_t before_idle = test::allocation_count();
  for (ReliableEndpoint& e : connections) e.write_packets(later, sink);
  if (test::allocation_counting()) {
    EXPECT_EQ(test::allocation_count() - before_idle, 0u);
  }
  for (ReliableEndpoint& e : connections) {
    EXPECT_TRUE(e.failed());
    EXPECT_EQ(e.failure(), R::stale_fragment_set);
    EXPECT_EQ(e.counters()[R::stale_fragment_set], 1u);
  }
}

}  // namespace
}  // namespace tickwire
