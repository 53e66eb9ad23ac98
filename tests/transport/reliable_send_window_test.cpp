// The reliable send queue on its own: a message leaves the send window when it is acked (whatever
// is missing before it), the span the peer may hold behind a gap is capped, a lost packet's content
// goes again at once but only once, timed resends back off, and acks for anything we did not send
// move nothing.
#include <gtest/gtest.h>

#include <array>
#include <limits>
#include <vector>

#include "message_pattern.h"
#include "tickwire/transport/reliable_send_queue.h"

namespace tickwire {
namespace {

using test::make_message;

MonoTime at_ms(int64_t ms) { return MonoTime::from_ns(Duration::milliseconds(ms).ns()); }

ChannelConfig small_channel() {
  ChannelConfig c = ChannelConfig::reliable();
  c.max_message_bytes = 200;
  c.send_window_bytes = 400;     // four 100-byte messages unacked
  c.send_span_bytes = 8 * 128;   // eight 100-byte messages (two 64-byte chunks each) from the oldest unacked
  return c;
}

// What one packet of up to `room_bytes` took from the queue.
std::vector<ContentRef> write_packet(ReliableSendQueue& q, MonoTime now, std::size_t room_bytes = 1200) {
  std::array<uint8_t, 1200> buffer{};
  ByteWriter writer(std::span<uint8_t>(buffer.data(), room_bytes));
  SentContentLog log(256);
  std::size_t budget = std::numeric_limits<std::size_t>::max();
  std::size_t entries = kMaxEntriesPerPacket;
  std::size_t count = 0;
  PacketRoom room{writer, log, now, budget, entries, count};
  q.write(room);
  std::vector<ContentRef> refs;
  for (uint32_t i = 0; i < count; ++i) refs.push_back(log.at(i));
  return refs;
}

std::vector<uint16_t> ids(const std::vector<ContentRef>& refs) {
  std::vector<uint16_t> out;
  for (const ContentRef& r : refs) out.push_back(r.message_id);
  return out;
}

ContentRef ref_of(uint16_t id) { return ContentRef{0, EntryKind::reliable, id, 0}; }

void push(ReliableSendQueue& q, uint32_t count, std::size_t bytes = 100) {
  for (uint32_t i = 0; i < count; ++i) ASSERT_TRUE(q.push({}, make_message(i, bytes)).ok());
}

TEST(ReliableSendWindow, AnAckedMessageLeavesTheWindowWhateverIsMissingBeforeIt) {
  ReliableSendQueue q(small_channel(), 0);
  push(q, 10);
  EXPECT_EQ(ids(write_packet(q, at_ms(0))), (std::vector<uint16_t>{0, 1, 2, 3}));  // the window: 400 bytes
  EXPECT_EQ(q.in_flight_bytes(), 400u);
  for (uint16_t id = 1; id <= 3; ++id) q.on_acked(ref_of(id));  // 0 is still missing
  EXPECT_EQ(q.in_flight_bytes(), 100u);
  EXPECT_EQ(q.messages_acked(), 3u);
  EXPECT_EQ(ids(write_packet(q, at_ms(1))), (std::vector<uint16_t>{4, 5, 6}));
  EXPECT_EQ(q.span_bytes(), 7u * 128);  // 0..6 may all be held by the peer until 0 arrives
}

TEST(ReliableSendWindow, TheSpanBehindAGapIsCappedForThePeersSake) {
  ChannelConfig c = small_channel();
  c.send_window_bytes = 4000;
  c.send_span_bytes = 4 * 128;
  ReliableSendQueue q(c, 0);
  push(q, 10);
  EXPECT_EQ(ids(write_packet(q, at_ms(0))), (std::vector<uint16_t>{0, 1, 2, 3}));
  for (uint16_t id = 1; id <= 3; ++id) q.on_acked(ref_of(id));
  EXPECT_TRUE(write_packet(q, at_ms(1)).empty()) << "0 is missing: the peer holds 1..3 behind it";
  q.on_acked(ref_of(0));
  EXPECT_EQ(q.span_bytes(), 0u);
  EXPECT_EQ(ids(write_packet(q, at_ms(2))), (std::vector<uint16_t>{4, 5, 6, 7}));
}

TEST(ReliableSendWindow, ALostPacketsContentGoesAgainAtOnceButOnlyOnce) {
  ReliableSendQueue q(small_channel(), 0);
  push(q, 3);
  ASSERT_EQ(write_packet(q, at_ms(0)).size(), 3u);
  q.collect_timed_out(at_ms(1), Duration::milliseconds(100), Duration::seconds(5));
  EXPECT_TRUE(write_packet(q, at_ms(1)).empty()) << "nothing is due before its timer";
  q.on_lost(ref_of(1), at_ms(0));
  q.on_lost(ref_of(1), at_ms(0));  // a second report of the same loss
  EXPECT_EQ(ids(write_packet(q, at_ms(1))), (std::vector<uint16_t>{1}));
  EXPECT_EQ(q.fast_resends(), 1u);
  q.on_lost(ref_of(1), at_ms(0));  // the old copy again: the copy sent at 1 ms is still out
  EXPECT_TRUE(write_packet(q, at_ms(2)).empty());
  q.on_lost(ref_of(1), at_ms(1));  // the new copy was lost too
  EXPECT_EQ(ids(write_packet(q, at_ms(3))), (std::vector<uint16_t>{1}));
  EXPECT_EQ(q.resends(), 2u);
}

TEST(ReliableSendWindow, TimedResendsBackOffExponentiallyUpToMaxRto) {
  ReliableSendQueue q(small_channel(), 0);
  push(q, 1);
  ASSERT_EQ(write_packet(q, at_ms(0)).size(), 1u);
  const Duration rto = Duration::milliseconds(10);
  const Duration max_rto = Duration::milliseconds(45);
  // Due at 10, then 10 + 20, then 30 + 40, then 70 + 45 (capped), then 115 + 45.
  std::vector<int64_t> resent_at;
  for (int64_t ms = 1; ms <= 160; ++ms) {
    q.collect_timed_out(at_ms(ms), rto, max_rto);
    if (!write_packet(q, at_ms(ms)).empty()) resent_at.push_back(ms);
  }
  EXPECT_EQ(resent_at, (std::vector<int64_t>{10, 30, 70, 115, 160}));
  EXPECT_EQ(q.fast_resends(), 0u);
}

TEST(ReliableSendWindow, AResendThatDoesNotFitWaitsFirstInLine) {
  ReliableSendQueue q(small_channel(), 0);
  push(q, 2);
  ASSERT_EQ(write_packet(q, at_ms(0)).size(), 2u);
  push(q, 1);
  q.on_lost(ref_of(0), at_ms(0));
  EXPECT_TRUE(write_packet(q, at_ms(1), 50).empty()) << "no room for the resend, and nothing overtakes it";
  EXPECT_EQ(ids(write_packet(q, at_ms(2))), (std::vector<uint16_t>{0, 2}));
}

TEST(ReliableSendWindow, AcksAndLossesForAnythingNotSentMoveNothing) {
  ChannelConfig c = ChannelConfig::reliable_with_blocks(8 * 1024);
  ReliableSendQueue q(c, 0);
  for (uint32_t i = 0; i < 4; ++i) ASSERT_TRUE(q.push({}, make_message(i, 100)).ok());
  ASSERT_EQ(write_packet(q, at_ms(0)).size(), 4u);
  ASSERT_TRUE(q.push({}, make_message(4, 100)).ok());  // queued, never sent
  const std::size_t in_flight = q.in_flight_bytes();
  const std::vector<ContentRef> hostile = {
      ref_of(4),                                  // queued but never sent
      ref_of(500),                                // never queued
      ref_of(65535),                              // far behind (as if wrapped)
      ContentRef{0, EntryKind::fragment, 1, 0},   // a fragment of a plain message
      ContentRef{0, EntryKind::fragment, 2, 4000},  // a fragment index past any block
      ContentRef{0, EntryKind::ping, 3, 0},       // a kind that carries no message
  };
  for (const ContentRef& r : hostile) {
    q.on_acked(r);
    q.on_lost(r, at_ms(10));
  }
  EXPECT_EQ(q.messages_acked(), 0u);
  EXPECT_EQ(q.in_flight_bytes(), in_flight);
  EXPECT_EQ(q.queued_messages(), 5u);
  EXPECT_EQ(ids(write_packet(q, at_ms(1))), (std::vector<uint16_t>{4})) << "only the unsent message goes";
}

TEST(ReliableSendWindow, BlockFragmentsAreAckedLostAndResentOneByOne) {
  ChannelConfig c = ChannelConfig::reliable_with_blocks(8 * 1024);
  ReliableSendQueue q(c, 0);
  ASSERT_TRUE(q.push({}, make_message(0, 3000)).ok());  // three fragments of 1,024
  ASSERT_TRUE(q.push({}, make_message(1, 100)).ok());
  std::vector<ContentRef> first = write_packet(q, at_ms(0), 1200);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].kind, EntryKind::fragment);
  ASSERT_EQ(write_packet(q, at_ms(0), 1200).size(), 1u);
  std::vector<ContentRef> third = write_packet(q, at_ms(0), 1200);
  ASSERT_EQ(third.size(), 2u) << "the last fragment, then the message queued after the block";
  q.on_acked(ContentRef{0, EntryKind::fragment, 0, 0});
  q.on_acked(ContentRef{0, EntryKind::fragment, 0, 2});
  q.on_lost(ContentRef{0, EntryKind::fragment, 0, 1}, at_ms(0));
  const std::vector<ContentRef> resend = write_packet(q, at_ms(1));
  ASSERT_EQ(resend.size(), 1u);
  EXPECT_EQ(resend[0].fragment_index, 1u);
  q.on_acked(ContentRef{0, EntryKind::fragment, 0, 1});
  EXPECT_EQ(q.messages_acked(), 1u) << "the block is acked when its last fragment is";
}

}  // namespace
}  // namespace tickwire
